"""Property's bot: a one-move look-ahead over a simple worth estimate.

Every legal play (and, after rent, every useful purchase) is scored by what the table would
look like after it: money, plus each owned group valued by the square of its size (a big group
earns big rents and threatens every cell in it), minus a little for each mortgaged cell (one
more forced play loses it), plus a little for purchase units and for 9s and 10s kept in hand.
The score is the bot's worth minus its strongest opponent's. So it grows its own groups, pays
the lowest rent when every choice costs, dodges rent by mortgaging, loses a mortgaged cell only
when that is the cheapest way out, and buys a cell when the group it joins is worth the units.

It is given only its seat's view (the grid, money, units and its own hand) and legal commands.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..core import Card, Command
from .commands import Buy, Play
from .estimate import BANKRUPT, UNIT_WORTH, group_worth, groups
from .rules import WILD_RANKS, group_size, is_wild, multiplier, units_total, useful_purchases
from .state import CELLS, NEIGHBOURS, PropertyView, index

LOST_CELL = 12.0  # beyond its group worth: an emptied cell is for anyone to take, so only when forced
WILD_KEPT = 3.0  # a 9 or 10 in hand gives choice next turn


class PropertyBot:
    """Picks the command that leaves it best placed against its strongest opponent."""

    def choose(self, view: PropertyView, legal: Sequence[Command], rng: random.Random) -> Command:
        table = _Table(view, view.seat)
        if view.pending is not None:
            pending = view.pending
            return max(legal, key=lambda command: table.after_answer(command, pending.owner, index(pending.col, pending.row)))
        # as max(legal, key=table.after_play), each cell's change scored once: the plays naming
        # a cell differ only by the wilds they keep (and, for rent, by its multiplier)
        cells: dict[int, float] = {}
        wilds, owners, seat = table.wilds, view.owners, view.seat
        best, best_value = None, 0.0
        for play in legal:
            red, black = play.red, play.black  # type: ignore[attr-defined]
            i = index(play.col, play.row)  # type: ignore[attr-defined]
            owner = owners[i]
            key = 8 * i + multiplier(red, black) if owner is not None and owner != seat else 8 * i
            cell = cells.get(key)
            if cell is None:
                cell = cells[key] = table._after_cell(play)  # type: ignore[arg-type]
            value = cell + WILD_KEPT * (wilds - (red.rank in WILD_RANKS) - (black.rank in WILD_RANKS))
            if best is None or value > best_value:
                best, best_value = play, value
        return best  # type: ignore[return-value]


_READINGS: dict[tuple, tuple[list[float], list[int], list[int], list[int], list[float],
                              dict[tuple[int, int | None, bool], list[float]]]] = {}


class _Table:
    """The public table as the bot sees it, scoring a change of one cell by re-reading only
    the groups around that cell."""

    def __init__(self, view: PropertyView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.players = len(view.money)
        # the groups and the estates after a cell's change depend on the grid alone, which the
        # expert's playouts meet again and again (every deal of a decision starts from the same
        # grid): kept by the grid
        key = (view.owners, view.mortgaged, self.players)
        reading = _READINGS.get(key)
        if reading is None:
            # a few hundred: the grids of a decision's deals; thousands held ~70,000 objects
            # for good, and every full collection of the collector's walked them (random play in
            # the same process ran a third slower after bot games)
            if len(_READINGS) > 500:
                _READINGS.clear()
            reading = _READINGS[key] = (*_groups(view.owners, view.mortgaged, self.players), {})
        self.estate, self.group, self.sizes, self.risks, self.worths, self._estates = reading
        self.units = [units_total(u) for u in view.units]
        self.rivals = [s for s in range(self.players) if s != seat and not view.bankrupt[s]]
        self.wilds = sum([card.rank in WILD_RANKS for card in view.hand])  # is_wild's, without a call a card
        self._cheapest: dict[int, tuple[Card, ...] | None] = {}

    def score(self, estate: Sequence[float], money: Sequence[int], units: Sequence[int]) -> float:
        seat, rivals = self.seat, self.rivals
        if len(rivals) == 1:  # the max of one, without a list (most tables are of two)
            other = rivals[0]
            rival = money[other] + estate[other] + UNIT_WORTH * units[other]
        else:
            rival = max([money[s] + estate[s] + UNIT_WORTH * units[s] for s in rivals], default=0.0)
        return money[seat] + estate[seat] + UNIT_WORTH * units[seat] - rival

    def group_size(self, col: int, row: int) -> int:
        label = self.group[index(col, row)]  # the groups of the table, read once
        return 0 if label < 0 else self.sizes[label]

    def cheapest_purchase(self, size: int) -> tuple[Card, ...] | None:
        """Of the purchases of a group this size, the one handing over the fewest units: no
        other can score better."""
        if size not in self._cheapest:
            purchases = useful_purchases(self.view.units[self.seat], size)
            self._cheapest[size] = min(purchases, key=units_total) if purchases else None
        return self._cheapest[size]

    def estate_after(self, i: int, owner: int | None, mortgaged: bool) -> list[float]:
        """The estate if cell ``i`` had this owner and mortgage."""
        key = (i, owner, mortgaged)
        found = self._estates.get(key)
        if found is None:
            found = self._estates[key] = self._estate_after(i, owner, mortgaged)
        return found

    def _estate_after(self, i: int, owner: int | None, mortgaged: bool) -> list[float]:
        owners, flags = self.view.owners, self.view.mortgaged
        touched = [i, *NEIGHBOURS[i]]
        group, sizes, risks, worths = self.group, self.sizes, self.risks, self.worths
        # ``estate`` of the groups around the cell, from the groups of the table read once: the
        # same groups in the same order as its flood fill finds them, so the same floats
        before = [0.0] * self.players
        seen: set[int] = set()
        for start in touched:
            held = owners[start]
            if held is not None and group[start] not in seen:
                seen.add(group[start])
                before[held] += worths[group[start]]
        old = owners[i]
        # ``estate`` of the groups around the cell after the change, in the order its flood fill
        # of the changed grid finds them: the cell's group first (it joins the groups of its new
        # owner around it), then each neighbour's. A group of neither owner is as read; the cell
        # leaving its old owner's group may split it, and each piece of it is filled afresh.
        after = [0.0] * self.players
        seen = set()  # the groups as read that are found
        if owner is not None:
            if old == owner:
                seen.add(group[i])
                size, risky = sizes[group[i]], risks[group[i]] - flags[i] + mortgaged
            else:
                for j in NEIGHBOURS[i]:
                    if owners[j] == owner:
                        seen.add(group[j])
                size, risky = 1, int(mortgaged)
                for g in seen:
                    size += sizes[g]
                    risky += risks[g]
            after[owner] += group_worth(size, risky)
        pieces: set[int] = set()  # the cells of the pieces of a split group filled so far
        for start in touched[1:]:
            held = owners[start]
            if held is None or held == owner:
                continue  # free, or in the cell's group
            if held != old:
                if group[start] not in seen:
                    seen.add(group[start])
                    after[held] += worths[group[start]]
            elif start not in pieces:
                pieces.add(start)
                stack, size, risky = [start], 0, 0
                while stack:
                    cell = stack.pop()
                    size += 1
                    risky += flags[cell]
                    for j in NEIGHBOURS[cell]:
                        if owners[j] == old and j != i and j not in pieces:
                            pieces.add(j)
                            stack.append(j)
                after[old] += group_worth(size, risky)
        return [self.estate[s] - before[s] + after[s] for s in range(self.players)]

    def after_play(self, play: Play) -> float:
        kept = self.wilds - is_wild(play.red) - is_wild(play.black)
        return self._after_cell(play) + WILD_KEPT * kept

    def _after_cell(self, play: Play) -> float:
        seat, view = self.seat, self.view
        i = index(play.col, play.row)
        owner = view.owners[i]
        if owner is None:
            return self.score(self.estate_after(i, seat, False), view.money, self.units)
        if owner == seat and view.mortgaged[i]:
            return self.score(self.estate_after(i, None, False), view.money, self.units) - LOST_CELL
        if owner == seat:
            return self.score(self.estate_after(i, seat, True), view.money, self.units)
        size = self.group_size(play.col, play.row)
        rent = size * multiplier(play.red, play.black)
        if rent > view.money[seat]:
            return BANKRUPT - rent
        money = list(view.money)
        money[seat] -= rent
        money[owner] += rent
        declined = self.score(self.estate, money, self.units)
        cheapest = self.cheapest_purchase(size)
        if cheapest is None:
            return declined
        return max(declined, self.after_purchase(i, owner, cheapest, money))

    def after_purchase(self, i: int, owner: int, handed: Sequence[Card], money: Sequence[int]) -> float:
        units = list(self.units)
        value = units_total(handed)
        units[self.seat] -= value
        units[owner] += value
        return self.score(self.estate_after(i, self.seat, self.view.mortgaged[i]), money, units)

    def after_answer(self, command: Command, owner: int, i: int) -> float:
        if isinstance(command, Buy):
            return self.after_purchase(i, owner, command.units, self.view.money)
        return self.score(self.estate, self.view.money, self.units)



def _groups(owners: Sequence[int | None], mortgaged: Sequence[bool], players: int
            ) -> tuple[list[float], list[int], list[int], list[int], list[float]]:
    """``estate`` of the whole table (the same floats: the same groups added in the same order),
    and the groups it found: each cell's group (-1 for a free cell), each group's size,
    mortgaged cells and worth (``group_worth``)."""
    worth = [0.0] * players
    group = [-1] * CELLS
    sizes: list[int] = []
    risks: list[int] = []
    worths: list[float] = []
    for label, (owner, cells, risky) in enumerate(groups(owners, mortgaged)):
        for i in cells:
            group[i] = label
        sizes.append(len(cells))
        risks.append(risky)
        worths.append(group_worth(len(cells), risky))
        worth[owner] += worths[-1]
    return worth, group, sizes, risks, worths


class GreedyBot:
    """The yardstick: claims a free cell when its cards name one, else plays where the rent is
    lowest; buys whenever it can, paying the least (in as few cards as that allows); looks no
    further."""

    def choose(self, view: PropertyView, legal: Sequence[Command], rng: random.Random) -> Command:
        if view.pending is not None:
            buys = [command for command in legal if isinstance(command, Buy)]
            return min(buys, key=lambda buy: (units_total(buy.units), len(buy.units))) if buys else legal[0]

        def cost(play: Command) -> tuple[int, int]:
            if not isinstance(play, Play):
                return (1, 0)
            owner = view.owners[index(play.col, play.row)]
            if owner is None:
                return (-1, 0)  # a free cell: claim it
            if owner == view.seat:
                return (0, 0)
            return (0, group_size(view.owners, play.col, play.row) * multiplier(play.red, play.black))

        return min(legal, key=cost)
