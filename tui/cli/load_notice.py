"""A slow first load of the library says so on stderr, and on a terminal how far it got.

Reading 100,000 papers for the first time takes about a minute (later starts read the
library cache in under a second); a blank terminal for that long looks like a hang. Loads
that finish within `after` seconds (every cached one) print nothing at all.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

HEADLINE = "paperscope: reading the papers (later starts use a cache)…"
NOTICE_AFTER = 0.3  # seconds
REDRAW_EVERY = 0.2  # seconds between progress redraws on a terminal


class LoadNotice:
    """Pass as `load_library(..., progress=notice)`; call `finish()` when it returns.

    Nothing is shown until a step is reported (a load from the library cache reports none,
    however long it takes); then a timer prints the line after `after` seconds even if no
    further step reports (a single huge file being parsed). On a terminal the line follows
    the steps in place; a log file gets the headline alone, once.
    """

    def __init__(self, stream: TextIO, *, after: float = NOTICE_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.after = after
        self.clock = clock
        self.started = clock()
        self.shown = False
        self._tty = bool(getattr(stream, "isatty", lambda: False)())
        self._step_name = ""
        self._step = ""  # as shown: "tagging 45,000 of 100,000"
        self._drawn_at = float("-inf")
        self._lock = threading.Lock()
        self._finished = False
        self._timer = threading.Timer(after, self._draw)
        self._timer.daemon = True
        self._timer.start()

    def __call__(self, step: str, done: int, total: int) -> None:
        new_step = step != self._step_name
        self._step_name = step
        self._step = f"{step} {done:,} of {total:,}" if total > 1 else step
        now = self.clock()
        if now - self.started < self.after:
            return
        if not self.shown or (self._tty and (
                new_step or done == total or now - self._drawn_at >= REDRAW_EVERY)):
            self._draw()

    def _draw(self) -> None:
        with self._lock:
            if self._finished or not self._step_name:
                return
            if not self._tty:
                if not self.shown:
                    self.stream.write(HEADLINE + "\n")
            else:
                step = f" {self._step}" if self._step else ""
                self.stream.write(f"\r{HEADLINE}{step}\033[K")
            self.stream.flush()
            self.shown = True
            self._drawn_at = self.clock()

    def finish(self) -> None:
        """Stops the timer and ends the progress line, if one was drawn."""
        self._timer.cancel()
        with self._lock:
            self._finished = True
            if self.shown and self._tty:
                self.stream.write("\n")
                self.stream.flush()
