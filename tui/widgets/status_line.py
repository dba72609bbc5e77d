"""The one line under the results: counts, timing, filters and the engine's notices.

Most notices ("Unclosed quote", "Could not parse the query") describe a query that is
still being typed, so showing them at once would flash a warning on every keystroke of
`"a phrase`. The line holds a notice back until the user pauses (or presses enter); a
notice already shown for the same query (more results loaded) stays put.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rich.cells import cell_len
from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from index.models import SearchResult
from index.text_safety import for_terminal

__all__ = ["NOTICE_PAUSE", "StatusLine"]

NOTICE_PAUSE = 1.0  # seconds of no typing before a notice joins the line


class StatusLine(Static):
    """Shows a `SearchResult` summary (or a plain message), notices after a pause."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._result: SearchResult | None = None
        self._describe: Callable[[SearchResult], str] = lambda result: ""
        self._timer: Timer | None = None
        self._notice_query: str | None = None  # the query whose notice is on show
        # The width at which what is shown fits one row (its height is 1); 0 if it did not.
        self._one_row = 0

    def show_result(self, result: SearchResult, describe: Callable[[SearchResult], str]) -> None:
        """Summarise a finished search; a new notice waits for `NOTICE_PAUSE` of quiet.

        Args:
            describe: the result as one line, notice included (the screen knows the keys).
        """
        self.typing()
        self._result, self._describe = result, describe
        calm = bool(result.notice) and result.request.query != self._notice_query
        self._render_result(notice=not calm)
        if calm:
            self._timer = self.set_timer(NOTICE_PAUSE, self.show_notice)

    def typing(self) -> None:
        """The user typed on: a held-back notice is about a query that is already gone."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def show_notice(self) -> None:
        """Show the current result with its notice now (a pause, or enter)."""
        self.typing()
        self._render_result(notice=True)

    def show_message(self, message: str) -> None:
        """Replace the line with a message (literally: it can quote the user's files)."""
        self.typing()
        self._result = None
        self._show(for_terminal(message, one_line=True))

    def _render_result(self, *, notice: bool) -> None:
        result = self._result
        if result is None:
            return
        if notice:
            self._notice_query = result.request.query
        else:
            result = replace(result, notice=None)
        self._show(for_terminal(self._describe(result), one_line=True))

    def _show(self, line: str) -> None:
        """Show `line`, literally: it holds the user's query, never parsed as markup.

        The screen is laid out again only when the line's height may change (a notice
        wraps to up to three rows). Otherwise every count (each keystroke's result, each
        step of a first start's progress) laid out the whole screen: 3.6 ms a time on
        the bundled corpus at 120x40, UI-thread time that a first load running beside
        it in the same process waits for.
        """
        width = self.content_size.width
        one_row = width if width > 0 and cell_len(line) <= width else 0
        self.update(Text(line), layout=not one_row or one_row != self._one_row)
        self._one_row = one_row
