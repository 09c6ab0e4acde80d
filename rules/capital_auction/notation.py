"""Capital Auction's command notation.

    bid 5 3 1                  the whole bid: Capital cards by value (its total, 9, must beat the standing bid)
    pass                       out of this auction; in the Tool phase: no Tool this time
    flip 3a                    after winning auction 2: turn auction 3's left card (3b: the right one)
    tool insider 2 2           a Tool on player 2's portfolio card 2 (players and cards count from 1)
    tool insider 3a            a Tool on a card on the table
    tool press 1 pay 2         a Tool on one's own card 1, paying a Capital 2 for it
    tool merger 1 2 2          give one's card 1 to player 2 and take their card 2
    tool tax 2                 tool bailout        tool venture pay 1
    react connection pay 1     cancel the card just played with a Connection (decline: let it stand)
    take 5                     Industrial Espionage: take a 5 from the hand looked at
    discard 3 1                Tax Inspection's victim: discard a 3 and a 1
    discard audit              Venture Fund: discard an Audit

A player is written by seat number from 1, so a saved move means one thing whatever the players
are called; a person may type the name instead, in any case, quoted where it holds spaces or
could be read as something else (``tool merger 1 "Bob 2" 2``, ``tool tax "3"``): see
``rules.core.notation``. Tools are named by their key in the card set (``insider``) or their
full name with hyphens (``insider-information``). ``pay`` may be left out: the lowest Capital
cards pay (what the command line fills in); the log always writes it. Values are written
highest first.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from rules.core import NotationError
from rules.core.notation import players_by_number, read_player, seat_word, split_words
from rules.core.words import Sentence, player

from .cards import CARDS, CONNECTION
from .commands import Bid, Command, Decline, DiscardCapital, DiscardTool, Flip, Pass, Play, React, Take
from .state import CapitalAuctionView, read_lot

_VERBS = "bid, pass, flip, tool, react, decline, take, discard"
_EXAMPLES = {
    "insider": "tool insider Bob 2' or 'tool insider 3a",
    "press": "tool press 1",
    "audit": "tool audit Bob 2",
    "cover-up": "tool cover-up 1",
    "takeover": "tool takeover Bob 2",
    "merger": "tool merger 1 Bob 2",
    "write-off": "tool write-off 1",
    "tax": "tool tax Bob",
    "espionage": "tool espionage Bob",
    "offering": "tool offering 3a",
}


def example(key: str) -> str:
    """How to write a play of this Tool (for messages)."""
    effect = CARDS.tool(key).effect
    text = _EXAMPLES.get(effect, f"tool {key}")
    return text.replace(f"tool {effect}", f"tool {key}")


def _alias(name: str) -> str:
    return "-".join("".join(ch for ch in word if ch.isalnum() or ch == "-") for word in name.lower().split())


_TOOL_WORDS = {**{_alias(kind.name): kind.key for kind in CARDS.tools}, **{kind.key: kind.key for kind in CARDS.tools}}


def tool_key(word: str) -> str | None:
    """The card set's key of a Tool named by key or hyphenated name, any case; else None."""
    return _TOOL_WORDS.get(word.lower())


def connection_key() -> str:
    return next(kind.key for kind in CARDS.tools if kind.effect == CONNECTION)


