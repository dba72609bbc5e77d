"""The search input: every keystroke searches, up and down walk the query history."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

from tui.messages import QueryChanged, QuerySubmitted
from tui.widgets.ordered_input import OrderedInput

__all__ = ["PLACEHOLDER", "SearchBar"]

PLACEHOLDER = 'Search (/): words, "a phrase", topic:training hw:gpu, -word   F1: help'


class SearchBar(OrderedInput):
    """An `Input` (its bound keys kept in order with typing) that posts `QueryChanged` as the user types and browses past queries.

    Args:
        history: called for the current history (oldest first) when browsing starts, so
            the bar never holds a stale copy of the screen's state.
        leave_down: called when down is pressed with no older query being shown, so the
            arrow keeps moving toward the results as users expect.
    """

    BINDINGS = [
        Binding(
            "up",
            "history_back",
            "Older query",
            show=False,
            id="search.history_back",
            tooltip="Show the previous query from the history",
        ),
        Binding(
            "down",
            "history_forward",
            "Newer query",
            show=False,
            id="search.history_forward",
            tooltip="Show the next query from the history, or move to the results",
        ),
    ]

    # Textual's `Input` sets its virtual size with every character typed, and a layout
    # request reflows the whole screen: every keystroke paid one more reflow than its
    # result needed. The bar's size is set by the screen (docked, full width), never by
    # its text, which only scrolls inside it (`Input` scrolls to the cursor itself).
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def __init__(
        self,
        history: Callable[[], Sequence[str]],
        leave_down: Callable[[], None],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(placeholder=PLACEHOLDER, id=id, select_on_focus=False)
        self._history = history
        self._leave_down = leave_down
        self._position: int | None = None  # index into the history while browsing
        self._draft = ""  # what was typed before browsing started

    def action_history_back(self) -> None:
        """Show the previous query; the first press keeps the draft to come back to."""
        entries = list(self._history())
        if not entries:
            return
        if self._position is None:
            self._draft = self.value
            self._position = len(entries)
        self._position = max(0, self._position - 1)
        self._show(entries[self._position])

    def action_history_forward(self) -> None:
        """Show the next query, then the draft; past the draft, go down to the results."""
        entries = list(self._history())
        if self._position is None:
            self._leave_down()
            return
        self._position += 1
        if self._position >= len(entries):
            self._position = None
            self._show(self._draft)
        else:
            self._show(entries[self._position])

    def _show(self, query: str) -> None:
        with self.prevent(Input.Changed):
            self.value = query
        self.cursor_position = len(query)
        self.post_message(QueryChanged(query))

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        """Typing ends history browsing and searches."""
        event.stop()
        self._position = None
        self.post_message(QueryChanged(event.value))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._position = None
        self.post_message(QuerySubmitted(event.value))
