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
  while typing); objects created later (requests, results) are collected as usual.
"""

from __future__ import annotations

import gc

__all__ = ["collect_load_garbage", "freeze_long_lived", "pause_collector", "resume_collector"]

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
