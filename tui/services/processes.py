"""What worker processes need from the terminal, taken before the app takes the terminal.

A load in the app parses and tags in spawned worker interpreters (index.library.parallel).
multiprocessing starts a helper process, its resource tracker, on first use and hands it
`sys.stderr`'s file descriptor. Inside a running Textual app `sys.stderr` is Textual's
print capture, whose `fileno()` is -1: the tracker failed to start ("bad value(s) in
fds_to_keep"), the load's pool gave up quietly and the whole first load ran on one core
(found with py-spy on the real exports: 4.6 s of parsing in the app's own process).
Started before the app runs, the tracker has the terminal's stderr, as in a command.
"""

from __future__ import annotations

import os

__all__ = ["start_worker_support"]


def start_worker_support() -> None:
    """Start multiprocessing's resource tracker now (POSIX; it stays for the session).

    Importing multiprocessing costs ~20 ms, so only a start that will load a library in
    the app calls this, not a start on a current index.
    """
    if os.name != "posix":
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
