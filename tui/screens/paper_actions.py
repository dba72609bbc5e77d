"""What the user can do with papers wherever they are shown: copy, mark, export, open.

The main screen and the full-screen detail view both offer these keys, so they live in
one mixin; each screen only says which paper is "current" (`current_paper`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.binding import Binding

from index.atomic import write_text_atomic
from index.citations import style_label
from index.models import Paper
from tui.widgets.detail_pane import paper_links

if TYPE_CHECKING:
    from tui.host import Host

__all__ = ["PaperActions", "PAPER_BINDINGS"]

PAPER_BINDINGS = [
    Binding("c", "copy_citation", "Copy", id="copy_citation",
            tooltip="Copy the paper's citation in the current style"),
    Binding("m", "toggle_mark", "Mark", id="toggle_mark",
            tooltip="Mark or unmark the paper for a bibliography"),
    Binding("b", "copy_bibliography", "Copy marked", id="copy_bibliography",
            tooltip="Copy every marked paper as one bibliography"),
    Binding("e", "export_bibliography", "Export marked", show=False, id="export_bibliography",
            tooltip="Write every marked paper as one bibliography to a file"),
    Binding("o", "open_link", "Open link", show=False, id="open_link",
            tooltip="Open the paper's DOI, arXiv or URL in a browser"),
]


class PaperActions:
    """Paper actions for a screen that has a `current_paper`."""

    @property
    def current_paper(self) -> Paper | None:  # pragma: no cover - overridden by screens
        return None

    @property
    def _app(self) -> Host:
        return cast("Host", self.app)  # type: ignore[attr-defined]

    def refresh_marks(self) -> None:
        """Redraw whatever shows marks; screens override."""

    def action_copy_citation(self) -> None:
        """Copy the current paper's citation in the current style."""
        paper = self.current_paper
        if paper is None:
            self._app.notify("No paper to copy: search, then highlight one.", severity="warning")
            return
        self._app.copy_papers([paper], f"citation of {paper.id}")

    def action_toggle_mark(self) -> None:
        """Mark the current paper (or unmark it); marks are saved at once."""
        paper = self.current_paper
        if paper is None:
            return
        marked = self._app.marks.toggle(paper.id)
        count = len(self._app.marks)
        self._app.notify(f"{'Marked' if marked else 'Unmarked'} {paper.id} ({count} marked)")
        self.refresh_marks()

    def action_clear_marks(self) -> None:
        """Unmark every paper, after asking (marks are a reading list built over time)."""
        from tui.screens.dialogs import ConfirmDialog

        count = len(self._app.marks)
        if not count:
            self._app.notify("No marked papers.", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._app.marks.clear()
                self.refresh_marks()
                self._app.notify(f"Cleared {count} marks")

        papers = "paper" if count == 1 else "papers"
        self._app.push_screen(ConfirmDialog("Clear marks", f"Unmark {count} marked {papers}?"), answered)

    def _marked_papers(self) -> list[Paper]:
        return self._app.papers.by_id(self._app.marks.ids)

    def action_copy_bibliography(self) -> None:
        """Copy every marked paper, in the order marked, as one bibliography."""
        papers = self._marked_papers()
        if not papers:
            self._app.notify("No marked papers: press m on a paper to mark it.", severity="warning")
            return
        self._app.copy_papers(papers, f"bibliography of {len(papers)} marked papers")

    def action_export_bibliography(self) -> None:
        """Ask where (and so in which format), then write the marked papers there (atomically)."""
        from tui.screens.export_dialog import EXTENSIONS, ExportDialog

        papers = self._marked_papers()
        if not papers:
            self._app.notify("No marked papers: press m on a paper to mark it.", severity="warning")
            return
        style = self._app.style
        extension = EXTENSIONS.get(style, "txt")
        last = self._app.last_export
        default = last if last else Path.cwd() / f"marked.{extension}"

        def chosen(answer: tuple[Path, str] | None) -> None:
            if answer is not None:
                target, fmt = answer
                self._app.last_export = target
                self._export(papers, fmt, target)

        self._app.push_screen(ExportDialog(len(papers), style, default, Path.cwd()), chosen)

    @work(thread=True, group="copy", exit_on_error=False, description="Exporting the bibliography")
    def _export(self, papers: list[Paper], style: str, path: Path) -> None:
        text = self._app.papers.format(papers, style)
        try:
            write_text_atomic(path, text if text.endswith("\n") else text + "\n")
        except OSError as error:
            reason = error.strerror or str(error)
            self._app.call_from_thread(self._app.notify, f"Could not write {path}: {reason}",
                                       title="Export", severity="error", markup=False)
            return
        self._app.call_from_thread(
            self._app.notify, f"Exported {len(papers)} papers ({style_label(style)}) to {path}",
            title="Exported", markup=False,
        )

    def action_open_link(self) -> None:
        """Open the paper's best link (DOI, then arXiv, then URL) in the browser."""
        paper = self.current_paper
        links = paper_links(paper) if paper else []
        if not links:
            self._app.notify("This paper has no DOI, arXiv id or URL.", severity="warning")
            return
        self._app.open_url(links[0])
        self._app.notify(f"Opening {links[0]}")
