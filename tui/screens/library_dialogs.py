"""Small dialogs for the user's layer: tags, naming a saved search, managing saved searches.

Each is a `ModalScreen` dismissed with a plain value (the text typed, a chosen action), so
the screen that opened it does the work and the dialogs stay easy to test. Styles are in
`DEFAULT_CSS` here, theme variables only, so `app.tcss` needs no edit.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

__all__ = ["SavedSearchesDialog", "TagSuggester", "TextDialog"]

_CSS = """
TextDialog, SavedSearchesDialog { align: center middle; }
.library-dialog {
    width: 70; max-width: 95%; height: auto; max-height: 80%;
    border: round $accent; background: $surface; padding: 0 1;
}
.library-dialog Static.help { color: $text-muted; }
"""


class TagSuggester(Suggester):
    """Completes the word being typed (after `+` or `-`) from the tags already in use."""

    def __init__(self, tags: Sequence[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self._tags = list(tags)

    async def get_suggestion(self, value: str) -> str | None:
        head, _, word = value.rpartition(" ")
        sign = word[:1] if word[:1] in "+-" else ""
        typed = word[len(sign) :].lower()
        if not typed:
            return None
        for tag in self._tags:
            if tag.startswith(typed) and tag != typed:
                return f"{head} {sign}{tag}".lstrip() if head else f"{sign}{tag}"
        return None


class TextDialog(ModalScreen[str | None]):
    """One line of text: enter dismisses with it, esc with None."""

    DEFAULT_CSS = _CSS
    BINDINGS = [
        Binding(
            "escape",
            "cancel",
            "Cancel",
            id="library_dialog.cancel",
            tooltip="Close without changing anything",
        )
    ]

    def __init__(
        self, title: str, help_text: str, value: str = "", suggester: Suggester | None = None
    ) -> None:
        super().__init__()
        self._title = title
        self._help = help_text
        self._value = value
        self._suggester = suggester

    def compose(self) -> ComposeResult:
        with Vertical(classes="library-dialog") as box:
            box.border_title = self._title
            yield Static(Text(self._help), classes="help")
            yield Input(self._value, suggester=self._suggester, id="library-dialog-input")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        """Enter: done, with what was typed."""
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Esc: close, changing nothing."""
        self.dismiss(None)


class SavedSearchesDialog(ModalScreen[tuple[str, str] | None]):
    """The saved searches with their counts: enter recalls, `r` renames, `d` deletes.

    Dismissed with (action, name): ("recall" | "rename" | "delete", name), or None.
    """

    DEFAULT_CSS = _CSS
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="saved_dialog.cancel", tooltip="Close"),
        Binding(
            "r",
            "act('rename')",
            "Rename",
            id="saved_dialog.rename",
            tooltip="Rename the highlighted saved search",
        ),
        Binding(
            "d",
            "act('delete')",
            "Delete",
            id="saved_dialog.delete",
            tooltip="Delete the highlighted saved search",
        ),
    ]

    def __init__(self, rows: Sequence[tuple[str, int | None]]) -> None:
        super().__init__()
        self._rows = list(rows)

    def compose(self) -> ComposeResult:
        with Vertical(classes="library-dialog") as box:
            box.border_title = "Saved searches"
            yield Static(Text("enter: recall · r: rename · d: delete · esc: close"), classes="help")
            options = []
            for number, (name, count) in enumerate(self._rows, 1):
                label = Text(f"{number if number <= 9 else ' '}  ")
                label.append(name)  # literal: a name is the user's text
                label.append(f"  {count if count is not None else '…'}", style="dim")
                options.append(Option(label, id=name))
            yield OptionList(*options, id="saved-dialog-list")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _highlighted(self) -> str | None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return None
        return options.get_option_at_index(options.highlighted).id

    @on(OptionList.OptionSelected)
    def _recall(self, event: OptionList.OptionSelected) -> None:
        """Enter: recall the search."""
        event.stop()
        if event.option.id is not None:
            self.dismiss(("recall", event.option.id))

    def action_act(self, action: str) -> None:
        """Rename or delete the highlighted search (the opener asks for the new name)."""
        name = self._highlighted()
        if name is not None:
            self.dismiss((action, name))

    def action_cancel(self) -> None:
        """Esc: close."""
        self.dismiss(None)
