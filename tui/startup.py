"""Start-up's garbage-collector policy, in one place: the library and the index set none.

Starting paperscope imports Textual, Whoosh and paperscope and reads the library:
hundreds of thousands of objects that live as long as the process, and almost no
garbage. The cyclic collector would walk them again and again for nothing: ~40 ms of a
warm start that must show results within 0.5 s (measured with `gc.callbacks`,
benchmarks/startup.py), and unpickling a cached 10k-paper library takes 3x longer with it
on. So the console script (`tui.entry`) pauses it while paperscope starts, and:

- `collect_load_garbage` runs once after the library is loaded: parsing leaves reference
  cycles (bibtexparser: ~140 objects per entry) that only the collector frees, and they
  must be gone before what is alive is frozen;
- `resume_collector` freezes everything alive (never walked again, still freed by
  reference counting) and turns collection back on before the command or the app runs;
- `freeze_long_lived` moves an open engine's masks, columns and tables out of the
  collector's generations (~0.7 s per full collection at 100,000 papers, a visible pause
  while typing); objects created later (requests, results) are collected as usual;
- `collector_paused` does for a library read again while the app runs (tui.library_host)
  what start-up does: at 20,000 papers the load took 8 s with the collector on, 5.5 s off;
- `collector_off` keeps it off while a command opens the index (tui.cli.context), which may
  update it in place: the update's postings set off full collections otherwise
  (index.store.updates).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "collect_load_garbage",
    "collector_off",
    "collector_paused",
    "freeze_long_lived",
    "pause_collector",
    "resume_collector",
]

_paused = False


def pause_collector() -> None:
    """Turn the cyclic collector off for start-up (remembered, so resuming is exact)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector() -> None:
    """Freeze what start-up created and turn the collector back on, if it was paused."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def collect_load_garbage() -> None:
    """Free the parsers' reference cycles once the library is loaded (before a freeze)."""
    gc.collect()


def freeze_long_lived() -> None:
    """Keep the objects alive now (an open engine and its library) out of collections.

    Safe: frozen objects are still freed by reference counting when they are dropped;
    only reference cycles among them would be kept, and they hold none.
    """
    gc.freeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off while a library is loaded and indexed in the running app; then
    its garbage collected once (the parsers' cycles) and what is alive frozen, as after
    start-up. Everything else the app does meanwhile is freed by reference counting."""
    if not gc.isenabled():  # start-up's pause, or a caller's: theirs to end
        yield
        return
    with collector_off():
        try:
            yield
        finally:
            gc.collect()
            gc.freeze()


@contextmanager
def collector_off() -> Iterator[None]:
    """The collector off while the block runs, then on again if it was on (an exception
    too); one already off (start-up's pause, a caller's) stays off. Nothing is collected
    or frozen: what the block leaves is freed by reference counting, or by the next
    collection as usual."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
