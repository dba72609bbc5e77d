"""The browser: search bar, facet panel, results and (when wide) the detail pane.

The screen owns the one piece of search state, a frozen `SearchRequest` reactive. Widgets
post what the user did; the screen derives the next request, and `SearchingScreen` runs
it in a thread and hands back only the result for the current request (`show_result`).

It starts on the results, as lazygit and k9s do, so every single key (`?`, `s`, `c`,
`f`, `q`) works from the first screen; `/` moves to the search bar to type. Enter opens
the paper full screen in every layout; the side pane, when there is room, previews the
highlighted paper and is reached with tab to read it there.

This module turns what the user did into requests and draws their results; the screen's
other parts are layers of their own: its keys' actions (`main_actions`), the detail pane
(`main_preview`), the library's load and build (`main_progress`) and the user's layer
(`library_actions`).
"""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ProgressBar

from index.models import SearchRequest, SearchResult
from tui.messages import (
    FacetToggled,
    MoreResultsWanted,
    QueryChanged,
    QuerySubmitted,
)
from tui.screens.library_actions import LibraryActions
from tui.screens.main_actions import SORTS, MainActions
from tui.screens.main_keys import MAIN_BINDINGS
from tui.screens.main_preview import DetailPreview
from tui.screens.main_progress import BuildProgress
from tui.screens.searching import PAGE
from tui.view.facets import empty_message, facet_view
from tui.view.filters import toggle_value, typed_filters
from tui.widgets.borders import set_border_subtitle, set_border_title
from tui.widgets.detail_pane import DetailPane
from tui.widgets.facet_column import FacetColumn
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar
from tui.widgets.status_line import StatusLine
from tui.widgets.steady_footer import SteadyFooter

__all__ = ["PAGE", "SORTS", "MainScreen"]


