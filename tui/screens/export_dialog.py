"""Where to write the marked papers' bibliography: a path, checked before anything is written.

A researcher exports into the LaTeX project they are working on, so the dialog asks for a
path (the folder paperscope was started in, or the last export's path, to begin with)
rather than writing somewhere in paperscope's own folders. Problems are said inside the
dialog and it stays open: a missing folder, a folder named as the file, and an existing
file, which is replaced only after a second enter.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

__all__ = ["ExportDialog", "export_target", "EXTENSIONS"]

# The file extension each citation style's text is saved with.
EXTENSIONS = {"bibtex": "bib", "biblatex": "bib", "csl-json": "json", "ris": "ris",
              "markdown": "md"}


def export_target(typed: str, extension: str, cwd: Path) -> Path | str:
    """The file that `typed` names, or why it cannot be written (one line).

    Relative paths are from `cwd`; `~` is the home folder; a folder (or a path ending in
    `/`) gets `marked.<extension>` inside it; a name without a suffix gets `.<extension>`.
    """
    text = typed.strip()
    if not text:
        return "Type the path of the file to write."
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = cwd / path
    if text.endswith(("/", "\\")) or path.is_dir():
        path = path / f"marked.{extension}"
    elif not path.suffix:
        path = path.with_suffix(f".{extension}")
    if not path.parent.is_dir():
        return f"No such folder: {path.parent}"
    if path.is_dir():
        return f"{path} is a folder"
    return path


class ExportDialog(ModalScreen[Path | None]):
    """Asks for the file to export to; dismissed with the checked path, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export.cancel",
                        tooltip="Close without writing anything")]

    def __init__(self, count: int, style_label: str, extension: str, default: Path,
                 cwd: Path, style_key: str = "s") -> None:
        super().__init__()
        self._style_key = style_key
        self._count = count
        self._style_label = style_label
        self._extension = extension
        self._default = default
        self._cwd = cwd
        self._confirmed: Path | None = None  # an existing file the user said to replace

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog") as box:
            papers = "paper" if self._count == 1 else "papers"
            box.border_title = f"Export {self._count} marked {papers}"
            yield Static(Text(f"As {self._style_label}, the citation style ({self._style_key} "
                              "changes it). Enter writes, esc cancels."), id="export-help")
            yield Input(str(self._default), id="export-path")
            yield Static(id="export-message")

    def on_mount(self) -> None:
        path_input = self.query_one(Input)
        path_input.focus()
        path_input.cursor_position = len(path_input.value)

    def _say(self, message: str) -> None:
        self.query_one("#export-message", Static).update(Text(message))

    @on(Input.Changed)
    def _typed(self) -> None:
        self._confirmed = None
        self._say("")

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        target = export_target(event.value, self._extension, self._cwd)
        if isinstance(target, str):
            self._say(target)
            return
        if target.exists() and target != self._confirmed:
            self._confirmed = target
            self._say(f"{target.name} exists: enter again replaces it.")
            return
        self.dismiss(target)

    def action_cancel(self) -> None:
        self.dismiss(None)
