"""What every game's notation shares: reading a player named in a command.

In what is saved, a player is always written by seat number from 1 (``offer 2: give 5H``,
``tool merger 3 2 2 1``), so a saved move means one thing whatever the players are called. Where
a person types, a player may also be named: in any case, in quotes where the name holds spaces
or could be read as something else (``"Bob 2"``, ``"3"``), or unquoted when the words can only
be that name.
"""

from __future__ import annotations

from typing import Sequence

from .errors import NotationError

QUOTES = "\"'“”‘’"


def split_words(text: str) -> list[str]:
    """``text`` split at spaces, a quoted span kept as one word with its quotes (``tool merger
    "Bob 2" 1`` → ``["tool", "merger", '"Bob 2"', "1"]``). An unclosed quote runs to the end."""
    words: list[str] = []
    quoted: list[str] | None = None
    for word in text.split():
        if quoted is not None:
            quoted.append(word)
            if word[-1] in QUOTES:
                words.append(" ".join(quoted))
                quoted = None
        elif word[0] in QUOTES and not (len(word) > 1 and word[-1] in QUOTES):
            quoted = [word]
        else:
            words.append(word)
    if quoted is not None:
        words.append(" ".join(quoted))
    return words


def unquoted(word: str) -> str | None:
    """The text inside a quoted word (``'"Bob 2"'`` → ``Bob 2``), or None if it is not quoted."""
    if len(word) >= 2 and word[0] in QUOTES and word[-1] in QUOTES:
        return word[1:-1]
    if len(word) >= 1 and word[0] in QUOTES:  # unclosed: runs to the end
        return word[1:]
    return None


def seat_number(word: str, names: Sequence[str]) -> int | None:
    """The seat a number from 1 names (``"2"`` → 1), or None when ``word`` is no such number."""
    if word.isascii() and word.isdigit() and len(word) <= 3 and 1 <= int(word) <= len(names):
        return int(word) - 1
    return None


def read_player(words: Sequence[str], names: Sequence[str]) -> tuple[int, list[str]] | None:
    """The seat named at the start of ``words`` (from ``split_words``) and the words after it:
    a seat number from 1, a quoted name, or a name in any case (the longest that fits, so "Bob
    2" is read before "Bob"); None when the words start with no player."""
    if not words:
        return None
    first = words[0]
    inner = unquoted(first)
    if inner is not None:
        for seat, name in enumerate(names):
            if name.casefold() == inner.casefold():
                return seat, list(words[1:])
    seat = seat_number(first, names)
    if seat is not None:
        return seat, list(words[1:])
    lowered = [word.casefold() for word in words]
    for seat, name in sorted(enumerate(names), key=lambda pair: -len(pair[1])):
        parts = name.casefold().split()
        if parts and lowered[:len(parts)] == parts:
            return seat, list(words[len(parts):])
    return None


def read_player_text(text: str, who: str, names: Sequence[str]) -> int:
    """The seat ``who`` names: a quoted name, a number from 1 (always a seat, as saved moves
    write it: a player called "3" is typed in quotes), or a name in any case; a NotationError
    naming the players otherwise. ``text`` is the whole command, for the message."""
    who = who.strip()
    inner = unquoted(who)
    if inner is not None:
        for seat, name in enumerate(names):
            if name.casefold() == inner.casefold():
                return seat
    seat = seat_number(who, names)
    if seat is not None:
        return seat
    for seat, name in enumerate(names):
        if name.casefold() == who.casefold():
            return seat
    raise NotationError(f"{text!r}: {who!r} is not a player here; the players are "
                        f"{players_by_number(names)}.")


def players_by_number(names: Sequence[str]) -> str:
    """``1 Ann, 2 Bob`` — how a message lists the players a command may name."""
    return ", ".join(f"{seat} {name}" for seat, name in enumerate(names, 1))


def seat_word(seat: int) -> str:
    """A seat as saved notation writes it: its number from 1."""
    return str(seat + 1)