class MainScreen(LibraryActions, MainActions, DetailPreview, BuildProgress):
    """Search, filter, read; the detail pane sits beside the results on wide terminals."""

    BINDINGS = MAIN_BINDINGS
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide"), (150, "-xwide")]

    def __init__(self) -> None:
        super().__init__(id="main")

    def compose(self) -> ComposeResult:
        yield SearchBar(lambda: self._app.history.entries, self._leave_search, id="search")
        with Horizontal(id="body"):
            yield FacetColumn(id="filters")
            with Vertical(id="results-column"):
                yield ProgressBar(id="index-progress", show_eta=False)
                yield ResultsList(self._app.papers.label, id="results")
                yield StatusLine(id="status")
            yield DetailPane(id="detail")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._show_order()
        self.refresh_marks()
        self.query_one(ResultsList).focus()
        self.first_search()

    def on_screen_resume(self) -> None:
        """Back from the full-screen detail or a dialog: marks or the style may have changed."""
        self.refresh_marks()
        self.reload_detail()

    # -- searching --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide (and disable) the keys that have nothing to do: the correction, clearing, `/` while typing.

        Focus is read with `has_focus_within` (the screen's focused widget, right now), not
        `has_focus`, which changes only when the Focus/Blur events are handled: "dyn", enter,
        enter typed fast saw the bar still focused at the second enter, so it was lost.
        """
        if action == "accept_correction":
            return bool(self.result is not None and self.result.correction)
        if action == "clear_filters":
            return bool(self.request.filter_count or typed_filters(self.request.query))
        if action == "focus_search":
            return not self.query_one(SearchBar).has_focus_within
        if action == "submit_search":
            return self.query_one(SearchBar).has_focus_within
        return True

    def watch_request(self, request: SearchRequest) -> None:
        self._show_order()
        super().watch_request(request)

    def watch_marked_only(self, marked_only: bool) -> None:
        self._show_order()
        super().watch_marked_only(marked_only)

    def show_result(self, result: SearchResult) -> None:
        """The current request's result: rows, facet counts, the status line."""
        previous = self.result
        self.result = result
        # More of the same results (a page, or every venue counted): the cursor stays.
        more = (
            previous is not None
            and replace(
                previous.request,
                limit=result.request.limit,
                facet_limits=result.request.facet_limits,
            )
            == result.request
        )
        if self._keep_cursor:  # the records' rows replaced: the highlighted paper stays
            more, self._keep_cursor = True, False
        fix, clear = self._app.key_for("accept_correction"), self._app.key_for("clear_filters")
        empty = empty_message(result, fix, clear)
        as_read = self._records is not None and self.engine_for(result.request) is self._records
        if as_read:
            empty += "\n\nSo far this matches words in the files as read: the index is still being built."
        elif self._building is not None and not self._lean:  # a lean index has every paper
            empty += "\n\nSo far this searches a sample: the full index is still being built."
        if self.marked_only and not result.total:
            empty = f"No marked paper matches. Press m on a paper to mark it; {self._app.key_for('marked_only')} shows every paper."
        self.query_one(ResultsList).show_hits(result.hits, keep=more, empty_message=empty)
        if not as_read:  # untagged records have no counts: the panel waits for the index
            self.query_one(FacetPanel).show_facets(
                self.with_saved(facet_view(result, self._app.taxonomy)), result.more_values
            )
        self.refresh_bindings()
        self._show_status(result)

    @on(QueryChanged)
    def search_as_typed(self, message: QueryChanged) -> None:
        """Every keystroke becomes a new request; the old worker (and notice) is cancelled."""
        self.query_one(StatusLine).typing()
        self.request = replace(self.request, query=message.query, limit=PAGE)

    @on(QuerySubmitted)
    def remember_query(self, message: QuerySubmitted) -> None:
        """Enter keeps the query in the history and moves to the results."""
        history = self._app.history
        failed_before = history.save_error
        history.add(message.query)
        if history.save_error and history.save_error != failed_before:  # once, not per query
            self.notify(history.save_error, title="History", severity="warning", markup=False)
        self.query_one(StatusLine).show_notice()  # done typing: a notice is news now
        self.action_focus_results()

    def action_submit_search(self) -> None:
        """Enter in the search bar: remember the query and move to the results, at once."""
        self.remember_query(QuerySubmitted(self.query_one(SearchBar).value))

    def _leave_search(self) -> None:
        """Down from the search bar: the user is done typing, as with enter."""
        self.remember_query(QuerySubmitted(self.query_one(SearchBar).value))

    @on(FacetToggled)
    def toggle_facet(self, message: FacetToggled) -> None:
        """Select or unselect a value, so that clicking and typing `topic:x` agree."""
        if message.facet == "saved":  # the Saved section recalls a search (library_actions)
            self.recall_saved(message.value)
            return
        request = toggle_value(self.request, message.facet, message.value)
        if request.query != self.request.query:
            self.query_one(SearchBar).value = request.query
        self.request = replace(request, limit=PAGE)

    @on(FacetPanel.ValuesWanted)
    def count_more_values(self, message: FacetPanel.ValuesWanted) -> None:
        """ "more…" past the values the engine listed: ask it for more of that facet."""
        limits = dict(self.request.facet_limits)
        limits[message.facet] = max(limits.get(message.facet, 0), message.count)
        self.request = replace(self.request, facet_limits=tuple(sorted(limits.items())))

    @on(MoreResultsWanted)
    def load_more(self) -> None:
        result = self.result
        if (
            result is not None
            and result.request == self.request
            and result.total > len(result.hits)
        ):
            self.request = replace(self.request, limit=self.request.limit + PAGE)

    # -- marks and order, on the results' border ---------------------------------------

    def refresh_marks(self) -> None:
        """Redraw the marks in the results, the detail pane's title and the results' border."""
        marks = self._app.marks
        self.query_one(ResultsList).set_marks(marks)
        self.query_one(DetailPane).set_marks(marks)
        count = len(marks)
        set_border_subtitle(
            self.query_one("#results-column"), f"● {count:,} marked" if count else "no marks"
        )
        if self.marked_only:
            self.start_search()

    def _show_order(self) -> None:
        """The results' border says how they are sorted (and when only marked ones show)."""
        sort = self.request.sort
        label = dict(SORTS).get(sort, sort)
        title = f"Papers · {label}"
        if self.marked_only:
            title += " · marked only"
        set_border_title(self.query_one("#results-column"), title)
