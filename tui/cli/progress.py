"""Progress on stderr for slow work: a first load of the library, and an index build.

Reading 100,000 papers for the first time takes about a minute and building their index
two; a blank terminal for that long looks like a hang. On a terminal each display is one
line redrawn in place; in a log (stderr redirected) it is a single line, once.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TextIO

HEADLINE = "paperscope: reading the papers (later starts use a cache)…"
# The same, when the step beside it would not fit on one line with the full headline.
SHORT_HEADLINE = "paperscope: reading the papers…"
NOTICE_AFTER = 0.3  # seconds
REDRAW_EVERY = 0.2  # seconds between progress redraws on a terminal


class _StderrLine:
    """One line of progress: redrawn in place on a terminal, ended by `finish`."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False
        self._tty = bool(getattr(stream, "isatty", lambda: False)())

    def fits(self, *lines: str) -> str:
        """The first of `lines` that fits the terminal's width, else the last one cut.

        A line redrawn in place must not wrap: a carriage return goes back to the start
        of the last screen line only, so at 80 columns each redraw left the wrapped
        start of the one before on screen. A width that cannot be read keeps the first.
        """
        try:
            room = os.get_terminal_size(self.stream.fileno()).columns - 1
        except (AttributeError, OSError, ValueError):
            return lines[0]
        for line in lines:
            if len(line) <= room:
                return line
        return lines[-1][: max(0, room - 1)] + "…"

    def finish(self) -> None:
        """Ends the line, if one was drawn in place."""
        if self.shown and self._tty:
            self.stream.write("\n")
            self.stream.flush()


class ProgressBar(_StderrLine):
    """Callable as `progress(done, total)`: a bar on a terminal, one line otherwise.

    `finishing` is said beside the full bar: what still runs once every item is counted
    (an index build writes the index after its last paper is in, for a while at scale).
    """

    def __init__(
        self,
        label: str,
        stream: TextIO,
        width: int = 30,
        finishing: str = "",
        unit: str = "papers",
    ) -> None:
        super().__init__(stream)
        self.label = label
        self.unit = unit
        self.width = width
        self.finishing = finishing
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        if not self._tty:
            if not self.shown:
                self.stream.write(f"paperscope: {self.label} {total} {self.unit}...\n")
                self.shown = True
            return
        filled = self.width * done // max(1, total)
        tail = f" {self.finishing}" if self.finishing and 0 < total <= done else ""
        bar = f"{self.label} [{'#' * filled}{'-' * (self.width - filled)}] {done}/{total}"
        self.stream.write(f"\r{self.fits(bar + tail, bar)}\033[K")
        self.stream.flush()
        self.shown = True


class LoadNotice(_StderrLine):
    """Pass as `load_library(..., progress=notice)`; call `finish()` when it returns.

    Nothing is shown until a step is reported (a load from the library cache reports none,
    however long it takes); then a timer prints the line after `after` seconds even if no
    further step reports (a single huge file being parsed). On a terminal the line follows
    the steps in place; a log file gets the headline alone, once.
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        after: float = NOTICE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(stream)
        self.after = after
        self.clock = clock
        self.started = clock()
        self._step_name = ""
        self._step = ""  # as shown: "tagging 45,000 of 100,000"
        self._drawn_at = float("-inf")
        self._lock = threading.Lock()
        self._finished = False
        self._timer: threading.Timer | None = threading.Timer(after, self._draw)
        self._timer.daemon = True
        self._timer.start()

    def __call__(self, step: str, done: int, total: int) -> None:
        new_step = step != self._step_name
        self._step_name = step
        self._step = f"{step} {done:,} of {total:,}" if total > 1 else step
        now = self.clock()
        if now - self.started < self.after:
            return
        if not self.shown or (
            self._tty and (new_step or done == total or now - self._drawn_at >= REDRAW_EVERY)
        ):
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
                line = self.fits(HEADLINE + step, SHORT_HEADLINE + step)
                self.stream.write(f"\r{line}\033[K")
            self.stream.flush()
            self.shown = True
            self._drawn_at = self.clock()

    def finish(self) -> None:
        """Stops the timer and ends the progress line, if one was drawn.

        The timer is joined and dropped: it holds this notice (its callback), and the
        cycle would otherwise wait for the collector, which start-up keeps paused.
        """
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
            timer.join()
        with self._lock:
            self._finished = True
            super().finish()
