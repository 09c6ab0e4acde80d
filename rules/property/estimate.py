"""Property's judge of a table: each seat's worth in dollars, as the bot values it. The rules
give it to the expert (``PropertySpec.estimate``) and the bot scores its choices with it; it
lives apart from both so that the rules never import the bot."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from .state import CELLS, NEIGHBOURS, units_total

GROUP_SQUARE = 0.6  # worth of a group: GROUP_SQUARE × size² + GROUP_CELL × size
GROUP_CELL = 2.0
MORTGAGE_RISK = 1.5  # a mortgaged cell is one forced play from being lost
UNIT_WORTH = 1.0  # units buy cells, and handed-over units arm the opponent
BANKRUPT = -1_000_000.0

def group_worth(size: int, risky: int) -> float:
    return GROUP_SQUARE * size * size + GROUP_CELL * size - MORTGAGE_RISK * risky


def groups(owners: Sequence[int | None], mortgaged: Sequence[bool],
           starts: Iterable[int] = range(CELLS)) -> Iterator[tuple[int, list[int], int]]:
    """The groups holding any of the ``starts`` cells (all cells by default), in the order they
    are found: each one's owner, cells and number of mortgaged cells."""
    seen = [False] * CELLS
    for start in starts:
        owner = owners[start]
        if owner is None or seen[start]:
            continue
        seen[start] = True
        stack, cells, risky = [start], [], 0
        while stack:
            i = stack.pop()
            cells.append(i)
            risky += mortgaged[i]
            for j in NEIGHBOURS[i]:
                # the owner first: most neighbours are another seat's or free
                if owners[j] == owner and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        yield owner, cells, risky


def estate(owners: Sequence[int | None], mortgaged: Sequence[bool], players: int,
           starts: Iterable[int] = range(CELLS)) -> list[float]:
    """Each seat's property worth, from the groups holding any of the ``starts`` cells (all
    cells by default): each group by its size, less the mortgage risk."""
    worth = [0.0] * players
    for owner, cells, risky in groups(owners, mortgaged, starts):
        worth[owner] += group_worth(len(cells), risky)
    return worth


def estimate(state: Any) -> tuple[float, ...]:
    """Each seat's worth as the bot judges a table (the expert's estimate of a position, in
    dollars): money, its groups, its purchase units; a bankrupt seat far below everyone."""
    players = len(state.money)
    worth = estate(state.owners, state.mortgaged, players)
    return tuple(BANKRUPT if seat in state.bankrupt else
                 state.money[seat] + worth[seat] + UNIT_WORTH * units_total(state.units[seat])
                 for seat in range(players))
