"""PLACEHOLDER until the app issue lands: prints a summary of the library."""

from __future__ import annotations

from tui.cli.context import CliContext


def run_app(context: CliContext) -> int:
    library = context.library
    print(f"paperscope: {len(library.papers)} papers loaded")
    return 0
