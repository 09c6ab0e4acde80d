"""Capital Auction's cards and commands in words for the table, from a view only: what a slot
shows to the viewer, what a command would do."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text

from rules.capital_auction.commands import (
    Bid, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take,
)
from rules.capital_auction.cards import CARDS
from rules.capital_auction.state import BID, TOOL, CapitalAuctionView, SlotInfo
from rules.core import Command
from rules.core.words import Sentence, join_names, player, say

BACK = "▒▒"


def slot_text(slot: SlotInfo, viewer: int | None, names: Sequence[str], number: bool = True,
              short: bool = False, owner: int | None = None) -> Text:
    """One Investment card as the viewer sees it: face up in bold; face down as a back, or (to
    someone who knows its face) its name in brackets; then who else has looked at it (their
    initials when ``short``)."""
    text = Text()
    if number:
        text.append(f"{slot.name}:", style="dim")
    if slot.up and slot.card is not None:
        text.append(f"{slot.card.name} {slot.card.value}", style="bold")
    elif slot.card is not None:
        text.append(f"[{slot.card.name} {slot.card.value}]", style="italic")
    else:
        text.append(BACK, style="dim")
    # who else knows its face (its owner always does)
    lookers = [seat for seat in slot.seen if seat not in (viewer, owner)] if not slot.up else []
    if lookers and not slot.up:
        if short:
            text.append("(" + ",".join(names[seat][:1] for seat in lookers) + ")", style="dim")
        else:
            text.append(" seen by " + join_names([names[seat] for seat in lookers]), style="dim")
    return text


def values_text(values: Sequence[int]) -> str:
    return " ".join(map(str, values)) if values else "nothing"


def describe(command: Command, view: CapitalAuctionView, names: Sequence[str], seat: int | None = None) -> Sentence:
    """What ``command`` would do if ``seat`` (by default the seat awaited) played it, in words
    (its players as parts of the sentence)."""
    seat = view.current if seat is None else seat

    def whose(owner: int | None) -> Sentence:
        return Sentence("your") if owner == view.seat else say("{}'s", player(names, owner))

    match command:
        case Bid(values):
            return Sentence(f"Bid {values_text(values)} ({sum(values)} in all)")
        case Pass():
            return Sentence("Play no Tool this time" if view.phase == TOOL else "Pass: leave this auction")
        case Flip(lot):
            return Sentence(f"Turn auction {lot[0]}'s {'left' if lot.endswith('a') else 'right'} card face up")
        case Play(tool, target, card, own, lot, pay):
            parts: list[str] = [CARDS.tool(tool).name]
            if own:
                parts.append(say("on {} card {}", whose(seat), _slot_name(view, seat, own)))
            if target is not None:
                if card:
                    parts.append(say("on {} card {}", whose(target), _slot_name(view, target, card)))
                else:
                    parts.append(say("on {}", player(names, target)))
            if lot:
                parts.append(f"on the table's card {lot}")
            parts.append(f"— pay {values_text(pay)}" if pay else "— free")
            return Sentence(" ").join(parts)
        case React(pay):
            return Sentence(f"React with a Connection in the Government — pay {values_text(pay)}")
        case Decline():
            return Sentence("Let it stand")
        case Take(value):
            return Sentence(f"Take the {value}")
        case DiscardCapital(values):
            return Sentence(f"Discard {values_text(values)}")
        case DiscardTool(tool):
            return Sentence(f"Discard {CARDS.tool(tool).name}")
    return Sentence(str(command))


def _slot_name(view: CapitalAuctionView, seat: int | None, position: int) -> str:
    if seat is None or not 0 < position <= len(view.portfolios[seat]):
        return str(position)
    slot = view.portfolios[seat][position - 1]
    face = f"{slot.card.name} {slot.card.value}" if slot.card is not None else "face down"
    return f"{position} ({face})"


def phase_title(view: CapitalAuctionView) -> str:
    if view.current is None:
        return "The game is over"
    phase = "bidding" if view.phase == BID else f"{view.phase} phase" if view.phase == TOOL else view.phase
    return f"Round {view.round}/4 · auction {view.auction}/3 · {phase}"
