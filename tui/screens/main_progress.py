"""The main screen while its library is loaded, built or read again: progress and answers.

A first start shows a progress bar where the results will be, then the records as read
(index.library.first_rows) and a sample's index while the full one is built; a big
library's lean index (index.store.lean) holds every paper, so once it serves it answers
everything and the status says the index is being completed. A changed file read again,
and attached PDFs read in the background, lead the status line. The app
posts the messages (tui.first_start, tui.library_host, tui.fulltext_host); this layer of
`MainScreen` keeps what they said and chooses what answers a request meanwhile
(`engine_for`).
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.widgets import ProgressBar

from index.library.first_rows import ReadRecords, plain_request
from index.models import SearchRequest, SearchResult
from tui.fulltext_host import FulltextProgress, FulltextSynced
from tui.messages import (
    IndexFailed,
    IndexPreview,
    IndexProgress,
    IndexReady,
    LibraryUpdating,
    RecordsRead,
)
from tui.screens.searching import SearchingScreen
from tui.view.facets import (
    build_message,
    build_stage,
    completing_stage,
    index_writing,
    reading_again,
    reading_pdfs,
    status_line,
    step_counted,
    unknown_facet_values,
)
from tui.widgets.results_list import ResultsList
from tui.widgets.status_line import StatusLine

__all__ = ["BuildProgress"]


class BuildProgress(SearchingScreen):
    """How far the library's load, index build, reload and PDF reading are, for `MainScreen`."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        # The first start's progress, (done, total, load step); `_building` has it while a sample's
        # index serves searches meanwhile (IndexPreview), else None.
        self._progress: tuple[int, int, str] = (0, 1, "")
        self._building: tuple[int, int, str] | None = None
        # A lean index of every paper serves (index.store.lean): the full build completes it.
        self._lean = False
        # Source files being read again (LibraryUpdating): the results are from before them.
        self._updating: tuple[str, ...] = ()
        # Attached PDFs read in the background (FulltextProgress): (done, total), or None.
        self._reading_pdfs: tuple[int, int, bool] | None = None
        # A first start's records as read, shown and searched till the index is (first_rows).
        self._records: ReadRecords | None = None
        self._keep_cursor = False  # the next result replaces the records' rows: cursor stays

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
        if (self._app.engine is not None and self._building is None) or self._lean:
            return  # the full index is open already, or a lean one of every paper
        assert isinstance(message.records, ReadRecords)
        self._keep_cursor = self._records is not None  # the merged library's, next
        self._records = message.records
        self._app.papers.records = message.records.paper  # the detail pane shows them
        if self._building is None:
            self._building = self._progress
        self.start_search()

    @on(IndexPreview)
    def _index_preview(self, message: IndexPreview) -> None:
        """A sample of the library is searchable while the full index is built, or a lean
        index of all of it: that one answers every request, the records as read retire
        (the detail pane then shows the library's papers, which the lean engine holds)."""
        self._building = self._progress
        self._keep_cursor = self._records is not None
        if getattr(message.engine, "lean", False):
            self._lean = True
            self._records = self._app.papers.records = None
            done, total, step = self._progress
            if index_writing(done, total) or step:  # the lean build's end: the full one's start
                self._building = (0, total, "")
        self.start_search()

    @on(IndexReady)
    def _index_ready(self) -> None:
        self._building = None
        self._lean = False
        self._keep_cursor = self._records is not None
        self._records = self._app.papers.records = None
        self.start_search()

    @on(IndexFailed)
    def _index_failed(self, message: IndexFailed) -> None:
        self._building = None  # a sample served meanwhile is gone with the build
        self._lean = False
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

    def _show_status(self, result: SearchResult) -> None:
        """The status line for `result`, led by the build's progress while a sample serves."""
        fix, timings = self._app.key_for("accept_correction"), self._app.show_timings
        unknown = unknown_facet_values(result.request.query, self._app.taxonomy)
        marked = self.marked_only
        building = ""
        if self._building is not None and self._lean:  # every paper: no "so far"
            building = completing_stage(*self._building[:2]) + " · "
        elif self._building is not None:
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
