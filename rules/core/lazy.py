"""A package whose names are imported from their modules when first used (PEP 562), so that
importing the package costs nothing until one of them is asked for."""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, Iterable, Mapping


def lazy_names(package: str, space: dict[str, Any], names_of: Mapping[str, Iterable[str]]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """The ``__getattr__``, ``__dir__`` and ``__all__`` of ``package`` (whose globals are
    ``space``), each name of ``names_of[module]`` coming from ``package.module``. A name is
    kept in ``space`` once imported; any other name raises AttributeError, so that ``from
    package import submodule`` still imports the submodule."""
    module_of = {name: module for module, names in names_of.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        space[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted([*space, *module_of])

    return __getattr__, __dir__, sorted(module_of)
