"""Legal lists whose long tails are made only when read.

Some games list a great many commands that are rarely read: every discard of one to four cards
of an eight-card hand is 162 commands, of which a random player takes one and a bot often none.
Making them all, at every turn, was most of the time a simulation spent. ``Listing`` reads
several sequences as one list (``legal`` answers one), and ``MadeWhenRead`` makes each of its
commands when it is read; both compare equal to a list of the same commands, as ``legal``'s answer did.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, Callable, Iterator, TypeVar

T = TypeVar("T")
S = TypeVar("S")


class _ReadAsList(Sequence[T]):
    """A sequence that compares, prints, slices and adds up as the list of its items."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (str, bytes)) or not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # as a list's

    def __repr__(self) -> str:
        return repr(list(self))

    def __add__(self, other: Any) -> list[Any]:
        if isinstance(other, (str, bytes)) or not isinstance(other, Sequence):
            return NotImplemented
        return [*self, *other]

    def __radd__(self, other: Any) -> list[Any]:
        if isinstance(other, (str, bytes)) or not isinstance(other, Sequence):
            return NotImplemented
        return [*other, *self]

    def _slice(self, index: slice) -> list[T]:
        return [self[i] for i in range(*index.indices(len(self)))]


class MadeWhenRead(_ReadAsList[T]):
    """``make(item)`` for each of ``items``, made when it is read.

    ``made_from``, when given, is ``make``'s inverse: the item a command would be made from, or
    None for a command ``make`` never makes (another kind), so that ``in`` looks the item up
    among ``items`` instead of making every command (a bot asks whether its choice is legal, and
    the expert's search which commands are available, at every command of its playouts). With
    it, ``make(item) == command`` must hold exactly when ``made_from(command) == item``."""

    __slots__ = ("_items", "_make", "_made_from")

    def __init__(self, items: Sequence[S], make: Callable[[S], T],
                 made_from: Callable[[Any], S | None] | None = None) -> None:
        self._items, self._make, self._made_from = items, make, made_from

    def __contains__(self, value: object) -> bool:
        if self._made_from is None:
            return super().__contains__(value)  # Sequence's: makes them one by one
        item = self._made_from(value)
        return item is not None and item in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self._slice(index)
        return self._make(self._items[index])

    def __iter__(self) -> Iterator[T]:
        return map(self._make, self._items)


class Deferred(_ReadAsList[T]):
    """The list ``make()`` gives, made when it is first read whole (once). It answers ``in``
    with ``contains`` when given (``contains(value)`` must answer as the list would), and is
    true without being made when ``nonempty``: the expert's playouts ask at every command
    whether a seat has one and whether its bot's choice is legal, and read the list no further.
    What ``make`` and ``contains`` read must not change after (a snapshot, or copies: never a
    game's live state, which changes once the list is given)."""

    __slots__ = ("_make", "_contains", "_nonempty", "_made")

    def __init__(self, make: Callable[[], Sequence[T]], contains: Callable[[Any], bool] | None = None,
                 nonempty: bool = False) -> None:
        self._make, self._contains, self._nonempty = make, contains, nonempty
        self._made: Sequence[T] | None = None

    def _whole(self) -> Sequence[T]:
        if self._made is None:
            self._made = self._make()
        return self._made

    def __contains__(self, value: object) -> bool:
        return self._contains(value) if self._contains is not None else value in self._whole()

    def __bool__(self) -> bool:
        return self._nonempty or len(self._whole()) > 0

    def __len__(self) -> int:
        return len(self._whole())

    def __getitem__(self, index: Any) -> Any:
        return self._whole()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self._whole())


class Listing(_ReadAsList[T]):
    """The sequences ``parts`` read as one list, in order."""

    __slots__ = ("_parts", "_lengths", "_length")

    def __init__(self, *parts: Sequence[T]) -> None:
        self._lengths = list(map(len, parts))
        self._parts = parts
        self._length = sum(self._lengths)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self._slice(index)
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("Listing index out of range")
        for part, length in zip(self._parts, self._lengths):
            if index < length:
                return part[index]
            index -= length
        raise AssertionError("unreachable: the index is below the length")  # pragma: no cover

    def __iter__(self) -> Iterator[T]:
        return chain.from_iterable(self._parts)

    def __contains__(self, value: object) -> bool:
        # each part by its own ``in``: a list's at C speed (a bot asks whether its choice is legal
        # at every command of the expert's playouts)
        return any(value in part for part in self._parts)


__all__ = ["Deferred", "Listing", "MadeWhenRead"]
