"""The ranked results, drawn with the Line API so only the visible rows are rendered.

A widget per paper would make 100,000 matches unusable; here each hit is a fixed-height
row computed on demand in `render_line`, so the cost is the number of lines on screen.
Two views: cards (`ROW_HEIGHT` lines: title, authors · year · venue, labels, snippet) and
a compact one (one line: title, first author, year, venue in columns that fit). The
highlighted row is drawn across the whole width, title included, with a bar at its left.
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

from index.author_lists import author_list
from index.library.lookup import handle
from index.models import Hit, Paper
from tui.messages import HitHighlighted, MoreResultsWanted, PaperChosen
from tui.widgets.render import Labeler, clean, meta_line, page_match_text, snippet_text

__all__ = ["ROW_HEIGHT", "ResultsList"]

ROW_HEIGHT = 4  # title, authors · year · venue, chips, snippet


class ResultsList(ScrollView, can_focus=True):
    """The hits of the current search, one row of `ROW_HEIGHT` lines each.

    State comes down through `show_hits` and `set_marks`; the cursor's moves go up as
    `HitHighlighted`, enter or a second click as `PaperChosen`.
    """

    BINDINGS = [
        Binding(
            "down,j", "cursor_down", "Down", show=False, id="results.down", tooltip="Next paper"
        ),
        Binding("up,k", "cursor_up", "Up", show=False, id="results.up", tooltip="Previous paper"),
        Binding(
            "pagedown",
            "page_down",
            "Page down",
            show=False,
            id="results.page_down",
            tooltip="One screen of papers down",
        ),
        Binding(
            "pageup",
            "page_up",
            "Page up",
            show=False,
            id="results.page_up",
            tooltip="One screen of papers up",
        ),
        Binding("home,g", "first", "First", show=False, id="results.first", tooltip="First paper"),
        Binding(
            "end,G", "last", "Last", show=False, id="results.last", tooltip="Last loaded paper"
        ),
        Binding(
            "enter",
            "open",
            "Open",
            id="results.open",
            tooltip="Open the paper full screen, to read it",
        ),
    ]

    COMPONENT_CLASSES = {
        "results-list--title",
        "results-list--meta",
        "results-list--key",
        "results-list--topic",
        "results-list--hardware",
        "results-list--snippet",
        "results-list--match",
        "results-list--cursor",
        "results-list--bar",
        "results-list--mark",
        "results-list--empty",
    }

    DEFAULT_CSS = """
    ResultsList { overflow-x: hidden; }
    """

    cursor: reactive[int] = reactive(0, always_update=True)
    compact: reactive[bool] = reactive(False)

    def __init__(self, labeler: Labeler, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._labeler = labeler
        self._hits: tuple[Hit, ...] = ()
        self._marks: Container[str] = ()
        self._empty_message = ""
        self._strips: dict[tuple[int, int, int, bool, bool], Strip] = {}

    @property
    def row_height(self) -> int:
        """Lines per paper: 1 in the compact view, `ROW_HEIGHT` as cards."""
        return 1 if self.compact else ROW_HEIGHT

    def watch_compact(self) -> None:
        """Switching views keeps the highlighted paper in sight."""
        self._strips.clear()
        self.virtual_size = Size(0, len(self._hits) * self.row_height or 1)
        self.call_after_refresh(self._scroll_to_cursor)
        self.refresh()

    def notify_style_update(self) -> None:
        """A new theme (or CSS) changes the component styles: drop the rows drawn in the old ones."""
        super().notify_style_update()
        self._strips.clear()
        self.refresh()

    def _scroll_to_cursor(self) -> None:
        if self._hits:
            height = self.row_height
            self.scroll_to_region(
                Region(0, self.cursor * height, 1, height), animate=False, force=True
            )

    @property
    def hits(self) -> tuple[Hit, ...]:
        return self._hits

    @property
    def highlighted(self) -> Paper | None:
        """The paper under the cursor, if any."""
        return self._hits[self.cursor].paper if 0 <= self.cursor < len(self._hits) else None

    def show_hits(
        self, hits: tuple[Hit, ...], *, empty_message: str = "", keep: bool = False
    ) -> None:
        """Replace the rows; `keep` keeps the cursor on the same paper (more results loaded)."""
        current = self.highlighted
        self._hits = hits
        self._empty_message = empty_message
        self._strips.clear()
        self.virtual_size = Size(0, len(hits) * self.row_height or 1)
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
            self._scroll_to_cursor()
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
        self._move(max(1, self.size.height // self.row_height))

    def action_page_up(self) -> None:
        self._move(-max(1, self.size.height // self.row_height))

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
        index = (event.y + int(self.scroll_offset.y)) // self.row_height
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
        index, part = divmod(line_y, self.row_height)
        if index >= len(self._hits):
            return Strip.blank(width, base)
        selected = index == self.cursor
        key = (index, part, width, selected, self.compact)
        if key not in self._strips:
            style = base
            hit = self._hits[index]
            text = self._compact_line(hit, width) if self.compact else self._row_line(hit, part)
            if selected:
                # The row's own segments carry no background (partial styles), so the
                # cursor's colour fills the whole card, title included; the bar marks it
                # even in a theme where that colour is faint.
                style = base + self.get_component_rich_style("results-list--cursor")
                bar = Text(
                    "▌", style=self.get_component_rich_style("results-list--bar", partial=True)
                )
                text = bar + text[1:]  # the mark (●) stays in the second column
            self._strips[key] = self._to_strip(text, width, style)
        return self._strips[key]

    def _empty_lines(self, width: int) -> list[Text]:
        """The no-results message wrapped to the pane (it has room), one blank line around."""
        if not self._empty_message:
            return []
        style = self.get_component_rich_style("results-list--empty")
        text = Text(self._empty_message, style=style)
        return [
            Text(),
            *(Text("  ") + line for line in text.wrap(self.app.console, max(1, width - 4))),
        ]

    def _to_strip(self, text: Text, width: int, style: Style) -> Strip:
        text.truncate(max(0, width), overflow="ellipsis")
        strip = Strip(text.render(self.app.console), text.cell_len)
        return strip.adjust_cell_length(width, style).apply_style(style)

    def _row_line(self, hit: Hit, part: int) -> Text:
        """The text of line `part` of a hit's row; every piece is appended, never parsed."""
        paper = hit.paper

        def style(name: str) -> Style:
            return self.get_component_rich_style(name, partial=True)

        if part == 0:
            marked = paper.id in self._marks
            text = Text(" ● " if marked else "   ", style=style("results-list--mark"))
            title_style = style("results-list--title")
            if hit.title.segments:
                title = snippet_text(
                    hit.title,
                    match_style=style("results-list--match"),
                    base_style=title_style,
                    one_line=True,
                )
            else:
                title = Text(clean(paper.title, one_line=True), style=title_style)
            return text + title
        # Every line starts with the same three-cell gutter (the cursor's bar, then the
        # mark's column on the title line), a segment of its own so the content after it
        # starts at the same column.
        if part == 1:
            # The user's citation key first, as citar and fzf-bibtex show it: what they cite.
            text = Text("   ")
            text.append(clean(handle(paper), one_line=True), style("results-list--key"))
            return text + Text(" · " + meta_line(paper), style=style("results-list--meta"))
        if part == 2:
            text = Text("   ")
            for facet, labels, chip in (
                ("topic", paper.topic_ids, "results-list--topic"),
                ("hardware", paper.hardware_ids, "results-list--hardware"),
            ):
                for value in labels:
                    text.append(
                        f" {clean(self._labeler(facet, value), one_line=True)} ", style(chip)
                    )
                    text.append(" ")
            return text
        snippet_style = style("results-list--snippet")
        if hit.page_match is not None:  # matched inside an attachment: where, and the words
            return Text("   ") + page_match_text(
                hit.page_match,
                label_style=style("results-list--meta"),
                match_style=style("results-list--match"),
                base_style=snippet_style,
            )
        if hit.snippet.segments:
            snippet = snippet_text(
                hit.snippet,
                match_style=style("results-list--match"),
                base_style=snippet_style,
                one_line=True,
            )
        else:
            snippet = Text(clean(paper.abstract, one_line=True), style=snippet_style)
        return Text("   ") + snippet

    def _compact_line(self, hit: Hit, width: int) -> Text:
        """One line: mark, key, title, first author, year, venue; columns dropped to fit."""
        paper = hit.paper

        def style(name: str) -> Style:
            return self.get_component_rich_style(name, partial=True)

        text = Text(" ● " if paper.id in self._marks else "   ", style=style("results-list--mark"))
        first = author_list(
            paper, 1, et_al=" et al.", unknown="?", each=lambda name: clean(name, one_line=True)
        )
        year = str(paper.year) if paper.year else "n.d."
        venue = clean(paper.venue, one_line=True) if paper.venue else ""
        room = max(10, width - 3)
        key_w = min(20, max(10, room // 6)) if room >= 36 else 0
        author_w = min(24, max(12, room // 5)) if room >= 60 else 0
        venue_w = min(28, room // 4) if room >= 100 else 0
        title_w = room - 5 - sum(w + 1 for w in (key_w, author_w, venue_w) if w)
        if key_w:
            key = Text(clean(handle(paper), one_line=True), style=style("results-list--key"))
            key.truncate(key_w, overflow="ellipsis", pad=True)
            text += key + Text(" ")
        title = Text(clean(paper.title, one_line=True), style=style("results-list--title"))
        title.truncate(title_w, overflow="ellipsis", pad=True)
        text += title
        meta = style("results-list--meta")
        if author_w:
            cell = Text(" " + first, style=meta)
            cell.truncate(author_w + 1, overflow="ellipsis", pad=True)
            text += cell
        text.append(f" {year:>4}", meta)
        if venue_w:
            cell = Text(" " + venue, style=meta)
            cell.truncate(venue_w + 1, overflow="ellipsis", pad=True)
            text += cell
        return text
