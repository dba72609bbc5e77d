"""The browser: search bar, facet panel, results and (when wide) the detail pane.

The screen owns the one piece of search state, a frozen `SearchRequest` reactive. Widgets
post what the user did; the screen derives the next request, a thread worker runs it,
and only the result for the current request is shown.
"""

from __future__ import annotations

import time
from dataclasses import replace

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer, ProgressBar
from textual.worker import Worker, WorkerState, get_current_worker

from index.models import Paper, SearchRequest, SearchResult
from tui.messages import (
    FacetToggled, HitHighlighted, MoreResultsWanted, PaperChosen, QueryChanged, QuerySubmitted,
    SearchFinished,
)
from tui.screens.base import PaperScreen
from tui.screens.library_actions import LIBRARY_BINDINGS, LibraryActions
from tui.view.facets import empty_message, facet_view, status_line
from tui.view.filters import toggle_value, without_selection
from tui.screens.paper_actions import PAPER_BINDINGS
from tui.widgets.detail_pane import DetailPane, PaperDetail
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar
from tui.widgets.status_line import StatusLine

__all__ = ["MainScreen", "PAGE"]

PAGE = 50  # hits fetched at a time; more are asked for when the cursor reaches the end
CORRECTION_PAUSE = 0.3  # seconds of no typing before "did you mean" is looked up


