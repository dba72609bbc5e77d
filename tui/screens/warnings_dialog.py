"""The problems found while loading the user's files, in a dialog to scroll through.

The app says how many there are when it starts; this lists them, one `file:line:
problem` line each, as plain text: a file name or a title in a problem is never markup,
and its control and invisible characters are neutralised (index.text_safety) — a file named
with `ESC ] 0 ;` retitled the terminal from this dialog.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from index.text_safety import for_terminal
from tui.services.load_warnings import count_line
from tui.widgets.steady_footer import SteadyFooter

__all__ = ["LoadWarningsDialog"]


class LoadWarningsDialog(ModalScreen[None]):
    """Every load warning; esc or q closes it."""

    BINDINGS = [
        Binding(
            "escape,q",
            "dismiss",
            "Close",
            id="warnings.close",
            tooltip="Close the list of problems",
        )
    ]
    DEFAULT_CSS = """
    LoadWarningsDialog { align: center middle; }
    LoadWarningsDialog > #warnings-body {
        width: 90%; height: auto; max-height: 80%; border: round $warning; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, lines: Sequence[str]) -> None:
        """Args: lines: one problem each, as `file:line: problem`."""
        super().__init__()
        self._lines = [for_terminal(line, one_line=True) for line in lines]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="warnings-body") as scroll:
            scroll.border_title = count_line(len(self._lines)) if self._lines else "No problems"
            text = Text(
                "\n".join(self._lines) if self._lines else "Every file loaded without a problem.",
                no_wrap=False,
            )
            yield Static(text, id="warnings-text")
        yield SteadyFooter()  # its own keys (esc, q), not the results' under it
