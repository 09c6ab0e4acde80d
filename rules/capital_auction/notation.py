"""Capital Auction's command notation.

    bid 5 3 1                  the whole bid: Capital cards by value (its total, 9, must beat the standing bid)
    pass                       out of this auction; in the Tool phase: no Tool this time
    flip 3a                    after winning auction 2: turn auction 3's left card (3b: the right one)
    tool insider Bob 2         a Tool on Bob's portfolio card 2 (cards count from 1)
    tool insider 3a            a Tool on a card on the table
    tool press 1 pay 2         a Tool on one's own card 1, paying a Capital 2 for it
    tool merger 1 Bob 2        give one's card 1 to Bob and take Bob's card 2
    tool tax Bob               tool bailout        tool venture pay 1
    react connection pay 1     cancel the card just played with a Connection (decline: let it stand)
    take 5                     Industrial Espionage: take a 5 from the hand looked at
    discard 3 1                Tax Inspection's victim: discard a 3 and a 1
    discard audit              Venture Fund: discard an Audit

Tools are named by their key in the card set (``insider``) or their full name with hyphens
(``insider-information``); players by name, in any case. ``pay`` may be left out: the lowest
Capital cards pay (what the command line fills in); the log always writes it. Values are
written highest first.
"""

from __future__ import annotations

from typing import Sequence

from rules.core import NotationError

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


def _number(text: str, word: str, what: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise NotationError(f"{text!r}: {word!r} is not {what}; write a whole number such as 2.")
    return int(word)


def _values(text: str, words: Sequence[str], what: str) -> tuple[int, ...]:
    values = tuple(_number(text, w, "a Capital value") for w in words)
    if not values:
        raise NotationError(f"{text!r}: name the {what} by value, e.g. 5 3.")
    return tuple(sorted(values, reverse=True))


def _player(words: list[str], names: Sequence[str]) -> tuple[str, list[str]] | None:
    """The player whose name starts ``words`` (any case, longest name first) and the words after."""
    lowered = [w.lower() for w in words]
    for name in sorted(names, key=len, reverse=True):
        parts = name.lower().split()
        if parts and lowered[:len(parts)] == parts:
            return name, words[len(parts):]
    return None


class CapitalAuctionNotation:
    """``format(command)`` and ``parse(text, view)`` for Capital Auction."""

    def format(self, command: Command) -> str:
        match command:
            case Bid(values):
                return "bid " + " ".join(map(str, values))
            case Pass():
                return "pass"
            case Flip(lot):
                return f"flip {lot}"
            case Play(tool, player, card, own, lot, pay):
                words = ["tool", tool]
                words += [str(own)] if own else []
                words += [player] if player else []
                words += [str(card)] if card else []
                words += [lot] if lot else []
                words += ["pay", *map(str, pay)] if pay else []
                return " ".join(words)
            case React(pay):
                key = next(kind.key for kind in CARDS.tools if kind.effect == CONNECTION)
                return f"react {key}" + (" pay " + " ".join(map(str, pay)) if pay else "")
            case Decline():
                return "decline"
            case Take(value):
                return f"take {value}"
            case DiscardCapital(values):
                return "discard " + " ".join(map(str, values))
            case DiscardTool(tool):
                return f"discard {tool}"
        raise NotationError(f"{command!r} is not a Capital Auction command")

    def parse(self, text: str, view: CapitalAuctionView) -> Command:
        if not isinstance(text, str):
            raise NotationError(f"a command is text, not {type(text).__name__}")
        words = text.split()
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
            if args and tool_key(args[0]) is not None and CARDS.tool(tool_key(args[0])).effect == CONNECTION:
                args = args[1:]
            key = next(kind.key for kind in CARDS.tools if kind.effect == CONNECTION)
            rest, pay = self._pay(text, args, key, view)
            if rest:
                raise NotationError(f"{text!r}: write it as 'react {key}' or 'react {key} pay 2'.")
            return React(pay)
        if verb == "tool":
            return self._tool(text, args, view)
        raise NotationError(f"{text!r} is not a Capital Auction command; the commands are: {_VERBS}.")

    @staticmethod
    def _pay(text: str, args: list[str], key: str, view: CapitalAuctionView) -> tuple[list[str], tuple[int, ...]]:
        """The words before ``pay`` and the values paid (the lowest cards when ``pay`` is left out)."""
        lowered = [w.lower() for w in args]
        if "pay" in lowered:
            at = len(lowered) - 1 - lowered[::-1].index("pay")
            return args[:at], _values(text, args[at + 1:], "Capital cards to pay with")
        cost = CARDS.tool(key).cost
        lowest = sorted(card.value for card in view.capital)[:cost]
        return args, tuple(sorted(lowest, reverse=True))

    def _tool(self, text: str, args: list[str], view: CapitalAuctionView) -> Play:
        if not args:
            keys = ", ".join(kind.key for kind in CARDS.tools if kind.effect != CONNECTION)
            raise NotationError(f"{text!r}: name the Tool to play ({keys}).")
        key = tool_key(args[0])
        if key is None:
            keys = ", ".join(kind.key for kind in CARDS.tools)
            raise NotationError(f"{text!r}: {args[0]!r} is not a Tool; the Tools are {keys}.")
        effect = CARDS.tool(key).effect
        rest, pay = self._pay(text, args[1:], key, view)
        wrong = NotationError(f"{text!r}: write it as '{example(key)}'.")
        fields: dict[str, object] = {}
        if effect in ("press", "cover-up", "write-off"):
            if len(rest) != 1:
                raise wrong
            fields["own"] = _number(text, rest[0], "a card of your portfolio")
        elif effect == "offering" or (effect == "insider" and len(rest) == 1 and read_lot(rest[0])):
            if len(rest) != 1 or read_lot(rest[0]) is None:
                raise wrong
            fields["lot"] = rest[0].lower()
        elif effect in ("insider", "audit", "takeover", "tax", "espionage"):
            found = _player(rest, view.names)
            if found is None:
                raise NotationError(f"{text!r}: name another player ({', '.join(view.names)}), as in "
                                    f"'{example(key)}'.")
            fields["player"], after = found
            if effect in ("tax", "espionage"):
                if after:
                    raise wrong
            else:
                if len(after) != 1:
                    raise wrong
                fields["card"] = _number(text, after[0], "a card of that portfolio")
        elif effect == "merger":
            if len(rest) < 2:
                raise wrong
            fields["own"] = _number(text, rest[0], "a card of your portfolio")
            found = _player(rest[1:], view.names)
            if found is None:
                raise NotationError(f"{text!r}: name the player to merge with ({', '.join(view.names)}).")
            fields["player"], after = found
            if len(after) > 1:
                raise wrong
            if after:
                fields["card"] = _number(text, after[0], "a card of that portfolio")
        elif rest:
            raise NotationError(f"{text!r}: {CARDS.tool(key).name} takes no target; write it as "
                                f"'tool {key}'.")
        return Play(key, pay=pay, **fields)  # type: ignore[arg-type]
