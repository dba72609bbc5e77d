"""The `paperscope` command's entry point: start-up runs without the cyclic collector.

The policy and its measurements are in `tui.startup`; this module only pauses the
collector before anything heavy is imported and makes sure it is back on at the end, and
has Whoosh imported without the standard library it loads for nothing
(`index.whoosh_ext.lean_imports`: ~55 ms of a command-line search).
"""

from __future__ import annotations

from collections.abc import Sequence

from index.whoosh_ext.lean_imports import import_whoosh_lean
from tui.startup import pause_collector, resume_collector


def main(argv: Sequence[str] | None = None) -> int:
    """Run `paperscope` (see `tui.cli.main`) with the collector paused during start-up."""
    pause_collector()
    try:
        import_whoosh_lean()
        from tui.cli import main as cli_main

        return cli_main(argv)
    finally:
        resume_collector()