class MainScreen(LibraryActions, PaperScreen):
    """Search, filter, read; the detail pane sits beside the results on wide terminals."""

    BINDINGS = [
        *PAPER_BINDINGS,
        *LIBRARY_BINDINGS,  # tags, status, saved searches, notes, files (library_actions)
        Binding("escape", "back", "Back", show=False, id="back",
                tooltip="Step back: detail or filters, results, search bar; clear the bar; results again"),
        # Shown in the footer only when they would do something (see `check_action`).
        Binding("ctrl+y", "accept_correction", "Did you mean", id="accept_correction",
                tooltip="Search for the suggested spelling"),
        Binding("x", "clear_filters", "Clear filters", id="clear_filters",
                tooltip="Unselect every facet value"),
        Binding("f", "focus_facets", "Facets", show=False, id="focus_facets",
                tooltip="Move to the facet panel"),
        Binding("r", "focus_results", "Results", show=False, id="focus_results",
                tooltip="Move to the results"),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide"), (150, "-xwide")]

    request: reactive[SearchRequest] = reactive(SearchRequest(as_you_type=True, limit=PAGE), init=False)

    def __init__(self) -> None:
        super().__init__(id="main")
        self.result: SearchResult | None = None
        self._search_worker: Worker[None] | None = None  # the one search running
        self._search_again = False  # the request changed while it ran

    def compose(self) -> ComposeResult:
        yield SearchBar(lambda: self._app.history.entries, self._leave_search, id="search")
        with Horizontal(id="body"):
            yield FacetPanel(id="facets")
            with Vertical(id="results-column"):
                yield ProgressBar(id="index-progress", show_eta=False)
                yield ResultsList(self._app.papers.label, id="results")
                yield StatusLine(id="status")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#facets").border_title = "Filters"
        self.query_one("#results-column").border_title = "Papers"
        self.refresh_marks()
        self.query_one(SearchBar).focus()
        self.start_search()

    @property
    def wide(self) -> bool:
        return not self.has_class("-narrow")

    @property
    def current_paper(self) -> Paper | None:
        """The paper in the detail pane when it has focus, else the highlighted result."""
        pane = self.query_one(DetailPane)
        if self.wide and pane.has_focus_within and pane.detail is not None:
            return pane.detail.paper
        return self.query_one(ResultsList).highlighted

    # -- searching --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide (and disable) the correction and clear-filter keys when they have nothing to do."""
        if action == "accept_correction":
            return bool(self.result is not None and self.result.correction)
        if action == "clear_filters":
            return bool(self.request.filter_count)
        return True

    def start_search(self) -> None:
        """Search for the current request: now, or when the search that is running ends.

        Python threads share one core, so searches started on every keystroke while the
        earlier ones still ran slowed each other down (100,000 papers: the last of eight
        fast keystrokes took ~340 ms instead of ~80). At most one runs; keystrokes meanwhile
        only change `request`, and the latest one is searched next. Typing never waits.
        """
        if self._app.engine is None:
            return
        self.query_one("#index-progress", ProgressBar).display = False
        if self._search_worker is not None:
            self._search_again = True
            return
        self._search_worker = self.run_search(self.request)

    @property
    def searching(self) -> bool:
        """A search is running or queued (tests wait for this to settle)."""
        return self._search_worker is not None or self._search_again

    def _search_ended(self) -> None:
        self._search_worker = None
        if self._search_again:
            self._search_again = False
            self.start_search()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        super().on_worker_state_changed(event)
        if event.worker is self._search_worker and event.state == WorkerState.ERROR:
            self._search_ended()  # it posted no result: go on with the latest request

    def watch_request(self, request: SearchRequest) -> None:
        self.start_search()

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="Searching")
    def run_search(self, request: SearchRequest) -> None:
        """Ask the engine in a thread, so typing never waits for a search."""
        engine = self._app.engine
        assert engine is not None  # start_search checked it, and an open engine is never unset
        worker = get_current_worker()
        result = engine.search(request)
        self.post_message(SearchFinished(result))  # even if stale: it ends this search
        if result.total or result.correction or not request.as_you_type or not request.query.strip():
            return
        # The engine offers no spelling while the last word is still being typed (it is a
        # prefix of the word meant). Once the user pauses, ask again with the word finished;
        # a new keystroke cancels this worker, so nobody waits for it.
        time.sleep(CORRECTION_PAUSE)
        if worker.is_cancelled:
            return
        finished = engine.search(replace(request, as_you_type=False))
        if finished.correction and not worker.is_cancelled:
            self.post_message(SearchFinished(replace(result, correction=finished.correction),
                                             follow_up=True))

    @on(SearchFinished)
    def show_result(self, message: SearchFinished) -> None:
        """Show a finished search, unless the user has typed on since it started."""
        result = message.result
        if not message.follow_up:
            self._search_ended()
        if result.request != self.request:
            return
        previous = self.result
        self.result = result
        more = previous is not None and replace(previous.request, limit=result.request.limit) == result.request
        fix, clear, timings = (self._app.key_for("accept_correction"), self._app.key_for("clear_filters"),
                               self._app.show_timings)
        self.query_one(ResultsList).show_hits(result.hits, keep=more, empty_message=empty_message(result, fix, clear))
        self.query_one(FacetPanel).show_facets(self.with_saved(facet_view(result, self._app.taxonomy)))
        self.refresh_bindings()
        self.query_one(StatusLine).show_result(result, lambda r: status_line(r, fix, timings=timings))

    def show_index_progress(self, done: int, total: int) -> None:
        """The first run builds the index: a progress bar where the results will be."""
        bar = self.query_one("#index-progress", ProgressBar)
        bar.display = True
        bar.update(total=max(1, total), progress=done)
        self.query_one(ResultsList).show_hits(
            (), empty_message="Building the search index for the first time; it is kept for next time."
        )
        self.query_one(StatusLine).show_message(f"Indexing… {done} of {total} papers")

    def show_index_failed(self, message: str) -> None:
        """No index, so no search: say why where the results would be, and in the status."""
        self.query_one("#index-progress", ProgressBar).display = False
        self.query_one(ResultsList).show_hits((), empty_message=message)
        self.query_one(StatusLine).show_message(message)

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

    @on(MoreResultsWanted)
    def load_more(self) -> None:
        result = self.result
        if result is not None and result.request == self.request and result.total > len(result.hits):
            self.request = replace(self.request, limit=self.request.limit + PAGE)

    # -- the detail ---------------------------------------------------------------------

    @on(HitHighlighted)
    def follow_cursor(self, message: HitHighlighted) -> None:
        if self.wide and message.paper is not None:
            self.load_detail(message.paper.id, self._terms())
        elif message.paper is None:
            self.query_one(DetailPane).show_detail(None)

    @on(PaperChosen)
    def open_paper(self, message: PaperChosen) -> None:
        """Open a paper: beside the results when wide, full screen when narrow."""
        if self.wide:
            self.load_detail(message.paper_id, self._terms())
            self.query_one("#detail-similar").focus()
        else:
            from tui.screens.detail import DetailScreen

            self.app.push_screen(DetailScreen(message.paper_id, self._terms()))

    def show_detail(self, detail: PaperDetail | None) -> None:
        self.query_one(DetailPane).show_detail(detail, self._app.papers.label)

    def on_resize(self, event: events.Resize) -> None:
        """Widened past the breakpoint: the pane reappears, so fill it with the highlighted paper."""
        super().on_resize(event)
        paper, shown = self.query_one(ResultsList).highlighted, self.query_one(DetailPane).detail
        if self.wide and paper is not None and (shown is None or shown.paper.id != paper.id):
            self.load_detail(paper.id, self._terms())

    def _terms(self) -> tuple[str, ...]:
        return self.result.terms if self.result else ()

    def refresh_marks(self) -> None:
        """Redraw the marks in the results and the detail pane's title."""
        self.query_one(ResultsList).set_marks(self._app.marks)
        self.query_one(DetailPane).set_marks(self._app.marks)

    # -- moving around --------------------------------------------------------------------

    def action_focus_results(self) -> None:
        """Move to the results list."""
        self.query_one(ResultsList).focus()

    def action_focus_facets(self) -> None:
        """Move to the facet panel."""
        self.query_one(FacetPanel).focus()

    def action_back(self) -> None:
        """Step back one level: detail or filters -> results -> search bar -> clear it.

        Esc on an empty search bar goes to the results again (when there are any), so
        esc never leaves the user stuck where pressing it does nothing.
        """
        bar = self.query_one(SearchBar)
        results = self.query_one(ResultsList)
        if self.query_one(DetailPane).has_focus_within or self.query_one(FacetPanel).has_focus:
            self.action_focus_results()
        elif not bar.has_focus:
            bar.focus()
        elif bar.value:
            bar.value = ""
        elif results.hits:
            self.action_focus_results()

    def action_clear_filters(self) -> None:
        """Unselect every facet value (filters typed in the query stay: they are text)."""
        self.request = replace(without_selection(self.request), limit=PAGE)

    def action_accept_correction(self) -> None:
        """Search for the "did you mean" spelling."""
        if self.result is not None and self.result.correction:
            bar = self.query_one(SearchBar)
            bar.value = self.result.correction
            bar.cursor_position = len(bar.value)
            bar.focus()
