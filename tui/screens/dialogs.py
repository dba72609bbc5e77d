"""Small modal screens: the help, the citation style picker and the copy fallback."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from index.text_safety import for_terminal
from tui.widgets.render import Body

__all__ = ["HelpScreen", "StylePicker", "CopyFallback", "QUERY_SYNTAX", "MOVING_AROUND"]

QUERY_SYNTAX = """\
Query syntax
  words                 papers with every word (title, authors, abstract, venue, ...);
                        the last word matches as a prefix while you type
  "a phrase"            the words side by side (its last word a prefix until closed)
  micro*   sheduling~   a prefix; a misspelled (fuzzy) word
  a OR b   -word   ( )  either word; leave out a word; grouping
  title:x  author:x     search one field
  topic:x  hw:x         filter by a topic or hardware id (hw:gpu includes its children),
                        the same as selecting the value in the filter panel
  year:2023  year:2020..2024
"""

MOVING_AROUND = (
    "Type to search; enter or down moves to the results, tab moves between the panes.",
    "Esc steps back one level: from the detail or the filters to the results, from the "
    "results to the search bar; in the search bar it clears the text, and on an empty bar "
    "it goes back to the results. In the full-screen detail, esc returns to the list.",
    'F1 opens this help anywhere ("?" too, except in the search bar, where it is text).',
)


class HelpScreen(ModalScreen[None]):
    """Every key (as remapped by the user's keymap) and the query syntax."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close",
                        tooltip="Close the help")]

    def __init__(self, rows: Sequence[tuple[str, str, str]]) -> None:
        """Args: rows: (keys, what it does, binding id) for every binding."""
        super().__init__()
        self._rows = rows

    def compose(self) -> ComposeResult:
        # A grid, so a long description wraps under itself and the key column stays clear.
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column(ratio=1)
        for shown, description, binding_id in self._rows:
            keys.add_row(shown, Text.assemble(description, (f"  [{binding_id}]", "dim")))
        body = Group(
            Text("Moving around", "bold"),
            *(Padding(Text(paragraph), (0, 0, 0, 2)) for paragraph in MOVING_AROUND),
            Text("\nKeys", "bold"),
            Padding(keys, (0, 0, 0, 2)),
            Text("\n" + QUERY_SYNTAX),
            Text('Remap a key in the config file: [keymap] toggle_mark = "space"', "dim"),
        )
        with VerticalScroll(id="help-body") as scroll:
            scroll.border_title = "Help"
            yield Body(body)


class StylePicker(ModalScreen[str | None]):
    """Every citation style with a live preview of the current paper; enter keeps one."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="styles.cancel", tooltip="Keep the old style")]

    def __init__(
        self, styles: Sequence[tuple[str, str]], current: str, preview: Callable[[str], str]
    ) -> None:
        """Args: styles: (style id, label); preview: style id -> the citation text."""
        super().__init__()
        self._styles = styles
        self._current = current
        self._preview = preview

    def compose(self) -> ComposeResult:
        with Vertical(id="style-picker") as box:
            box.border_title = "Citation style"
            yield OptionList(*(Option(Text(label), id=style) for style, label in self._styles),
                             id="style-list")
            yield Static(id="style-preview")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        ids = [style for style, _ in self._styles]
        options.highlighted = ids.index(self._current) if self._current in ids else 0
        options.focus()

    @on(OptionList.OptionHighlighted)
    def _preview_style(self, event: OptionList.OptionHighlighted) -> None:
        try:
            text = self._preview(event.option.id or "")
        except Exception as error:  # a broken style must not break the picker
            text = f"(cannot preview: {error})"
        self.query_one("#style-preview", Static).update(Text(text))

    @on(OptionList.OptionSelected)
    def _choose(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CopyFallback(ModalScreen[None]):
    """No clipboard worked: show the text to select by hand and where it was saved."""

    BINDINGS = [Binding("escape", "dismiss", "Close", id="copy.close", tooltip="Close")]

    def __init__(self, text: str, message: str) -> None:
        super().__init__()
        self._text = text
        self._message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="copy-fallback") as box:
            box.border_title = "Could not copy"
            yield Static(Text(for_terminal(self._message)), id="copy-message")
            yield TextArea(for_terminal(self._text), read_only=True, id="copy-text")
            yield Button("Close", id="copy-close")

    @on(Button.Pressed, "#copy-close")
    def _close(self) -> None:
        self.dismiss()