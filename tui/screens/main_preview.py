"""The main screen's detail pane: it previews the highlighted paper, beside the results.

On a wide terminal the pane follows the cursor (its first paper once the first page is
drawn, `_preview`); tab reaches it, to read there or step to a similar paper. Enter
opens a paper full screen in every layout. A layer of `MainScreen`.
"""

from __future__ import annotations

from textual import events, on
from textual.widget import Widget

from index.models import PageMatch, Paper
from tui.messages import HitHighlighted, PaperChosen
from tui.screens.searching import SearchingScreen
from tui.services.papers import PaperDetail
from tui.widgets.detail_pane import DetailPane
from tui.widgets.results_list import ResultsList

__all__ = ["DetailPreview"]


class DetailPreview(SearchingScreen):
    """The side pane beside the results, and opening a paper, for `MainScreen`."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        # The paper the pane shows first, once the first page is drawn (`_preview`).
        self._first_detail: str | None = None
        self._first_detail_loading: str | None = None  # asked for, the pane still empty

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
