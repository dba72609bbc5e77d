"""Small dialogs for the user's layer: tags, reading status, saved searches (naming, managing).

Each is a `ModalScreen` dismissed with a plain value (the text typed, a chosen action), so
the screen that opened it does the work and the dialogs stay easy to test. Styles are in
`DEFAULT_CSS` here, theme variables only, so `app.tcss` needs no edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.key_list import KeyList
from tui.widgets.ordered_input import OrderedInput
from tui.widgets.render import clean, literal
from tui.widgets.steady_footer import SteadyFooter

__all__ = ["CLEAR", "SavedSearchesDialog", "StatusPicker", "TagSuggester", "TextDialog"]

CLEAR = "clear"  # what `StatusPicker` returns for "no status"

_CSS = """
TextDialog, SavedSearchesDialog, StatusPicker { align: center middle; }
.library-dialog {
    width: 70; max-width: 95%; height: auto; max-height: 80%;
    border: round $accent; background: $surface; padding: 0 1;
}
.library-dialog Static.help { color: $text-muted; }
.library-dialog OptionList { border: none; padding: 0; height: auto; max-height: 20; }
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
            box.border_title = literal(self._title, one_line=True)
            yield Static(literal(self._help), classes="help")
            # A name with an escape sequence is offered in its visible form (ESC as ␛).
            yield OrderedInput(
                clean(self._value, one_line=True),
                suggester=self._suggester,
                id="library-dialog-input",
            )
        yield SteadyFooter()  # the dialog's own keys, not those of the screen under it

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
                label.append_text(literal(name, one_line=True))  # the user's text
                label.append(f"  {count if count is not None else '…'}", style="dim")
                options.append(Option(label, id=name))
            yield KeyList(*options, id="saved-dialog-list")
        yield SteadyFooter()

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


class StatusPicker(ModalScreen[str | None]):
    """The reading status to set: a key per status, or the cursor and enter; esc cancels.

    Dismissed with a status from `statuses`, `CLEAR` (forget the status: the paper counts
    as unread again) or None.
    """

    DEFAULT_CSS = _CSS
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="status_dialog.cancel", tooltip="Change nothing"),
        *(
            Binding(
                str(n),
                f"pick_number({n})",
                f"Status {n}",
                show=False,
                id=f"status_dialog.status_{n}",
                tooltip=f"Set status number {n}",
            )
            for n in range(1, 5)
        ),
        Binding(
            "c,0",
            "pick('clear')",
            "Clear",
            id="status_dialog.clear",
            tooltip="Forget the status (the paper counts as unread)",
        ),
    ]

    def __init__(self, statuses: Sequence[str], what: str, now: Mapping[str, int]) -> None:
        """Args:
        statuses: the statuses, in order (unread, to-read, reading, read).
        what: the papers it sets, for the title ("the paper", "3 marked papers").
        now: how many of them have each status now.
        """
        super().__init__()
        self._statuses = list(statuses)
        self._what = what
        self._now = dict(now)

    def compose(self) -> ComposeResult:
        now = ", ".join(
            f"{status} {count}" if len(self._now) > 1 else status
            for status, count in self._now.items()
        )
        with Vertical(classes="library-dialog", id="status-dialog") as box:
            box.border_title = literal(f"Reading status for {self._what}", one_line=True)
            yield Static(
                literal(f"Now: {now}. 1-4 or enter sets it, c clears it, esc cancels."),
                classes="help",
            )
            options = []
            for number, status in enumerate(self._statuses, 1):
                label = Text(f"{number}  {status}")
                if self._now.get(status):
                    label.append("  ● now", style="dim")
                options.append(Option(label, id=status))
            options.append(Option(Text("c  clear (no status: counts as unread)"), id=CLEAR))
            yield KeyList(*options, id="status-dialog-list")
        yield SteadyFooter()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        current = max(self._now, key=self._now.__getitem__) if self._now else None
        if current in self._statuses:
            options.highlighted = self._statuses.index(current)
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter: the highlighted status."""
        event.stop()
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def action_pick_number(self, number: int) -> None:
        """A number key: the status listed with that number."""
        if 1 <= number <= len(self._statuses):
            self.dismiss(self._statuses[number - 1])

    def action_pick(self, status: str) -> None:
        """Set `status` (or `CLEAR`) without moving the cursor to it."""
        self.dismiss(status)

    def action_cancel(self) -> None:
        """Esc: close, changing nothing."""
        self.dismiss(None)
