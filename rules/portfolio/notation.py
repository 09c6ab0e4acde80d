"""Portfolio's command notation.

    draw 3            draw 3 +discard       pauper            pauper +discard
    make 4S 5S 6S     extend P2 7S          cap P2 high 10D   cap P2 low 6H
    neutralise P5 2C  acquire P5 7C         discard QD        end
    offer 2: give 5H,$4 take P3             accept            decline

Cards are written by face (``7S``), with a copy number when it matters (``7S.1``): parsing
picks the physical card from the acting player's hand (the lowest copy unless one is named),
and formatting writes the physical card, so ``parse(format(c)) == c``. In an offer the player
is written by seat number from 1, so a saved move means one thing whatever the players are
called; a person may type the name instead (any case, quoted where it holds spaces or could be
read as a number: ``offer "Bob 2": …``), and at a table of two leave it out (``offer: …``).
Either side may be left out or written ``nothing``; money is written ``$4``. ``display``
writes a command as the log shows it: cards in symbols (no copy numbers), the player by name.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from rules.core import Card, NotationError, find_card, parse_card
from rules.core.notation import seat_number
from rules.core.offers import counterparty, display_offer, format_offer, parse_sides
from rules.core.words import Sentence, say

from .commands import (
    Accept, Acquire, Cap, Command, Decline, Discard, Draw, End, Extend, Make, Neutralise, Offer,
    Pauper,
)
from .state import HIGH, LOW, PortfolioView

_PID = re.compile(r"^[Pp](\d+)$")
_VERBS = "draw, pauper, make, extend, cap, neutralise, acquire, offer, accept, decline, discard, end"
_EXAMPLE = {
    "draw": "draw 3 or draw 3 +discard",
    "pauper": "pauper or pauper +discard",
    "make": "make 4S 5S 6S",
    "extend": "extend P2 7S",
    "cap": "cap P2 high 10D",
    "neutralise": "neutralise P5 2C",
    "acquire": "acquire P5 7C",
    "discard": "discard QD",
    "offer": "offer 2: give 5H,$4 take P3",
}


def resolve(cards: Iterable[Card], wanted: Card, exclude: Sequence[Card] = ()) -> Card:
    """The physical card among ``cards`` (less ``exclude``) that the text names; the text's own
    card when there is none, so that ``check`` can refuse it in words."""
    found = find_card([c for c in cards if c not in exclude], wanted)
    return wanted if found is None else found


def discard_choice(hand: Sequence[Card], taken: Card | None, wanted: Card) -> Card:
    """The copy ``discard <face>`` means: any copy but the card taken from the discard pile this
    turn, unless that card is all there is."""
    if taken is not None and len(hand) > 1:
        others = [c for c in hand if c != taken]
        found = find_card(others, wanted)
        if found is not None:
            return found
    return resolve(hand, wanted)


class PortfolioNotation:
    """``format(command)`` and ``parse(text, view)`` for Portfolio."""

    def format(self, command: Command) -> str:
        match command:
            case Draw(count, discard):
                return f"draw {count}" + (" +discard" if discard else "")
            case Pauper(discard):
                return "pauper" + (" +discard" if discard else "")
            case Make(cards):
                return "make " + " ".join(card.key for card in cards)
            case Extend(pid, card):
                return f"extend {pid} {card.key}"
            case Cap(pid, end, card):
                return f"cap {pid} {end} {card.key}"
            case Neutralise(pid, card):
                return f"neutralise {pid} {card.key}"
            case Acquire(pid, card):
                return f"acquire {pid} {card.key}"
            case Offer():
                return format_offer(command)
            case Accept():
                return "accept"
            case Decline():
                return "decline"
            case Discard(card):
                return f"discard {card.key}"
            case End():
                return "end"
        raise NotationError(f"{command!r} is not a Portfolio command")

    def display(self, command: Command, names: Sequence[str]) -> Sentence:
        """``command`` as the log shows it: the words of ``format``, with its cards as Card parts
        (``discard Q♦``, no copy numbers) and the player of an offer by name."""
        match command:
            case Make(cards):
                return say("make {}", Sentence(" ").join(cards))
            case Extend(pid, card) | Neutralise(pid, card) | Acquire(pid, card):
                return say("{} {} {}", type(command).__name__.lower(), pid, card)
            case Cap(pid, end, card):
                return say("cap {} {} {}", pid, end, card)
            case Offer():
                return display_offer(command, names)
            case Discard(card):
                return say("discard {}", card)
        return Sentence(self.format(command))

    def parse(self, text: str, view: PortfolioView) -> Command:
        words = text.split()
        if not words:
            raise NotationError("Type a command, for example 'draw 2' or 'discard QD'.")
        verb = words[0].lower()
        args = words[1:]
        hand = view.hand
        if verb == "neutralize":
            verb = "neutralise"
        if verb in ("draw", "pauper"):
            discard = bool(args) and args[-1].lower() == "+discard"
            if discard:
                args = args[:-1]
            if verb == "pauper":
                _arity(text, verb, args, 0)
                return Pauper(discard)
            _arity(text, verb, args, 1)
            if not (args[0].isascii() and args[0].isdigit() and len(args[0]) <= 3):
                raise NotationError(f"{text!r}: the number of cards must be a whole number, as in 'draw 3'.")
            return Draw(int(args[0]), discard)
        if verb == "make":
            if not args:
                raise NotationError(f"{text!r}: name the cards, as in 'make 4S 5S 6S'.")
            chosen: list[Card] = []
            for word in " ".join(args).replace(",", " ").split():
                chosen.append(resolve(hand, parse_card(word), chosen))
            return Make(tuple(chosen))
        if verb in ("extend", "neutralise", "acquire"):
            _arity(text, verb, args, 2)
            pid, card = _pid(text, args[0]), resolve(hand, parse_card(args[1]))
            return {"extend": Extend, "neutralise": Neutralise, "acquire": Acquire}[verb](pid, card)
        if verb == "cap":
            _arity(text, verb, args, 3)
            end = args[1].lower()
            if end not in (LOW, HIGH):
                raise NotationError(f"{text!r}: say which end to cap, low or high, as in 'cap P2 high 10D'.")
            return Cap(_pid(text, args[0]), end, resolve(hand, parse_card(args[2])))
        if verb == "discard":
            _arity(text, verb, args, 1)
            return Discard(discard_choice(hand, view.taken_discard, parse_card(args[0])))
        if verb in ("accept", "decline", "end"):
            _arity(text, verb, args, 0)
            return {"accept": Accept, "decline": Decline, "end": End}[verb]()
        if verb.partition(":")[0] == "offer":  # "offer: …" at a table of two names nobody
            return _parse_offer(text, text.strip()[len("offer"):], view, hand)
        raise NotationError(f"{text!r} is not a Portfolio command; the commands are: {_VERBS}.")


def _arity(text: str, verb: str, args: Sequence[str], count: int) -> None:
    if len(args) != count:
        raise NotationError(f"{text!r}: write it as '{_EXAMPLE.get(verb, verb)}'.")


def _pid(text: str, word: str) -> str:
    found = _PID.match(word)
    if not found or not word.isascii() or len(word) > 6:
        raise NotationError(f"{text!r}: {word!r} is not a portfolio; portfolios are named P1, P2, …")
    return f"P{int(found.group(1))}"


def _holding(word: str) -> str | None:
    """A portfolio's name (``p03`` → ``P3``), or None for any other word."""
    found = _PID.match(word)
    return f"P{int(found.group(1))}" if found and word.isascii() and len(word) <= 6 else None


def _parse_offer(text: str, rest: str, view: PortfolioView, hand: Sequence[Card]) -> Offer:
    who, colon, after = rest.partition(":")
    to = seat_number(who.strip(), view.names) if colon else None
    if to is not None:
        # a number is a seat, as saved, even beside a player called "3" (``counterparty`` would
        # read that name first): typed, such a name is quoted
        rest = after
    else:
        to, rest = counterparty(text, rest, view.names, view.seat)
    if to is None:  # at a table of two, "offer: …" goes to the other player
        to = 1 - view.seat if view.seat is not None else 0
    give, take = parse_sides(text, rest, _holding, lambda card, chosen: resolve(hand, card, chosen))
    return Offer(to, give, take)
