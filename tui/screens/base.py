"""What every paper-showing screen shares: the paper actions, detail loading, worker errors."""

from __future__ import annotations

from textual import events, work
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, get_current_worker

from index.models import PageMatch
from tui.screens.paper_actions import PaperActions
from tui.services.papers import PaperDetail
from tui.widgets.detail_pane import DetailPane

__all__ = ["PaperScreen"]


class PaperScreen(PaperActions, Screen[None]):
    """A screen with paper actions, a detail loader and the app's one worker-error handler."""

    def on_resize(self, event: events.Resize) -> None:
        """A compact footer below 110 columns, so every shown key still fits at 80."""
        for footer in self.query(Footer):
            footer.compact = event.size.width < 110

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Worker state messages stop at the screen that ran the worker: hand errors up."""
        self._app.report_worker_state(event.worker)

    @work(
        thread=True,
        exclusive=True,
        group="detail",
        exit_on_error=False,
        description="Loading the paper's details",
    )
    def load_detail(
        self, paper_id: str, terms: tuple[str, ...], page_match: PageMatch | None = None
    ) -> None:
        """Build the detail (similar papers, citation) off the UI thread; stale ones are
        dropped. `page_match`: where the hit matched in its attachments' text."""
        if page_match is None:
            page_match = self.page_match_of(paper_id)
        detail = self._app.papers.detail(paper_id, terms, self._app.style, page_match)
        if not get_current_worker().is_cancelled:
            self._app.call_from_thread(self.show_detail, detail)

    def show_detail(self, detail: PaperDetail | None) -> None:
        """Put a finished detail on screen; screens override."""

    def page_match_of(self, paper_id: str) -> PageMatch | None:
        """Where the search found this paper in its attachments' text; screens that show
        results override."""
        return None

    def reload_detail(self) -> None:
        """Rebuild the paper on show (after a style change, its citation preview is stale)."""
        for pane in self.query(DetailPane):
            if pane.detail is not None:
                detail = pane.detail
                self.load_detail(detail.paper.id, detail.terms, detail.page_match)
