"""The `paperscope` command's entry point: start-up runs without the cyclic garbage collector.

See `tui/startup.py` for why; the command line resumes collection once the command (or
the app) is about to run, and this makes sure it is back on whatever happens.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.startup import pause_gc, resume_gc

__all__ = ["main", "resume_gc"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run `paperscope` (see `tui.cli.main`) with the collector paused during start-up."""
    pause_gc()
    try:
        from tui.cli import main as cli_main

        return cli_main(argv)
    finally:
        resume_gc()
