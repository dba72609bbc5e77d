"""Small modal screens: the help, the citation style picker and the copy fallback."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static, TextArea
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from index.text_safety import for_terminal
from tui.widgets.key_list import KeyList
from tui.widgets.render import Body, literal
from tui.widgets.steady_footer import SteadyFooter

__all__ = [
    "MOVING_AROUND",
    "QUERY_SYNTAX",
    "ConfirmDialog",
    "CopyFallback",
    "HelpScreen",
    "StylePicker",
]

# The query language, as (what to type, what it finds): shown as a grid, so a description
# wraps under itself in a narrow terminal instead of under the examples.
QUERY_SYNTAX = (
    (
        "words",
        "papers with every word (title, authors, abstract, venue, ...); the last "
        "word matches as a prefix while you type",
    ),
    ('"a phrase"', "the words side by side (its last word a prefix until closed)"),
    ("micro*   sheduling~", "a prefix; a misspelled (fuzzy) word"),
    ("a OR b   -word   ( )", "either word; leave out a word; grouping"),
    ("title:x  author:x", "search one field"),
    (
        "topic:x  hw:x",
        "filter by a topic or hardware id (hw:gpu includes its children), the "
        "same as selecting the value in the filter panel",
    ),
    ("year:2023", "a year; year:2020..2024 a range"),
    ("olshausen 1996", "a bare year also finds the papers of that year"),
)

MOVING_AROUND = (
    "paperscope starts on the results: every single key below works at once. Press / to "
    "type a search (every keystroke searches); enter or down goes back to the results.",
    "Enter opens the paper full screen; j/k, space/b and g/G read it, tab reaches its "
    "similar papers. Tab moves between the panes; the footer shows the keys of the pane "
    "you are in.",
    "Esc steps back one level: from a similar paper to the paper it was opened from, from "
    "the detail or the filters to the results, from the results to the search bar; in "
    "the search bar it clears the text, and on an empty bar it goes back to the results.",
    'F1 opens this help anywhere ("?" too, except while typing in the search bar).',
)


def _two_columns(rows: Sequence[tuple[str, str]]) -> Table:
    """Keys or syntax beside what they do: a grid, so a long description wraps under
    itself and the first column stays clear."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True, min_width=12)
    grid.add_column(ratio=1)
    for shown, description in rows:
        grid.add_row(shown, Text(description))
    return grid


