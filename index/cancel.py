"""Stopping work whose answer nobody waits for any more (a superseded search).

The app searches on every keystroke in a thread; a 100 KB paste followed by the query the
user meant must not make that query wait for the paste's expansions and "did you mean".
Python cannot stop a thread, so the work stops itself: the caller runs it inside
`cancellable(is_cancelled)` and the loops that can run long (fuzzy and prefix expansion,
the match set of each part of a query, ranking candidates, spelling) call `checkpoint()`,
which raises `Cancelled` once `is_cancelled()` is true. The check lives in a context
variable, so it belongs to the thread (and task) that set it and costs a lookup when
nothing is cancellable (the CLI, tests).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Cancelled", "cancellable", "checkpoint"]

_is_cancelled: ContextVar[Callable[[], bool] | None] = ContextVar("is_cancelled", default=None)


class Cancelled(Exception):
    """The work was cancelled by its caller; nothing it computed is kept."""


@contextmanager
def cancellable(is_cancelled: Callable[[], bool] | None) -> Iterator[None]:
    """Runs the block with `is_cancelled` as the test every `checkpoint()` makes."""
    token = _is_cancelled.set(is_cancelled)
    try:
        yield
    finally:
        _is_cancelled.reset(token)


def checkpoint() -> None:
    """Raises `Cancelled` when the work this thread is doing has been cancelled."""
    is_cancelled = _is_cancelled.get()
    if is_cancelled is not None and is_cancelled():
        raise Cancelled
