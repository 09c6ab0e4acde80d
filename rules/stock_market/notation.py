"""Card Stock Market's command notation.

    buy 7H          make the 7♥ in your hand a certificate: 7 shares of ♥
    sell 7H         sell your 7♥ certificate at the current price
    lay 9D          lay the 9♦ on the ♦ price pile: ♦ is now $9
    lay QS 12       lay the Q♠ as $12        lay QS 0    lay it as $0: ♠ goes bankrupt
    discard 3C 4C   discard 1–4 cards (only in a turn with no trading and no price change)
    end             end the turn and refill to eight

Cards are written by face (``7H``), with a copy number when it matters (``7H.1``): parsing picks
the physical card (the lowest copy in the hand; for ``sell``, the lowest certificate that may
be sold), and formatting writes the physical card, so ``parse(format(c)) == c``. A court card
laid without a value (``lay QS``) stands for its face value; ``$12`` is read as ``12``; ``done``
and ``pass`` mean ``end``; case and spacing do not matter. No command names a player, so a
saved move means the same whatever the players are called.

``display`` writes a command as the log shows it: the same words, the cards as parts of a
Sentence (``lay Q♠ 12``), without copy numbers.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.core import Card, NotationError, find_card, parse_card
from rules.core.words import Sentence

from .commands import Buy, Command, Discard, End, Lay, Sell
from .rules import sell_choice
from .state import SELL_SAME_TURN, StockMarketView, is_court

_VERBS = "buy, sell, lay, discard, end"
_EXAMPLE = {
    "buy": "buy 7H",
    "sell": "sell 7H",
    "lay": "lay 9D, lay QS 12 or lay QS 0",
    "discard": "discard 3C 4C",
    "end": "end",
}
_END = ("end", "done", "pass")


def resolve(cards: Sequence[Card], wanted: Card, exclude: Sequence[Card] = ()) -> Card:
    """The physical card among ``cards`` (less ``exclude``) that the text names; the text's own
    card when there is none, so that ``check`` can refuse it in words."""
    found = find_card([c for c in cards if c not in exclude], wanted)
    return wanted if found is None else found


def _words(command: Command) -> list[Any]:
    """A command's words: its verb, then its cards (as Cards) and a price."""
    match command:
        case Buy(card):
            return ["buy", card]
        case Sell(card):
            return ["sell", card]
        case Lay(card, price):
            if isinstance(card, Card) and not is_court(card) and price == card.rank:
                return ["lay", card]
            return ["lay", card, price]
        case Discard(cards):
            return ["discard", *cards]
        case End():
            return ["end"]
    raise NotationError(f"{command!r} is not a Card Stock Market command")


class StockMarketNotation:
    """``format(command)``, ``parse(text, view)`` and ``display(command, names)`` for Card
    Stock Market."""

    def format(self, command: Command) -> str:
        return " ".join(word.key if isinstance(word, Card) else str(word) for word in _words(command))

    def display(self, command: Command, names: Sequence[str]) -> Sentence:
        """``command`` as the log shows it: ``format``'s words, each card a part (``lay Q♠ 12``)."""
        return Sentence(" ").join(_words(command))

    def parse(self, text: str, view: StockMarketView) -> Command:
        if not isinstance(text, str):
            raise NotationError(f"expected a command such as 'buy 7H', got {text!r}")
        words = text.split()
        if not words:
            raise NotationError("Type a command, for example 'buy 7H', 'lay 9D' or 'end'.")
        verb, args = words[0].lower(), words[1:]
        hand = view.hand
        if verb in _END:
            _arity(text, "end", args, 0)
            return End()
        if verb == "buy":
            _arity(text, verb, args, 1)
            return Buy(resolve(hand, parse_card(args[0])))
        if verb == "sell":
            _arity(text, verb, args, 1)
            seat = view.seat
            held = view.holdings[seat] if seat is not None and 0 <= seat < len(view.holdings) else ()
            allow = bool(view.options.get(SELL_SAME_TURN))
            return Sell(sell_choice(held, view.bought, allow, parse_card(args[0])))
        if verb == "lay":
            if len(args) not in (1, 2):
                raise NotationError(f"{text.strip()!r}: write it as '{_EXAMPLE['lay']}'.")
            card = resolve(hand, parse_card(args[0]))
            if len(args) == 1:
                return Lay(card, card.rank)
            return Lay(card, _price(text, args[1]))
        if verb == "discard":
            names = " ".join(args).replace(",", " ").split()
            if not names:
                raise NotationError(f"{text.strip()!r}: name the cards, as in '{_EXAMPLE['discard']}'.")
            wanted = [parse_card(word) for word in names]
            named = [card for card in wanted if card.copy]  # copies named outright are theirs
            chosen: list[Card] = []
            for card in wanted:
                chosen.append(card if card.copy else resolve(hand, card, chosen + named))
            return Discard(tuple(chosen))
        raise NotationError(f"{text.strip()!r} is not a Card Stock Market command; the commands are: {_VERBS}.")


def _arity(text: str, verb: str, args: Sequence[str], count: int) -> None:
    if len(args) != count:
        raise NotationError(f"{text.strip()!r}: write it as '{_EXAMPLE[verb]}'.")


def _price(text: str, word: str) -> int:
    digits = word[1:] if word.startswith("$") else word
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 3):
        raise NotationError(f"{text.strip()!r}: {word!r} is not a price; a court card is laid as its "
                            "value or as 0, as in 'lay QS 12' or 'lay QS 0'.")
    return int(digits)
