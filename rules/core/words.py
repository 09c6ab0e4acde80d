"""Small helpers for the sentences games write in their events, messages and results."""

from __future__ import annotations

from typing import Sequence


def plural(count: int, word: str) -> str:
    """``plural(1, "cell")`` → "1 cell", ``plural(6, "cell")`` → "6 cells"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def dollars(amount: int) -> str:
    """``dollars(8)`` → "$8"."""
    return f"${amount}"


def join_names(items: Sequence[str], last: str = "and") -> str:
    """``["Ann"]`` → "Ann"; ``["Ann", "Bob", "Cleo"]`` → "Ann, Bob and Cleo"."""
    items = list(items)
    if not items:
        return "nobody"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def winners_sentence(names: Sequence[str], winners: Sequence[int], amount: str = "") -> str:
    """The headline of a result: "Ann wins with $40" or "Ann and Bob share the win with $40
    each" (without the amount when it is empty). No full stop: callers add what follows."""
    who = [names[seat] for seat in winners]
    if not who:
        return "Nobody wins"
    if len(who) == 1:
        return f"{who[0]} wins" + (f" with {amount}" if amount else "")
    return f"{join_names(who)} share the win" + (f" with {amount} each" if amount else "")


def result_text(names: Sequence[str], winners: Sequence[int]) -> str:
    """The result in the past tense for lists: "Ann won", "Ann and Bob shared the win"."""
    who = [names[seat] for seat in winners]
    if not who:
        return "nobody won"
    if len(who) == 1:
        return f"{who[0]} won"
    return f"{join_names(who)} shared the win"
