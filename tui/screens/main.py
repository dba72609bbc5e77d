"""The browser: search bar, facet panel, results and (when wide) the detail pane.

The screen owns the one piece of search state, a frozen `SearchRequest` reactive. Widgets
post what the user did; the screen derives the next request, and `SearchingScreen` runs
it in a thread and hands back only the result for the current request (`show_result`).

It starts on the results, as lazygit and k9s do, so every single key (`?`, `s`, `c`,
`f`, `q`) works from the first screen; `/` moves to the search bar to type. Enter opens
the paper full screen in every layout; the side pane, when there is room, previews the
highlighted paper and is reached with tab to read it there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import ProgressBar

from index.library.first_rows import ReadRecords, plain_request
from index.models import PageMatch, Paper, SearchRequest, SearchResult
from tui.fulltext_host import FulltextProgress, FulltextSynced
from tui.messages import (
    FacetToggled,
    HitHighlighted,
    IndexFailed,
    IndexPreview,
    IndexProgress,
    IndexReady,
    LibraryUpdating,
    MoreResultsWanted,
    PaperChosen,
    QueryChanged,
    QuerySubmitted,
    RecordsRead,
)
from tui.screens.library_actions import LibraryActions
from tui.screens.main_keys import MAIN_BINDINGS
from tui.screens.searching import PAGE, SearchingScreen
from tui.services.papers import PaperDetail
from tui.view.facets import (
    build_message,
    build_stage,
    empty_message,
    facet_view,
    index_writing,
    reading_again,
    reading_pdfs,
    status_line,
    step_counted,
    unknown_facet_values,
)
from tui.view.filters import toggle_value, typed_filters, without_selection, without_typed_filters
from tui.widgets.borders import set_border_subtitle, set_border_title
from tui.widgets.detail_pane import DetailPane
from tui.widgets.facet_column import FacetColumn
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar
from tui.widgets.status_line import StatusLine
from tui.widgets.steady_footer import SteadyFooter

__all__ = ["PAGE", "SORTS", "MainScreen"]

# The sort orders the sort key cycles through, with what the results' border says.
SORTS: tuple[tuple[str, str], ...] = (
    ("relevance", "best match first"),
    ("year", "newest first"),
    ("year-asc", "oldest first"),
    ("title", "by title"),
    ("author", "by first author"),
)


class MainScreen(LibraryActions, SearchingScreen):
    """Search, filter, read; the detail pane sits beside the results on wide terminals."""

    BINDINGS = MAIN_BINDINGS
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide"), (150, "-xwide")]

    def __init__(self) -> None:
        super().__init__(id="main")
        # The first start's progress, (done, total, load step); `_building` has it while a sample's
        # index serves searches meanwhile (IndexPreview), else None.
        self._progress: tuple[int, int, str] = (0, 1, "")
        self._building: tuple[int, int, str] | None = None
        # Source files being read again (LibraryUpdating): the results are from before them.
        self._updating: tuple[str, ...] = ()
        # Attached PDFs read in the background (FulltextProgress): (done, total), or None.
        self._reading_pdfs: tuple[int, int, bool] | None = None
        # The paper the pane shows first, once the first page is drawn (`_preview`).
        self._first_detail: str | None = None
        self._first_detail_loading: str | None = None  # asked for, the pane still empty
        # A first start's records as read, shown and searched till the index is (first_rows).
        self._records: ReadRecords | None = None
        self._keep_cursor = False  # the next result replaces the records' rows: cursor stays

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

    @property
    def wide(self) -> bool:
        return not self.has_class("-narrow")

    @property
    def current_paper(self) -> Paper | None:
        """The paper the keys act on: the one the pane shows while it has the focus, else
        the highlighted result (which the pane, when visible, shows too)."""
        pane = self.query_one(DetailPane)
        if self.wide and pane.has_focus_within and pane.detail is not None:
            return pane.detail.paper
        return self.query_one(ResultsList).highlighted

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Leaving the pane after stepping to a similar paper: it shows the highlighted one again.

        Otherwise the pane could show one paper while `c` (acting on the results) copies
        another.
        """
        pane = self.query_one(DetailPane)
        widget: Widget | None = event.widget
        if widget is pane or (widget is not None and pane in widget.ancestors):
            return
        paper = self.query_one(ResultsList).highlighted
        if pane.trail or (
            pane.detail is not None and paper is not None and pane.detail.paper.id != paper.id
        ):
            pane.trail.clear()
            if self.wide and paper is not None:
                self.load_detail(paper.id, self._terms())

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

    def start_search(self) -> None:
        """Search (see `SearchingScreen`); the first build's progress bar goes once one can."""
        self._hide_progress_once_searchable()
        super().start_search()

    def first_search(self) -> None:
        self._hide_progress_once_searchable()
        super().first_search()

    def _hide_progress_once_searchable(self) -> None:
        if self.engine_for(self.request) is not None:
            self.query_one("#index-progress", ProgressBar).display = False

    def watch_request(self, request: SearchRequest) -> None:
        self._show_order()
        super().watch_request(request)

    def watch_marked_only(self, marked_only: bool) -> None:
        self._show_order()
        super().watch_marked_only(marked_only)

    @on(IndexProgress)
    def _index_progress(self, message: IndexProgress) -> None:
        self._progress = (message.done, message.total, message.step)
        if self._building is not None:  # a sample's results stay; the status says how far
            self._building = self._progress
            if self.result is not None:
                self._show_status(self.result)
            return
        self.show_index_progress(*self._progress)

    def engine_for(self, request: SearchRequest) -> Any:
        """Until the full index is open, the records as read answer a plain request (no
        filter, no syntax: `index.library.first_rows`): they hold the whole library where
        a sample's index holds 400 of it. The sample's index answers the rest."""
        engine, records = self._app.engine, self._records
        if records is not None and (engine is None or plain_request(request)):
            return records
        return engine

    @on(RecordsRead)
    def _records_read(self, message: RecordsRead) -> None:
        """A first start's files are read: their first page at once, the status saying
        what is still being done (tui.first_start)."""
        if self._app.engine is not None and self._building is None:
            return  # the full index is open already
        assert isinstance(message.records, ReadRecords)
        self._keep_cursor = self._records is not None  # the merged library's, next
        self._records = message.records
        self._app.papers.records = message.records.paper  # the detail pane shows them
        if self._building is None:
            self._building = self._progress
        self.start_search()

    @on(IndexPreview)
    def _index_preview(self) -> None:
        """A sample of the library is searchable while the full index is built."""
        self._building = self._progress
        self._keep_cursor = self._records is not None
        self.start_search()

    @on(IndexReady)
    def _index_ready(self) -> None:
        self._building = None
        self._keep_cursor = self._records is not None
        self._records = self._app.papers.records = None
        self.start_search()

    @on(IndexFailed)
    def _index_failed(self, message: IndexFailed) -> None:
        self._building = None  # a sample served meanwhile is gone with the build
        self._records = None
        self.show_index_failed(message.reason)

    @on(LibraryUpdating)
    def _library_updating(self, message: LibraryUpdating) -> None:
        """Changed files are read again (or done): the status line says so."""
        self._updating = message.files
        if self.result is not None:
            self._show_status(self.result)

    @on(FulltextProgress)
    def _fulltext_progress(self, message: FulltextProgress) -> None:
        """The status line says how far the PDFs are read, then goes quiet."""
        total = message.total
        self._reading_pdfs = (message.done, total, message.indexing) if total else None
        if self.result is not None and self._building is None:
            self._show_status(self.result)

    @on(FulltextSynced)
    def _fulltext_synced(self) -> None:
        """More PDFs are searchable: a query with words finds them now (the cursor stays)."""
        if self.request.query.strip() and self._building is None:
            self.start_search()

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
        elif self._building is not None:
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

    def _show_status(self, result: SearchResult) -> None:
        """The status line for `result`, led by the build's progress while a sample serves."""
        fix, timings = self._app.key_for("accept_correction"), self._app.show_timings
        unknown = unknown_facet_values(result.request.query, self._app.taxonomy)
        marked = self.marked_only
        building = ""
        if self._building is not None:
            building = build_stage(*self._building) + " · so far "  # short: a narrow pane
        elif self._updating:
            building = reading_again(self._updating) + " · "
        elif self._reading_pdfs is not None:
            building = reading_pdfs(*self._reading_pdfs) + " · "
        self.query_one(StatusLine).show_result(
            result,
            lambda r: (
                building + status_line(r, fix, timings=timings, unknown=unknown, marked_only=marked)
            ),
        )

    def show_index_progress(self, done: int, total: int, step: str = "") -> None:
        """The first run reads the library and builds the index: a progress bar where the
        results will be."""
        bar = self.query_one("#index-progress", ProgressBar)
        bar.display = True
        # No count (merging duplicates, writing the index): a bar that says "working".
        counted = step_counted(total) if step else not index_writing(done, total)
        bar.update(total=max(1, total) if counted else None, progress=done)
        self.query_one(ResultsList).show_hits(
            (),
            empty_message=(
                "Reading your library for the first time; it is kept for next time."
                if step
                else "Building the search index for the first time; it is kept for next time."
            ),
        )
        self.query_one(StatusLine).show_message(build_message(done, total, step))

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

    # -- the detail ---------------------------------------------------------------------

    @on(HitHighlighted)
    def follow_cursor(self, message: HitHighlighted) -> None:
        """The side pane previews the highlighted paper (a new start: no steps to go back)."""
        pane = self.query_one(DetailPane)
        pane.trail.clear()
        if self.wide and message.paper is not None:
            self._preview(message.paper.id)
        elif message.paper is None:
            # A paper's detail still being built (the cursor's before the results went
            # empty) would land after this and show a paper no longer listed.
            self.workers.cancel_group(self, "detail")
            self._first_detail = None
            pane.show_detail(None)

    @on(PaperChosen)
    def open_paper(self, message: PaperChosen) -> None:
        """A result opens full screen in every layout; a similar paper opens in the pane."""
        if message.step:
            self.load_detail(message.paper_id, self._terms())
            self.query_one(DetailPane).focus()
            return
        from tui.screens.detail import DetailScreen

        paper_id = message.paper_id
        self.app.push_screen(DetailScreen(paper_id, self._terms(), self.page_match_of(paper_id)))

    def show_detail(self, detail: PaperDetail | None) -> None:
        self._first_detail_loading = None
        self.query_one(DetailPane).show_detail(detail, self._app.papers.label)

    def on_resize(self, event: events.Resize) -> None:
        """Widened past the breakpoint: the pane reappears, so fill it with the highlighted paper."""
        super().on_resize(event)
        paper, shown = self.query_one(ResultsList).highlighted, self.query_one(DetailPane).detail
        if self.wide and paper is not None and (shown is None or shown.paper.id != paper.id):
            self._preview(paper.id)

    def _preview(self, paper_id: str) -> None:
        """Loads the highlighted paper into the pane; the first one once the page is drawn.

        The first detail imports the citation engine (~0.1 s holding the interpreter's
        lock), which would compete with drawing the first page. Until that page is drawn
        the latest paper asked for is the one loaded, once: a start asked three times
        (its first result, its first resize, the cursor), and one whose first page was
        drawn before its first resize asked again while the detail was on its way.
        """
        if self.query_one(DetailPane).detail is not None:
            self.load_detail(paper_id, self._terms())
            return
        if paper_id == self._first_detail_loading:
            return  # on its way
        scheduled = self._first_detail is not None
        self._first_detail = paper_id
        if not scheduled:
            self.call_after_refresh(self._load_first_detail)

    def _load_first_detail(self) -> None:
        paper_id, self._first_detail = self._first_detail, None
        if paper_id is not None:
            self._first_detail_loading = paper_id
            self.load_detail(paper_id, self._terms())

    def _terms(self) -> tuple[str, ...]:
        return self.result.terms if self.result else ()

    def page_match_of(self, paper_id: str) -> PageMatch | None:
        """The result's page for this paper, when it matched in the full text."""
        hits = self.result.hits if self.result else ()
        return next((hit.page_match for hit in hits if hit.paper.id == paper_id), None)

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

    # -- moving around --------------------------------------------------------------------

    def action_focus_search(self) -> None:
        """Move to the search bar to type.

        `set_focus` at once, not `focus()` (which waits for the message queue): keys typed
        right after `/` are already queued, and must reach the search bar, not the results.
        """
        self.set_focus(self.query_one(SearchBar))

    def action_focus_results(self) -> None:
        """Move to the results list (at once, like `action_focus_search`)."""
        self.set_focus(self.query_one(ResultsList))

    def action_cycle_sort(self) -> None:
        """The next sort order (relevance, year newest, year oldest, title, first author)."""
        orders = [sort for sort, _ in SORTS]
        current = orders.index(self.request.sort) if self.request.sort in orders else 0
        self.action_sort(orders[(current + 1) % len(orders)])

    def action_sort(self, sort: str) -> None:
        """Sort the results in one order (a palette command per order)."""
        if sort in dict(SORTS):
            # The results' border says the order; no toast on top of the results too.
            self.request = replace(self.request, sort=sort, limit=PAGE)  # type: ignore[arg-type]

    def action_toggle_compact(self) -> None:
        """One line per paper (title, first author, year, venue), or the cards again."""
        results = self.query_one(ResultsList)
        results.compact = not results.compact

    def action_marked_only(self) -> None:
        """Only the marked papers (that match the search), or every paper again."""
        if not self.marked_only and not len(self._app.marks):
            self.notify("No marked papers: press m on a paper to mark it.", severity="warning")
            return
        self.marked_only = not self.marked_only

    def action_toggle_facets(self) -> None:
        """Hide the facet panel (more room on a narrow terminal), or show it again."""
        column, panel = self.query_one(FacetColumn), self.query_one(FacetPanel)
        focused = panel.has_focus_within
        column.display = not column.display
        if not column.display and focused:
            self.action_focus_results()

    def action_back(self) -> None:
        """Step back one level: detail or filters -> results -> search bar -> clear it.

        Esc on an empty search bar goes to the results again (when there are any), so
        esc never leaves the user stuck where pressing it does nothing.
        """
        bar = self.query_one(SearchBar)
        results = self.query_one(ResultsList)
        pane = self.query_one(DetailPane)
        if pane.has_focus_within and pane.step_back(self._app.papers.label):
            return
        if pane.has_focus_within or self.query_one(FacetPanel).has_focus_within:
            self.action_focus_results()
        elif not bar.has_focus_within:
            self.action_focus_search()
        elif bar.value:
            bar.value = ""
        elif results.hits:
            self.action_focus_results()

    def action_clear_filters(self) -> None:
        """Unselect every facet value, and take typed `topic:` and `hw:` filters out of the query."""
        request = without_typed_filters(without_selection(self.request))
        if request.query != self.request.query:
            self.query_one(SearchBar).value = request.query
        self.request = replace(request, limit=PAGE)

    def action_focus_facets(self) -> None:
        """Move to the facet panel (showing it if it was hidden)."""
        self.query_one(FacetColumn).display = True
        self.set_focus(self.query_one(FacetPanel))

    def action_accept_correction(self) -> None:
        """Search for the "did you mean" spelling."""
        if self.result is not None and self.result.correction:
            bar = self.query_one(SearchBar)
            bar.value = self.result.correction
            bar.cursor_position = len(bar.value)
            bar.focus()
