"""The one line under the results: counts, timing, filters and the engine's notices.

Most notices ("Unclosed quote", "Could not parse the query") describe a query that is
still being typed, so showing them at once would flash a warning on every keystroke of
`"a phrase`. The line holds a notice back until the user pauses (or presses enter); a
notice already shown for the same query (more results loaded) stays put.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

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
        self.update(Text(for_terminal(message, one_line=True)))

    def _render_result(self, *, notice: bool) -> None:
        result = self._result
        if result is None:
            return
        if notice:
            self._notice_query = result.request.query
        else:
            result = replace(result, notice=None)
        # The query is the user's text: shown as a literal `Text`, never parsed as markup.
        self.update(Text(for_terminal(self._describe(result), one_line=True)))
