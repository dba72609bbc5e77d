"""How the problems found while loading are told to the user, in the CLI and the app alike.

A real library can have thousands of problems (an export with 10,000 entries using an
undefined macro gave 10,030 lines on every search), and a wall of stderr hides the one
that matters. So a load shows at most `SHOWN` lines, then a count and the command that
lists every one (`paperscope check`); a load answered by the library cache shows none.
"""

from __future__ import annotations

from collections.abc import Sequence

from index.models import LoadWarning
from index.text_safety import for_terminal

__all__ = ["CHECK_COMMAND", "SHOWN", "count_line", "summary_lines"]

SHOWN = 20
CHECK_COMMAND = "paperscope check"


def count_line(count: int) -> str:
    """ "3 problems in your files" (for the app's notice and the CLI's last line)."""
    return f"{count} problem{'s' if count != 1 else ''} in your files"


def summary_lines(warnings: Sequence[LoadWarning], limit: int = SHOWN) -> list[str]:
    """The first `limit` problems, one line each (safe for a terminal: file names come from
    the disk), then a count and the command for the rest."""
    lines = [for_terminal(str(warning), one_line=True) for warning in warnings[:limit]]
    hidden = len(warnings) - limit
    if hidden > 0:
        lines.append(
            f"... and {hidden} more ({count_line(len(warnings))}); `{CHECK_COMMAND}` lists them all"
        )
    return lines
