"""The full-screen detail view, used when the terminal is too narrow for a side pane."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer

from index.models import Paper
from tui.messages import PaperChosen
from tui.screens.base import PaperScreen
from tui.screens.paper_actions import PAPER_BINDINGS
from tui.widgets.detail_pane import DetailPane, PaperDetail

__all__ = ["DetailScreen"]


class DetailScreen(PaperScreen):
    """One paper, full screen; linked and similar papers open in place, esc goes back."""

    BINDINGS = [
        *PAPER_BINDINGS,
        Binding("escape", "back", "Back", id="detail.back", tooltip="Back to the results"),
    ]

    def __init__(self, paper_id: str, terms: tuple[str, ...]) -> None:
        super().__init__(id="detail-screen")
        self._paper_id = paper_id
        self._terms = terms

    def compose(self) -> ComposeResult:
        yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DetailPane).set_marks(self._app.marks)
        self.load_detail(self._paper_id, self._terms)

    @property
    def current_paper(self) -> Paper | None:
        detail = self.query_one(DetailPane).detail
        return detail.paper if detail else None

    def show_detail(self, detail: PaperDetail | None) -> None:
        self.query_one(DetailPane).show_detail(detail, self._app.papers.label)
        self.query_one("#detail-similar").focus()

    @on(PaperChosen)
    def open_paper(self, message: PaperChosen) -> None:
        """A linked or similar paper replaces this one."""
        self.load_detail(message.paper_id, self._terms)

    def refresh_marks(self) -> None:
        """Show the new mark here and in the results waiting underneath."""
        self.query_one(DetailPane).set_marks(self._app.marks)
        self._app.main_screen.refresh_marks()

    def action_back(self) -> None:
        """Back to the results."""
        self.dismiss()
