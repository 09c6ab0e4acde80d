"""Portfolio's judge of a table: each seat's expected final money. The rules give it to the
expert (``PortfolioGame.estimate``) and the bot prices its choices over the same horizons; it
lives apart from both so that the rules never import the bot."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .state import PortfolioInfo, PortfolioState

DRAW_RATE = 1.5  # cards a player draws per turn, on average: turns left ≈ cards left / 1.5


def collections_left(n: int, current: int, dealer: int, last_round: bool, cards_left: int) -> list[int]:
    """For each seat, how many more times it will collect income (coming turns + the final)."""
    return list(collection_counts(n, current, dealer, last_round, cards_left))


@lru_cache(maxsize=4096)  # a few hundred tables of numbers, asked by the bot at every decision
def collection_counts(n: int, current: int, dealer: int, last_round: bool, cards_left: int) -> tuple[int, ...]:
    """``collections_left`` as a tuple, kept: the bot reads it at every decision."""
    if last_round:
        return tuple(2 if current < s <= dealer else 1 for s in range(n))
    turns_left = cards_left / DRAW_RATE
    result = []
    for seat in range(n):
        wait = (seat - current) % n or n  # turns until this seat starts a turn again
        result.append(1 + (int((turns_left - wait) // n) + 1 if turns_left >= wait else 0))
    return tuple(result)


def estimate(state: PortfolioState, infos: Sequence[PortfolioInfo]) -> tuple[float, ...]:
    """Each seat's expected final money, judged from the table (the expert's estimate): its
    money, plus its portfolios' income over the collections still to come. ``infos``: the
    table's portfolios as the views show them (rules.infos_of), valued already (every playout
    of the expert ends here)."""
    n = state.players
    cards_left = len(state.stock) + (len(state.discard) if state.reshuffle_pending else 0)
    # (the seat whose turn it is has collected this turn's income already: it is in its money)
    horizon = collections_left(n, state.current, state.dealer, state.last_round, cards_left)
    worth = [float(m) for m in state.money]
    for info in infos:
        worth[info.owner] += info.value * horizon[info.owner]
    return tuple(worth)