def _facet_ids(taxonomy: object) -> Table:
    """The ids `topic:` and `hw:` take, with their names, children under their parent."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(ratio=1)
    for prefix, facet in (("topic", "topics"), ("hw", "hardware")):
        for value in getattr(taxonomy, facet, ()):
            indent = "  " if value.parent else ""
            grid.add_row(literal(f"{indent}{prefix}:{value.id}"), literal(value.label))
    return grid


class HelpScreen(ModalScreen[None]):
    """Every key (as remapped by the user's keymap) by context, the query syntax, the facet ids."""

    BINDINGS = [
        Binding(
            "escape,q,question_mark,f1",
            "dismiss",
            "Close",
            id="help.close",
            tooltip="Close the help",
        ),
        Binding("j", "scroll('down')", "Scroll", show=False, id="help.down", tooltip="Scroll down"),
        Binding("k", "scroll('up')", "Scroll up", show=False, id="help.up", tooltip="Scroll up"),
        Binding(
            "space",
            "scroll('page_down')",
            "Page",
            show=False,
            id="help.page",
            tooltip="Scroll a page",
        ),
    ]

    def __init__(
        self, groups: Sequence[tuple[str, Sequence[tuple[str, str, str]]]], taxonomy: object = None
    ) -> None:
        """Args: groups: (context, rows of (keys, what it does, binding id)); taxonomy: for the ids."""
        super().__init__()
        self._groups = groups
        self._taxonomy = taxonomy

    def compose(self) -> ComposeResult:
        parts: list[RenderableType] = [
            Text("Moving around", "bold"),
            *(Padding(Text(paragraph), (0, 0, 0, 2)) for paragraph in MOVING_AROUND),
        ]
        for context, rows in self._groups:
            if not rows:
                continue
            keys = _two_columns([(shown, description) for shown, description, _ in rows])
            parts += [Text(f"\n{context}", "bold"), Padding(keys, (0, 0, 0, 2))]
        parts += [Text("\nQuery syntax", "bold"), Padding(_two_columns(QUERY_SYNTAX), (0, 0, 0, 2))]
        if self._taxonomy is not None:
            parts += [
                Text("Topic and hardware ids (for topic:x and hw:x)", "bold"),
                Padding(_facet_ids(self._taxonomy), (0, 0, 0, 2)),
            ]
        ids = [binding_id for _, rows in self._groups for _, _, binding_id in rows]
        parts += [
            Text(
                '\nRemap a key in the config file: [keymap] toggle_mark = "space"; the ids:', "dim"
            ),
            Padding(Text("  ".join(dict.fromkeys(ids)), "dim"), (0, 0, 0, 2)),
        ]
        with VerticalScroll(id="help-body") as scroll:
            scroll.border_title = "Help"
            yield Body(Group(*parts))
        yield SteadyFooter()

    def action_scroll(self, where: str) -> None:
        """Read the help by keys, as a paper is read."""
        body = self.query_one("#help-body", VerticalScroll)
        {"down": body.scroll_down, "up": body.scroll_up, "page_down": body.scroll_page_down}[where](
            animate=False
        )


class StylePicker(ModalScreen[str | None]):
    """Every citation style with a live preview of the current paper; enter keeps one."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="styles.cancel", tooltip="Keep the old style")
    ]
    # Under 29 rows the whole list would leave no room for the preview (80x24: none of it
    # showed); there the list is shorter and scrolls (app.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (29, "-tall")]

    def __init__(
        self,
        styles: Sequence[tuple[str, str]],
        current: str,
        preview: Callable[[str], str],
        about: str = "",
    ) -> None:
        """Args: styles: (style id, label); preview: style id -> the citation text;
        about: which paper the preview is of ("Preview: dynapipe · DynaPipe: ...")."""
        super().__init__()
        self._styles = styles
        self._current = current
        self._preview = preview
        self._about = about

    def compose(self) -> ComposeResult:
        with Vertical(id="style-picker") as box:
            box.border_title = "Citation style"
            yield KeyList(
                *(Option(literal(label, one_line=True), id=style) for style, label in self._styles),
                id="style-list",
            )
            yield Static(
                literal(self._about, "dim", one_line=True, no_wrap=True, overflow="ellipsis"),
                id="style-about",
            )
            yield Static(id="style-preview")
        yield SteadyFooter()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        ids = [style for style, _ in self._styles]
        options.highlighted = ids.index(self._current) if self._current in ids else 0
        options.focus()

    @on(OptionList.OptionHighlighted)
    def _preview_style(self, event: OptionList.OptionHighlighted) -> None:
        self._render_preview(event.option.id or "")

    @work(
        thread=True,
        exclusive=True,
        group="style-preview",
        exit_on_error=False,
        description="Previewing the style",
    )
    def _render_preview(self, style: str) -> None:
        """Off the UI thread: a style not seen yet asks the CSL engine (pandoc), ~50 ms."""
        try:
            text = self._preview(style)
        except Exception as error:  # a broken style must not break the picker
            text = f"(cannot preview: {error})"
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_preview, text)

    def _show_preview(self, text: str) -> None:
        if self.is_attached:
            self.query_one("#style-preview", Static).update(literal(text))

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
        yield SteadyFooter()

    @on(Button.Pressed, "#copy-close")
    def _close(self) -> None:
        self.dismiss()


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question (clearing every mark); y or enter says yes, n or esc says no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm.yes", tooltip="Do it"),
        Binding(
            "n,escape", "answer(False)", "No", id="confirm.no", tooltip="Leave things as they are"
        ),
    ]

    def __init__(self, title: str, question: str) -> None:
        super().__init__()
        self._title = title
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog") as box:
            box.border_title = literal(self._title, one_line=True)
            yield Static(literal(self._question), id="confirm-question")
            yield Static(Text("y: yes   n or esc: no", "dim"))
        yield SteadyFooter()

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
