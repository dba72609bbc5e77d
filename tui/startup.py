"""Start-up's collector policy, in one place: paused while paperscope starts, then frozen.

Starting the app imports Textual, Whoosh and paperscope and reads the library: hundreds of
thousands of objects that live as long as the process, and almost no garbage. The collector
would walk them again and again for nothing: ~40 ms of a warm start that must show results
within 0.5 s (measured with `gc.callbacks`, benchmarks/startup.py). `pause_gc` turns it off
(the entry point calls it first); `resume_gc` freezes everything alive (never walked again,
still freed by reference counting) and turns collection back on for what comes after. It is
a module of its own so the command line can call `resume_gc` without importing the entry
point that imports it (no import cycle).
"""

from __future__ import annotations

import gc

__all__ = ["pause_gc", "resume_gc"]

_paused = False


def pause_gc() -> None:
    """Turn the collector off for start-up, if it is on."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_gc() -> None:
    """Freeze what start-up created and turn the collector back on, if `pause_gc` paused it."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
