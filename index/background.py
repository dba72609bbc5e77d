"""Making a spawned helper process a quiet background one: niced, its output discarded.

The load's tagging workers (index.library.parallel), the PDF readers
(index.fulltext.pool) and the page index's sync child (index.fulltext.sync_child) all
run beside an app drawing on the terminal: at a lower priority its keystrokes come first,
and with their stdout and stderr sent to /dev/null nothing they (or a library they call)
print lands on the app's screen.
"""

from __future__ import annotations

import os

__all__ = ["become_background"]


def become_background(niceness: int) -> None:
    """In a child process: lower its priority by `niceness` (where the system allows it)
    and send its stdout and stderr to /dev/null."""
    try:
        os.nice(niceness)
    except (AttributeError, OSError):  # no `nice` (Windows), or not allowed: run as is
        pass
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
