"""The full-screen detail view: what enter opens, in every layout.

The pane takes the focus, so the reading keys (`j/k`, `space/b`, `g/G`) scroll the
abstract at once; tab reaches the linked and similar papers, and opening one is a step
("similar to X") that esc undoes before it leaves for the results.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding

from index.models import Paper
from tui.messages import PaperChosen
from tui.screens.base import PaperScreen
from tui.screens.layer_actions import LAYER_BINDINGS, PaperLayerActions
from tui.screens.paper_actions import PAPER_BINDINGS
from tui.services.papers import PaperDetail
from tui.widgets.detail_pane import DetailPane
from tui.widgets.steady_footer import SteadyFooter

__all__ = ["DetailScreen"]


class DetailScreen(PaperLayerActions, PaperScreen):
    """One paper, full screen; linked and similar papers open in place, esc goes back.

    The keys of the user's layer (`t` tags, `R` status, `n` note, `O` file) work here
    too: reading a paper is when one tags it or marks it read.
    """

    BINDINGS = [
        *PAPER_BINDINGS,
        *LAYER_BINDINGS,
        Binding(
            "escape",
            "back",
            "Back",
            id="detail.back",
            tooltip="Back to the paper this one was opened from, else to the results",
        ),
    ]

    def __init__(self, paper_id: str, terms: tuple[str, ...]) -> None:
        super().__init__(id="detail-screen")
        self._paper_id = paper_id
        self._terms = terms

    def compose(self) -> ComposeResult:
        yield DetailPane(id="detail", count_marks=True)
        yield SteadyFooter()

    def on_mount(self) -> None:
        pane = self.query_one(DetailPane)
        pane.set_marks(self._app.marks)
        pane.focus()
        self.load_detail(self._paper_id, self._terms)

    @property
    def current_paper(self) -> Paper | None:
        """The paper on show: what `c`, `m`, `o` and the style preview act on."""
        detail = self.query_one(DetailPane).detail
        return detail.paper if detail else None

    def show_detail(self, detail: PaperDetail | None) -> None:
        pane = self.query_one(DetailPane)
        pane.show_detail(detail, self._app.papers.label)
        pane.focus()

    @on(PaperChosen)
    def open_paper(self, message: PaperChosen) -> None:
        """A linked or similar paper replaces this one (the pane remembers the step)."""
        self.load_detail(message.paper_id, self._terms)

    def refresh_marks(self) -> None:
        """Show the new mark here; the results redraw theirs when this screen closes."""
        self.query_one(DetailPane).set_marks(self._app.marks)

    def action_back(self) -> None:
        """Back along the steps taken from this paper, then to the results."""
        if not self.query_one(DetailPane).step_back(self._app.papers.label):
            self.dismiss()