def _number(text: str, word: str, what: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise NotationError(f"{text!r}: {word!r} is not {what}; write a whole number such as 2.")
    return int(word)


def _values(text: str, words: Sequence[str], what: str) -> tuple[int, ...]:
    values = tuple(_number(text, w, "a Capital value") for w in words)
    if not values:
        raise NotationError(f"{text!r}: name the {what} by value, e.g. 5 3.")
    return tuple(sorted(values, reverse=True))


def _words(command: Command, who: Callable[[int], Any]) -> list[Any]:
    """The words of a command, a player written by ``who(seat)``; what ``format`` and
    ``display`` share."""
    match command:
        case Bid(values):
            return ["bid", *map(str, values)]
        case Pass():
            return ["pass"]
        case Flip(lot):
            return ["flip", lot]
        case Play(tool, seat, card, own, lot, pay):
            words: list[Any] = ["tool", tool]
            words += [str(own)] if own else []
            words += [who(seat)] if seat is not None else []
            words += [str(card)] if card else []
            words += [lot] if lot else []
            words += ["pay", *map(str, pay)] if pay else []
            return words
        case React(pay):
            return ["react", connection_key(), *(["pay", *map(str, pay)] if pay else [])]
        case Decline():
            return ["decline"]
        case Take(value):
            return ["take", str(value)]
        case DiscardCapital(values):
            return ["discard", *map(str, values)]
        case DiscardTool(tool):
            return ["discard", tool]
    raise NotationError(f"{command!r} is not a Capital Auction command")


class CapitalAuctionNotation:
    """``format(command)``, ``display(command, names)`` and ``parse(text, view)`` for Capital
    Auction."""

    def format(self, command: Command) -> str:
        return " ".join(_words(command, seat_word))

    def display(self, command: Command, names: Sequence[str]) -> Sentence:
        """The command as the log shows it: the words of ``format``, a player by name (a part)."""
        return Sentence(" ").join(_words(command, lambda seat: player(names, seat)))

    def parse(self, text: str, view: CapitalAuctionView) -> Command:
        if not isinstance(text, str):
            raise NotationError(f"a command is text, not {type(text).__name__}")
        words = split_words(text)
        if not words:
            raise NotationError("Type a command, for example 'bid 5 3', 'pass' or 'tool audit Bob 2'.")
        verb, args = words[0].lower(), words[1:]
        if verb in ("pass", "decline"):
            if args:
                raise NotationError(f"{text!r}: '{verb}' takes nothing after it.")
            return Pass() if verb == "pass" else Decline()
        if verb == "bid":
            return Bid(_values(text, args, "cards of your bid"))
        if verb == "take":
            if len(args) != 1:
                raise NotationError(f"{text!r}: name one Capital value to take, e.g. 'take 5'.")
            return Take(_number(text, args[0], "a Capital value"))
        if verb == "flip":
            if len(args) != 1 or read_lot(args[0]) is None:
                raise NotationError(f"{text!r}: name a card of the table, e.g. 'flip 3a'.")
            return Flip(args[0].lower())
        if verb == "discard":
            if not args:
                raise NotationError(f"{text!r}: name Capital values ('discard 3 1') or a Tool ('discard audit').")
            if len(args) == 1 and tool_key(args[0]) is not None:
                return DiscardTool(tool_key(args[0]))
            return DiscardCapital(_values(text, args, "Capital cards to discard"))
        if verb == "react":
            key = connection_key()
            if args and tool_key(args[0]) == key:
                args = args[1:]
            if args and args[0].lower() != "pay":
                raise NotationError(f"{text!r}: write it as 'react {key}' or 'react {key} pay 2'.")
            return React(self._pay(text, args, key, view))
        if verb == "tool":
            return self._tool(text, args, view)
        raise NotationError(f"{text!r} is not a Capital Auction command; the commands are: {_VERBS}.")

    @staticmethod
    def _pay(text: str, rest: Sequence[str], key: str, view: CapitalAuctionView) -> tuple[int, ...]:
        """The values paid: ``rest`` is nothing (the lowest cards pay) or ``pay`` and values."""
        if rest:
            return _values(text, rest[1:], "Capital cards to pay with")
        cost = CARDS.tool(key).cost
        lowest = sorted(card.value for card in view.capital)[:cost]
        return tuple(sorted(lowest, reverse=True))

    @staticmethod
    def _player(text: str, rest: list[str], names: Sequence[str], key: str) -> tuple[int, list[str]]:
        found = read_player(rest, names)
        if found is None:
            raise NotationError(f"{text!r}: name a player by number or by name (quoted if it holds spaces), "
                                f"as in '{example(key)}'; the players are {players_by_number(names)}.")
        return found

    def _tool(self, text: str, args: list[str], view: CapitalAuctionView) -> Play:
        if not args:
            keys = ", ".join(kind.key for kind in CARDS.tools if kind.effect != CONNECTION)
            raise NotationError(f"{text!r}: name the Tool to play ({keys}).")
        key = tool_key(args[0])
        if key is None:
            keys = ", ".join(kind.key for kind in CARDS.tools)
            raise NotationError(f"{text!r}: {args[0]!r} is not a Tool; the Tools are {keys}.")
        effect = CARDS.tool(key).effect
        rest = args[1:]
        wrong = NotationError(f"{text!r}: write it as '{example(key)}' (a player by number, or by name "
                              f"in quotes: {players_by_number(view.names)}).")

        def paid(words: list[str]) -> bool:  # nothing left but what is paid
            return not words or words[0].lower() == "pay"

        fields: dict[str, object] = {}
        if effect in ("press", "cover-up", "write-off"):
            if not rest or paid(rest):
                raise wrong
            fields["own"], rest = _number(text, rest[0], "a card of your portfolio"), rest[1:]
        elif effect == "offering" or (effect == "insider" and rest and read_lot(rest[0]) and paid(rest[1:])):
            if not rest or read_lot(rest[0]) is None:
                raise wrong
            fields["lot"], rest = rest[0].lower(), rest[1:]
        elif effect in ("insider", "audit", "takeover", "tax", "espionage"):
            fields["player"], rest = self._player(text, rest, view.names, key)
            if effect not in ("tax", "espionage"):
                if paid(rest):
                    raise wrong
                fields["card"], rest = _number(text, rest[0], "a card of that portfolio"), rest[1:]
        elif effect == "merger":
            if paid(rest):
                raise wrong
            fields["own"] = _number(text, rest[0], "a card of your portfolio")
            fields["player"], rest = self._player(text, rest[1:], view.names, key)
            if not paid(rest):
                fields["card"], rest = _number(text, rest[0], "a card of that portfolio"), rest[1:]
        elif not paid(rest):
            raise NotationError(f"{text!r}: {CARDS.tool(key).name} takes no target; write it as "
                                f"'tool {key}'.")
        if not paid(rest):
            raise wrong
        return Play(key, pay=self._pay(text, rest, key, view), **fields)  # type: ignore[arg-type]
