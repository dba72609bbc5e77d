"""`paperscope check`: every problem found in the library's files, one line each.

Loading shows only the first problems (see `tui.services.load_warnings`) and a load from
the cache shows none; this command lists them all, on stdout so they can be piped to a
file or `grep`, and its exit code says whether there are any (0 none, 1 some).
"""

from __future__ import annotations

import argparse
import sys

from index.text_safety import for_terminal
from tui.cli.context import CliContext
from tui.services.load_warnings import count_line


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `check` to the parser."""
    parser = subparsers.add_parser(
        "check", help="list every problem found in the library's files (exit 1 if any)"
    )
    parser.set_defaults(func=check_library)


def check_library(context: CliContext, args: argparse.Namespace) -> int:
    """Prints every load warning as `file:line: problem`; exit 1 when there is one."""
    context.print_warnings = False
    library = context.library
    out = sys.stdout
    for warning in library.warnings:  # file names and causes come from the files: untrusted
        out.write(f"{for_terminal(str(warning), one_line=True)}\n")
    files = len(library.files)
    if library.warnings:
        print(
            f"{count_line(len(library.warnings))} ({len(library.papers)} papers loaded "
            f"from {files} file{'s' if files != 1 else ''})",
            file=sys.stderr,
        )
        return 1
    print(
        f"no problems: {len(library.papers)} papers from {files} file{'s' if files != 1 else ''}",
        file=sys.stderr,
    )
    return 0
