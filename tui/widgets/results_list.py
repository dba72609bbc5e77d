"""The ranked results, drawn with the Line API so only the visible rows are rendered.

A widget per paper would make 100,000 matches unusable; here each hit is a fixed-height
row computed on demand in `render_line`, so the cost is the number of lines on screen.
"""

from __future__ import annotations

from collections.abc import Container

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from index.models import Hit, Paper
from tui.messages import HitHighlighted, MoreResultsWanted, PaperChosen
from tui.widgets.render import Labeler, clean, meta_line, snippet_text, split_edge_spaces

__all__ = ["ResultsList", "ROW_HEIGHT"]

ROW_HEIGHT = 4  # title, authors · year · venue, chips, snippet


class ResultsList(ScrollView, can_focus=True):
    """The hits of the current search, one row of `ROW_HEIGHT` lines each.

    State comes down through `show_hits` and `set_marks`; the cursor's moves go up as
    `HitHighlighted`, enter or a second click as `PaperChosen`.
    """

    BINDINGS = [
        Binding("down,j", "cursor_down", "Down", show=False, id="results.down", tooltip="Next paper"),
        Binding("up,k", "cursor_up", "Up", show=False, id="results.up", tooltip="Previous paper"),
        Binding("pagedown", "page_down", "Page down", show=False, id="results.page_down",
                tooltip="One screen of papers down"),
        Binding("pageup", "page_up", "Page up", show=False, id="results.page_up",
                tooltip="One screen of papers up"),
        Binding("home,g", "first", "First", show=False, id="results.first", tooltip="First paper"),
        Binding("end,G", "last", "Last", show=False, id="results.last", tooltip="Last loaded paper"),
        Binding("enter", "open", "Open", id="results.open", tooltip="Show every detail of the paper"),
    ]

    COMPONENT_CLASSES = {
        "results-list--title",
        "results-list--meta",
        "results-list--topic",
        "results-list--hardware",
        "results-list--snippet",
        "results-list--match",
        "results-list--cursor",
        "results-list--mark",
        "results-list--empty",
    }

    DEFAULT_CSS = """
    ResultsList { overflow-x: hidden; }
    """

    cursor: reactive[int] = reactive(0, always_update=True)

    def __init__(self, labeler: Labeler, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._labeler = labeler
        self._hits: tuple[Hit, ...] = ()
        self._marks: Container[str] = ()
        self._empty_message = ""
        self._strips: dict[tuple[int, int, int, bool], Strip] = {}

    @property
    def hits(self) -> tuple[Hit, ...]:
        return self._hits

    @property
    def highlighted(self) -> Paper | None:
        """The paper under the cursor, if any."""
        return self._hits[self.cursor].paper if 0 <= self.cursor < len(self._hits) else None

    def show_hits(self, hits: tuple[Hit, ...], *, empty_message: str = "", keep: bool = False) -> None:
        """Replace the rows; `keep` keeps the cursor on the same paper (more results loaded)."""
        current = self.highlighted
        self._hits = hits
        self._empty_message = empty_message
        self._strips.clear()
        self.virtual_size = Size(0, len(hits) * ROW_HEIGHT or 1)
        cursor = 0
        if keep and current is not None:
            cursor = next((i for i, hit in enumerate(hits) if hit.paper.id == current.id), 0)
        if not keep:
            self.scroll_to(y=0, animate=False)
        self.cursor = cursor
        self.refresh()

    def set_marks(self, marks: Container[str]) -> None:
        """Which paper ids carry a mark; redraws the marker column."""
        self._marks = marks
        self._strips.clear()
        self.refresh()

    def watch_cursor(self, cursor: int) -> None:
        self._strips.clear()
        if self._hits:
            self.scroll_to_region(
                Region(0, cursor * ROW_HEIGHT, 1, ROW_HEIGHT), animate=False, force=True
            )
            if cursor >= len(self._hits) - 1:
                self.post_message(MoreResultsWanted())
        self.refresh()
        self.post_message(HitHighlighted(self.highlighted))

    def _move(self, delta: int) -> None:
        if self._hits:
            self.cursor = max(0, min(len(self._hits) - 1, self.cursor + delta))

    def action_cursor_down(self) -> None:
        self._move(1)

    def action_cursor_up(self) -> None:
        self._move(-1)

    def action_page_down(self) -> None:
        self._move(max(1, self.size.height // ROW_HEIGHT))

    def action_page_up(self) -> None:
        self._move(-max(1, self.size.height // ROW_HEIGHT))

    def action_first(self) -> None:
        self._move(-len(self._hits))

    def action_last(self) -> None:
        self._move(len(self._hits))

    def action_open(self) -> None:
        """Ask the screen to open the highlighted paper."""
        if self.highlighted is not None:
            self.post_message(PaperChosen(self.highlighted.id))

    def on_click(self, event: events.Click) -> None:
        """A click highlights a row; a second click (or a double click) opens it."""
        index = (event.y + int(self.scroll_offset.y)) // ROW_HEIGHT
        if not 0 <= index < len(self._hits):
            return
        if index == self.cursor or event.chain > 1:
            self.cursor = index
            self.action_open()
        else:
            self.cursor = index

    def render_line(self, y: int) -> Strip:
        """One screen line: which row and which of its lines, rendered once and cached."""
        width = self.scrollable_content_region.width
        line_y = y + int(self.scroll_offset.y)
        base = self.rich_style
        if not self._hits:
            lines = self._empty_lines(width)
            if line_y < len(lines):
                return self._to_strip(lines[line_y], width, base)
            return Strip.blank(width, base)
        index, part = divmod(line_y, ROW_HEIGHT)
        if index >= len(self._hits):
            return Strip.blank(width, base)
        key = (index, part, width, index == self.cursor)
        if key not in self._strips:
            style = base
            if index == self.cursor:
                style = base + self.get_component_rich_style("results-list--cursor")
            self._strips[key] = self._to_strip(self._row_line(self._hits[index], part), width, style)
        return self._strips[key]

    def _empty_lines(self, width: int) -> list[Text]:
        """The no-results message wrapped to the pane (it has room), one blank line around."""
        if not self._empty_message:
            return []
        style = self.get_component_rich_style("results-list--empty")
        text = Text(self._empty_message, style=style)
        return [Text(), *(Text("  ") + line for line in text.wrap(self.app.console, max(1, width - 4)))]

    def _to_strip(self, text: Text, width: int, style: Style) -> Strip:
        text.truncate(max(0, width), overflow="ellipsis")
        strip = Strip(split_edge_spaces(text.render(self.app.console)), text.cell_len)
        return strip.adjust_cell_length(width, style).apply_style(style)

    def _row_line(self, hit: Hit, part: int) -> Text:
        """The text of line `part` of a hit's row; every piece is appended, never parsed."""
        paper = hit.paper
        style = self.get_component_rich_style
        if part == 0:
            marked = paper.id in self._marks
            text = Text("● " if marked else "  ", style=style("results-list--mark"))
            title_style = style("results-list--title")
            if hit.title.segments:
                title = snippet_text(
                    hit.title, match_style=style("results-list--match"), base_style=title_style,
                    one_line=True,
                )
            else:
                title = Text(clean(paper.title, one_line=True), style=title_style)
            return text + title
        # Every line starts with the same two-cell gutter (the mark's column on the title
        # line), a segment of its own so the content after it starts at the same column.
        if part == 1:
            return Text("  ") + Text(meta_line(paper), style=style("results-list--meta"))
        if part == 2:
            text = Text("  ")
            for facet, labels, chip in (
                ("topic", paper.topic_ids, "results-list--topic"),
                ("hardware", paper.hardware_ids, "results-list--hardware"),
            ):
                for value in labels:
                    text.append(f" {clean(self._labeler(facet, value), one_line=True)} ", style(chip))
                    text.append(" ")
            return text
        snippet_style = style("results-list--snippet")
        if hit.snippet.segments:
            snippet = snippet_text(
                hit.snippet, match_style=style("results-list--match"), base_style=snippet_style,
                one_line=True,
            )
        else:
            snippet = Text(clean(paper.abstract, one_line=True), style=snippet_style)
        return Text("  ") + snippet
