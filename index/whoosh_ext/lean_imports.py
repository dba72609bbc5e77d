"""Whoosh imported without two parts of the standard library it loads and never uses.

Importing Whoosh for a search also imported `urllib.request` (with `http.client`, `ssl`
and `email`: ~30 ms) and `asyncio` (~27 ms), each for one name that a search never
touches: `whoosh.compat` binds `urlretrieve` (Python 2 compatibility; nothing in Whoosh
calls it), and the `cached_property` package Whoosh's reader uses binds `asyncio` to
look up `iscoroutinefunction` when a property is first read. A command-line search is
~0.4 s in all, most of it imports, so this was a seventh of it.

`import_whoosh_lean` imports those two modules while a small stand-in sits in
`sys.modules` under each heavy name, then takes the stand-in out again: they keep a
reference to it, nothing else ever sees it, and a later `import urllib.request` or
`import asyncio` gets the real module. Each stand-in forwards to the real module on
first use, so behaviour is unchanged: `urlretrieve` works when called, and a coroutine
function behind a cached property is still recognised (by `inspect`, or by `asyncio`
once anything has imported it). Process policy, so the library does not call it itself:
the command's entry point does (`tui.entry`), before anything imports Whoosh.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["import_whoosh_lean"]


def _forwarding(name: str, **own: Callable[..., Any]) -> ModuleType:
    """A module that has `own` and reads every other attribute from the real `name`."""
    module = ModuleType(name, f"Stands in for {name} while Whoosh is imported.")
    module.__dict__.update(own)

    def __getattr__(attribute: str) -> Any:
        # The import system asks for `__path__` and the like while the stand-in is in
        # `sys.modules`: those are simply absent, as on a plain module.
        if attribute.startswith("__") or sys.modules.get(name) is module:
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
        return getattr(importlib.import_module(name), attribute)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    from urllib.request import urlretrieve

    return urlretrieve(*args, **kwargs)


def _iscoroutinefunction(func: Any) -> bool:
    asyncio = sys.modules.get("asyncio")
    if asyncio is not None:  # it also knows its own markers
        return bool(asyncio.iscoroutinefunction(func))
    return inspect.iscoroutinefunction(func)


@contextmanager
def _standing_in(name: str, stand_in: ModuleType) -> Iterator[None]:
    """`import name` gives `stand_in` inside the block; outside it, the real module."""
    if name in sys.modules:  # already imported: nothing left to save
        yield
        return
    sys.modules[name] = stand_in
    try:
        yield
    finally:
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]


def import_whoosh_lean() -> None:
    """Imports `whoosh.compat` and `cached_property` without what they load for nothing.

    Does nothing for a module already imported (then its cost was paid earlier), so it
    is safe to call twice, or after a test imported Whoosh.
    """
    if "whoosh.compat" not in sys.modules:
        stand_in = _forwarding("urllib.request", urlretrieve=_urlretrieve)
        with _standing_in("urllib.request", stand_in):
            importlib.import_module("whoosh.compat")
    if "cached_property" not in sys.modules:
        stand_in = _forwarding("asyncio", iscoroutinefunction=_iscoroutinefunction)
        with _standing_in("asyncio", stand_in):
            importlib.import_module("cached_property")
