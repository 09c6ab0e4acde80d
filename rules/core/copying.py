"""A fast copy of a game's state, for the expert's search (rules/core/search.py), which copies
a determinized deal once per command it tries on it: ``copy.deepcopy`` rebuilds every card
(a frozen dataclass) through ``__reduce_ex__`` and keeps a memo, and came to a third of the
search's time. ``state_copy`` shares what cannot change — numbers, strings, enums, frozen
dataclasses (the cards, commands, an offer), tuples and frozensets — and rebuilds
the lists, dicts, sets and mutable objects around them, so that a command applied to the copy
never reaches the original.

It assumes, as every game's state does (tests/test_search.py walks them), that a frozen
dataclass, a tuple or a frozenset holds nothing mutable and that a state holds no object twice (a copy would hold two).
A game whose state does not fit gives its spec a ``copy`` hook of its own; ``spec_copy`` falls
back to it."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Callable

_SHARED: set[type] = {int, float, bool, str, bytes, complex, type(None), range, tuple, frozenset}
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def state_copy(value: Any) -> Any:
    """A copy of ``value`` that shares its immutable parts (see the module's notes)."""
    kind = type(value)
    if kind in _SHARED:
        return value
    copier = _COPIERS.get(kind) or _copier(kind)
    return copier(value)


def _same(value: Any) -> Any:
    return value


def _list(value: list[Any]) -> list[Any]:
    shared = _SHARED
    if shared.issuperset(map(type, value)):  # a pile of cards, a list of numbers: at C speed
        return value[:]
    return [item if type(item) in shared else state_copy(item) for item in value]


def _dict(value: dict[Any, Any]) -> dict[Any, Any]:
    shared = _SHARED
    return {key: item if type(item) in shared else state_copy(item) for key, item in value.items()}


def _object(value: Any) -> Any:
    new = object.__new__(type(value))
    shared = _SHARED
    new.__dict__.update({key: item if type(item) in shared else state_copy(item)
                         for key, item in value.__dict__.items()})
    return new


def _copier(kind: type) -> Callable[[Any], Any]:
    params = getattr(kind, "__dataclass_params__", None)
    if (issubclass(kind, (int, float, str, bytes, enum.Enum))
            or (params is not None and params.frozen)):
        # a frozen dataclass's own fields are shared too: it holds nothing mutable
        _SHARED.add(kind)
        copier: Callable[[Any], Any] = _same
    elif kind is list:
        copier = _list
    elif kind is dict:
        copier = _dict
    elif kind is set:
        copier = set.copy
    elif dataclasses.is_dataclass(kind) and hasattr(kind, "__dict__") and not hasattr(kind, "__slots__"):
        copier = _object
    else:
        import copy
        copier = copy.deepcopy
    _COPIERS[kind] = copier
    return copier


def spec_copy(spec: Any) -> Callable[[Any], Any]:
    """How to copy ``spec``'s states: its own ``copy`` hook, else ``state_copy``."""
    return getattr(spec, "copy", None) or state_copy


__all__ = ["spec_copy", "state_copy"]
