"""Leaving a build to finish alone: what a caller about to exit tells the build it waits for.

Kept apart from the build process's code (`index.store.child`) so the app can hold one
from its start without importing the index schema and Whoosh (~70 ms).
"""

from __future__ import annotations

import threading

__all__ = ["BuildDetached", "LeaveBuilds"]


class BuildDetached(Exception):
    """The caller stopped waiting (`LeaveBuilds`): the build process finishes and
    publishes the index on its own. Not a failure: nothing is lost."""


class LeaveBuilds:
    """Said by a caller about to exit (the app quit during a first build): stop waiting
    for the builds it started, now and later, and let their processes finish them.

    A build that publishes itself (`Publish`) and is given this waits for its process
    only until `leave` is called: then `build` raises `BuildDetached` at once, the papers
    not yet sent are spooled to the process, which builds and publishes alone. A build
    started after `leave` is left as soon as it has its papers.
    """

    def __init__(self) -> None:
        self._left = threading.Event()
        self._lock = threading.Lock()
        self._waiting = 0

    def leave(self) -> int:
        """Stop waiting; returns how many builds were being waited for (0: none yet)."""
        with self._lock:
            self._left.set()
            return self._waiting

    def is_set(self) -> bool:
        return self._left.is_set()

    def waiting(self) -> threading.Event:
        """A build starts being waited for (counted by `leave`); the event it is given is
        set when the caller leaves. Each call is matched by one `done_waiting`."""
        with self._lock:
            self._waiting += 1
        return self._left

    def done_waiting(self) -> None:
        with self._lock:
            self._waiting -= 1
