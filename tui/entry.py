"""The `paperscope` command's entry point: start-up runs without the cyclic garbage collector.

Starting the app imports Textual, Whoosh and paperscope and reads the library: hundreds of
thousands of objects that live as long as the process, and almost no garbage. The collector
would walk them again and again for nothing: ~40 ms of a warm start that must show results
within 0.5 s (measured with `gc.callbacks`, benchmarks/startup.py). So it is off until the
command is about to run; `resume_gc` then freezes everything alive (never walked again,
still freed by reference counting) and turns collection back on for what comes after.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence

_paused = False


def main(argv: Sequence[str] | None = None) -> int:
    """Run `paperscope` (see `tui.cli.main`) with the collector paused during start-up."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True
    try:
        from tui.cli import main as cli_main

        return cli_main(argv)
    finally:
        resume_gc()


def resume_gc() -> None:
    """Freeze what start-up created and turn the collector back on, if `main` paused it."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
