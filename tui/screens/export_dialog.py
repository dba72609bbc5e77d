"""Where to write the marked papers' bibliography, and in which format: checked before writing.

A researcher exports into the LaTeX project they are working on, so the dialog asks for a
path (the folder paperscope was started in, or the last export's path, to begin with)
rather than writing somewhere in paperscope's own folders. The format follows the file
name as `paperscope export -o` decides it (`index.citations.export`: `refs.bib` is BibTeX,
`.ris` RIS, `.json` CSL-JSON, `.yml`/`.yaml` Hayagriva; any other name the current citation
style, a key format writing the papers' keys), the dialog says which, and ctrl+t picks the
next format without typing into the path (the path's extension follows). Problems are said inside
the dialog and it stays open: a folder named as the file; a missing folder, created
after a second enter; an existing file, replaced only after a second enter.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from index.citations import STYLES
from index.citations.export import FILE_FORMATS, export_label, extension_for, format_for_path
from tui.widgets.ordered_input import OrderedInput
from tui.widgets.render import literal
from tui.widgets.steady_footer import SteadyFooter

__all__ = ["CYCLE", "ExportDialog", "MissingFolder", "export_target"]

# The formats ctrl+t steps through: the file formats first, then every citation style (a key
# format writes the papers' keys). The user's current style, if it is their own, is added.
CYCLE = (*FILE_FORMATS, *(s for s in STYLES if s not in FILE_FORMATS))


class MissingFolder(str):
    """`export_target`'s answer for a folder that does not exist yet (it can be created)."""


def export_target(typed: str, extension: str, cwd: Path) -> Path | str:
    """The file that `typed` names, or why it cannot be written (one line).

    Relative paths are from `cwd`; `~` is the home folder; a folder (or a path ending in
    `/`) gets `marked.<extension>` inside it; a name without a suffix gets `.<extension>`.
    A missing folder is a `MissingFolder` message (the dialog offers to create it).
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
    if path.parent.exists() and not path.parent.is_dir():
        return f"{path.parent} is a file, not a folder"
    if not path.parent.is_dir():
        return MissingFolder(f"No such folder: {path.parent}")
    if path.is_dir():
        return f"{path} is a folder"
    return path


class ExportDialog(ModalScreen["tuple[Path, str] | None"]):
    """Asks for the file to export to; dismissed with (checked path, format), or None.

    Args:
        count: how many papers will be written (the title says it).
        style: the current citation style, what a name with no known extension gets.
        default: the path to start with.
        cwd: what a relative path is relative to.
        formats: what ctrl+t steps through, resolved as the app resolves styles
            (`latex:citep` for `latex`, the user's own styles); `CYCLE` by default.
    """

    BINDINGS = [
        Binding(
            "ctrl+t",
            "next_format",
            "Format",
            id="export.format",
            tooltip="Write another format (the file's extension follows)",
        ),
        Binding(
            "escape",
            "cancel",
            "Cancel",
            id="export.cancel",
            tooltip="Close without writing anything",
        ),
    ]

    def __init__(
        self,
        count: int,
        style: str,
        default: Path,
        cwd: Path,
        formats: Sequence[str] = CYCLE,
    ) -> None:
        super().__init__()
        self._count = count
        self._style = style
        self._default = default
        self._cwd = cwd
        self._formats = tuple(formats) or CYCLE
        self._confirmed: Path | None = None  # an existing file the user said to replace
        self._create: Path | None = None  # a missing folder the user was told about

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog") as box:
            papers = "paper" if self._count == 1 else "papers"
            box.border_title = f"Export {self._count} marked {papers}"
            yield Static(id="export-format")
            yield OrderedInput(str(self._default), id="export-path")
            yield Static(id="export-message")
            yield Static(
                Text(
                    "The format follows the file name (.bib .ris .json .yml); "
                    "ctrl+t picks another. Enter writes, esc cancels.",
                    "dim",
                ),
                id="export-help",
            )
        yield SteadyFooter()

    def on_mount(self) -> None:
        path_input = self.query_one(Input)
        path_input.focus()
        path_input.cursor_position = len(path_input.value)
        self._show_format()

    @property
    def format(self) -> str:
        """The format the current path would be written in."""
        return format_for_path(self.query_one(Input).value.strip() or "x", self._style)

    def _show_format(self) -> None:
        line = Text.assemble("Format: ", (export_label(self.format), "bold"))
        self.query_one("#export-format", Static).update(line)

    def _say(self, message: str) -> None:
        self.query_one("#export-message", Static).update(literal(message))

    @on(Input.Changed)
    def _typed(self) -> None:
        self._confirmed = self._create = None
        self._say("")
        self._show_format()

    def action_next_format(self) -> None:
        """The next format; the path's extension changes to match (a text style: .txt)."""
        path_input = self.query_one(Input)
        current = self.format
        index = self._formats.index(current) if current in self._formats else -1
        fmt = self._formats[(index + 1) % len(self._formats)]
        self._style = fmt
        extension = extension_for(fmt)
        path = Path(path_input.value.strip() or f"marked.{extension}")
        path_input.value = str(path.with_suffix(f".{extension}"))
        path_input.cursor_position = len(path_input.value)
        self._show_format()  # the value may not change (.bib for BibTeX and BibLaTeX)

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        extension = extension_for(self.format)
        target = export_target(event.value, extension, self._cwd)
        if isinstance(target, MissingFolder):
            folder = Path(str(target).split(": ", 1)[1])
            if self._create != folder:
                self._create = folder
                self._say(f"{target}: enter again creates it.")
                return
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                self._say(f"Could not create {folder}: {error.strerror or error}")
                return
            target = export_target(event.value, extension, self._cwd)
        if isinstance(target, str):
            self._say(target)
            return
        if target.exists() and target != self._confirmed:
            self._confirmed = target
            self._say(f"{target.name} exists: enter again replaces it.")
            return
        self.dismiss((target, format_for_path(target, self._style)))

    def action_cancel(self) -> None:
        self.dismiss(None)
