"""Portfolio's command notation.

    draw 3            draw 3 +discard       pauper            pauper +discard
    make 4S 5S 6S     extend P2 7S          cap P2 high 10D   cap P2 low 6H
    neutralise P5 2C  acquire P5 7C         discard QD        end
    offer Bob: give 5H,$4 take P3           accept            decline

Cards are written by face (``7S``), with a copy number when it matters (``7S.1``): parsing
picks the physical card from the acting player's hand (the lowest copy unless one is named),
and formatting writes the physical card, so ``parse(format(c)) == c``. In an offer the player
is named (any case) or numbered from 1; either side may be left out or written ``nothing``;
money is written ``$4``.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from rules.core import Card, NotationError, find_card, parse_card

from .commands import (
    Accept, Acquire, Cap, Command, Decline, Discard, Draw, End, Extend, Make, Neutralise, Offer,
    Pauper,
)
from .state import HIGH, LOW, PortfolioState

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
    "offer": "offer Bob: give 5H,$4 take P3",
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


def format_items(cards: Sequence[Card], portfolios: Sequence[str], money: int) -> str:
    items = [card.key for card in cards] + list(portfolios) + ([f"${money}"] if money else [])
    return ",".join(items)


class PortfolioNotation:
    """``format(command)`` and ``parse(text, state)`` for Portfolio."""

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
                text = f"offer {command.to}:"
                give = format_items(command.give_cards, command.give_portfolios, command.give_money)
                take = format_items(command.take_cards, command.take_portfolios, command.take_money)
                return text + (f" give {give}" if give else "") + (f" take {take}" if take else "")
            case Accept():
                return "accept"
            case Decline():
                return "decline"
            case Discard(card):
                return f"discard {card.key}"
            case End():
                return "end"
        raise NotationError(f"{command!r} is not a Portfolio command")

    def parse(self, text: str, state: PortfolioState) -> Command:
        words = text.split()
        if not words:
            raise NotationError("Type a command, for example 'draw 2' or 'discard QD'.")
        verb = words[0].lower()
        args = words[1:]
        seat = state.awaiting if state.awaiting is not None else state.current
        hand = state.hands[seat]
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
            if not args[0].isdigit():
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
            return Discard(discard_choice(hand, state.taken_discard, parse_card(args[0])))
        if verb in ("accept", "decline", "end"):
            _arity(text, verb, args, 0)
            return {"accept": Accept, "decline": Decline, "end": End}[verb]()
        if verb == "offer":
            return _parse_offer(text, text.strip()[len(words[0]):].strip(), state, hand)
        raise NotationError(f"{text!r} is not a Portfolio command; the commands are: {_VERBS}.")


def _arity(text: str, verb: str, args: Sequence[str], count: int) -> None:
    if len(args) != count:
        raise NotationError(f"{text!r}: write it as '{_EXAMPLE.get(verb, verb)}'.")


def _pid(text: str, word: str) -> str:
    found = _PID.match(word)
    if not found:
        raise NotationError(f"{text!r}: {word!r} is not a portfolio; portfolios are named P1, P2, …")
    return f"P{int(found.group(1))}"


def _player(text: str, rest: str, names: Sequence[str]) -> tuple[str, str]:
    """The canonical name at the start of ``rest`` (a name in any case, or a seat number from
    1), and the text after its colon."""
    lowered = rest.lower()
    for name in sorted(names, key=len, reverse=True):
        if lowered.startswith(name.lower()) and rest[len(name):].lstrip().startswith(":"):
            return name, rest[len(name):].lstrip()[1:]
    who, colon, after = rest.partition(":")
    if not colon:
        raise NotationError(f"{text!r}: write the player's name and a colon, as in '{_EXAMPLE['offer']}'.")
    who = who.strip()
    if who.isdigit() and 1 <= int(who) <= len(names):
        return names[int(who) - 1], after
    raise NotationError(f"{text!r}: {who!r} is not a player here; the players are {', '.join(names)}.")


def _parse_offer(text: str, rest: str, state: PortfolioState, hand: Sequence[Card]) -> Offer:
    name, rest = _player(text, rest, state.names)
    sides: dict[str, list[str]] = {}
    side: str | None = None
    for word in rest.replace(",", " ").split():
        lowered = word.lower()
        if lowered in ("give", "take"):
            if lowered in sides:
                raise NotationError(f"{text!r}: say '{lowered}' only once.")
            side = lowered
            sides[side] = []
        elif side is None:
            raise NotationError(f"{text!r}: list items after 'give' or 'take', as in '{_EXAMPLE['offer']}'.")
        elif lowered != "nothing":
            sides[side].append(word)
    give = _items(text, sides.get("give", []), hand, resolve_cards=True)
    take = _items(text, sides.get("take", []), hand, resolve_cards=False)
    return Offer(name, *give, *take)


def _items(text: str, words: Sequence[str], hand: Sequence[Card], resolve_cards: bool
           ) -> tuple[tuple[Card, ...], tuple[str, ...], int]:
    cards: list[Card] = []
    portfolios: list[str] = []
    money: int | None = None
    for word in words:
        if word.startswith("$"):
            if money is not None:
                raise NotationError(f"{text!r}: give one sum of money per side, as in '$4'.")
            if not word[1:].isdigit():
                raise NotationError(f"{text!r}: {word!r} is not a sum of money; write '$4'.")
            money = int(word[1:])
        elif _PID.match(word):
            portfolios.append(_pid(text, word))
        else:
            card = parse_card(word)
            cards.append(resolve(hand, card, cards) if resolve_cards else card)
    return tuple(cards), tuple(portfolios), money or 0
