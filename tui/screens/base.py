"""What every paper-showing screen shares: the paper actions, detail loading, worker errors."""

from __future__ import annotations

from textual import events, work
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, get_current_worker

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
    def load_detail(self, paper_id: str, terms: tuple[str, ...]) -> None:
        """Build the detail (similar papers, citation) off the UI thread; stale ones are dropped."""
        detail = self._app.papers.detail(paper_id, terms, self._app.style)
        if not get_current_worker().is_cancelled:
            self._app.call_from_thread(self.show_detail, detail)

    def show_detail(self, detail: PaperDetail | None) -> None:
        """Put a finished detail on screen; screens override."""

    def reload_detail(self) -> None:
        """Rebuild the paper on show (after a style change, its citation preview is stale)."""
        for pane in self.query(DetailPane):
            if pane.detail is not None:
                self.load_detail(pane.detail.paper.id, pane.detail.terms)
