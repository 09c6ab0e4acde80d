"""Abundance's command notation.

    choose pile 3                     choose this round's pile (also: choose 3, pile 3)
    bid 12                            a bid; in the sealed round it is the sealed bid
    pass                              no bid now (in the sealed round: bid 0)
    offer: give 7H,$5 take 2S         an offer to the other player (who may be named by
                                      seat number or name: offer 2: …, offer Bob: …,
                                      offer "Bob Smith": …)
    accept    decline                 the answer to an offer
    ready                             done trading in this window (also: done)

Case and spacing are forgiven. ``bid 12`` reads as a sealed bid when the view says the bids on
the card are sealed, so a sealed bid is typed like any other; the log shows it to its bidder
only. Offers are saved without the player, as a two-player table allows (``to`` is None): a
saved move never holds a name, so it means one thing whatever the players are called.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from rules.core import NotationError
from rules.core.offers import counterparty, display_offer, format_offer, parse_sides
from rules.core.words import Sentence

from .commands import Accept, Bid, ChoosePile, Command, Decline, Offer, Pass, Ready, SealedBid
from .state import SEALED_PHASE, AbundanceView

_VERBS = "choose pile N, bid N, pass, offer: give … take …, accept, decline, ready"
_ALIASES = {"accept": Accept, "decline": Decline, "ready": Ready, "done": Ready}


class AbundanceNotation:
    """``format(command)``, ``parse(text, view)`` and ``display(command, names)`` for Abundance."""

    def format(self, command: Command) -> str:
        match command:
            case ChoosePile(pile):
                return f"choose pile {pile}"
            case Bid(amount) | SealedBid(amount):
                return f"bid {amount}"
            case Pass():
                return "pass"
            case Offer():
                return format_offer(replace(command, to=None))
            case Accept():
                return "accept"
            case Decline():
                return "decline"
            case Ready():
                return "ready"
        raise NotationError(f"{command!r} is not an Abundance command")

    def display(self, command: Command, names: Sequence[str]) -> Sentence:
        """``command`` as the log shows it: the words of ``format``, an offer's cards and money
        as parts (``offer: give 7♥, $5 take 2♠``)."""
        if isinstance(command, Offer):
            return display_offer(replace(command, to=None), names)
        return Sentence(self.format(command))

    def parse(self, text: str, view: AbundanceView) -> Command:
        if not isinstance(text, str):
            raise NotationError(f"a command is text, not {text!r}")
        words = text.split()
        if not words:
            raise NotationError("Type a command, for example 'bid 12', 'pass' or 'ready'.")
        verb, args = words[0].lower(), words[1:]
        sealed = getattr(view, "phase", None) == SEALED_PHASE
        if verb.startswith("offer"):
            rest = text.strip()[len("offer"):]
            to, rest = counterparty(text, rest, view.names, view.seat)
            give, take = parse_sides(text, rest)
            # at a table of two the offer goes to the other player: saved without a seat (one
            # to the player's own seat is kept, for the rules to refuse)
            return Offer(to if to is not None and to == view.seat else None, give, take)
        if verb in ("choose", "pile"):
            if args and args[0].lower() == "pile" and verb == "choose":
                args = args[1:]
            return ChoosePile(_number(text, args, "choose pile 3"))
        if verb == "bid":
            amount = _number(text, args, "bid 12")
            return SealedBid(amount) if sealed else Bid(amount)
        if verb == "pass":
            _nothing(text, args)
            return SealedBid(0) if sealed else Pass()
        if verb in _ALIASES:
            _nothing(text, args)
            return _ALIASES[verb]()
        raise NotationError(f"{text.strip()!r} is not an Abundance command; the commands are: {_VERBS}.")


def _number(text: str, args: Sequence[str], example: str) -> int:
    if len(args) != 1:
        raise NotationError(f"{text.strip()!r}: write it as '{example}'.")
    word = args[0].removeprefix("$")
    if not (word.isascii() and word.isdigit()) or len(word) > 9:
        raise NotationError(f"{text.strip()!r}: {word!r} is not a whole number; write it as '{example}'.")
    return int(word)


def _nothing(text: str, args: Sequence[str]) -> None:
    if args:
        raise NotationError(f"{text.strip()!r}: '{text.split()[0].lower()}' takes nothing after it.")
