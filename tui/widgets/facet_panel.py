"""The facet panel: topics, the hardware tree, years, venues and authors with live counts.

A `Tree` (Line API, so no widget per value) holds one section per facet. The panel is
rebuilt from each `SearchResult`; what the user had expanded and where the cursor was
survive the rebuild, because counts change on every keystroke. `l`/right unfolds a
section or a hardware group and `h`/left folds it (or goes to its parent); venues and
authors (and years, newest first) end with "more…", which shows the next values and, past the ones the engine
listed, asks it for more (`ValuesWanted`), as far as the last value; a name too long for the panel is cut at a word,
the panel widens while it has the focus (see app.tcss), and `cursor_hint` gives the
cursor's value whole, with its query id, for the line under the panel (facet_column).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from index.models import FacetCount
from tui.messages import FacetToggled
from tui.view.facet_pages import MOST, SectionSize, fitting_page
from tui.view.facets import facet_query
from tui.widgets.facet_labels import shared_cuts, value_label
from tui.widgets.render import clean, literal, sparkline

__all__ = ["PAGE_OF_VALUES", "SECTIONS", "FacetPanel"]

SECTIONS = (
    ("saved", "Saved"),
    ("status", "Reading"),
    ("tag", "My tags"),
    ("topic", "Topics"),
    ("hardware", "Hardware"),
    ("year", "Year"),
    ("venue", "Venue"),
    ("author", "Author"),
    ("keyword", "Source tags"),
    ("category", "arXiv category"),
    ("collection", "Collections"),
)
# Sections left out while they have no values (a library without tags, no saved searches).
OPTIONAL = {"saved", "status", "tag", "keyword", "category", "collection"}
PAGE_OF_VALUES = MOST  # long sections' values shown at most at first, added by "more…"
# Sections that list their most frequent values first, the rest behind "more…".
LONG = ("venue", "author", "keyword")

NodeData = tuple[str, str | None]  # (facet, value); value None for a section heading
MORE = "\x00more"  # the value of a section's "more…" line
NONE = "\x00none"  # the value of the line an empty section shows instead of its values
EMPTY = "\x00empty"  # the value of the one line a section with nothing in the library is
# Sections that fold to one line when no paper of the library has any of their values.
VOCABULARY = ("topic", "hardware")
NO_TOPIC = "none"  # the engine's value for papers without a topic (index.search.bitsets)
_EMPTY_SAID = (": none in this library", ": none in library", ": none")  # widest that fits
_TOGGLE = Style.from_meta({"toggle": True})  # as `Tree` marks its ▶ so a click on it folds


class FacetPanel(Tree[NodeData]):
    """Facet values as a tree; enter or a click on a value posts `FacetToggled`.

    Zero-count values stay listed (dimmed): selecting one is how a user widens an
    OR-selection, and hiding them would make the panel jump while typing.
    """

    BINDINGS = [
        Binding(
            "enter",
            "select_cursor",
            "Select",
            id="facets.select",
            tooltip="Select or unselect the value (or fold the section)",
        ),
        Binding("j", "cursor_down", "Down", show=False, id="facets.down", tooltip="Next value"),
        Binding("k", "cursor_up", "Up", show=False, id="facets.up", tooltip="Previous value"),
        Binding(
            "right,l",
            "unfold",
            "Unfold",
            id="facets.unfold",
            tooltip="Unfold the section or hardware group (or go into it)",
        ),
        Binding(
            "left,h",
            "fold",
            "Fold",
            id="facets.fold",
            tooltip="Fold the section or group (or go to the one it is in)",
        ),
    ]

    COMPONENT_CLASSES = {"facet-panel--zero", "facet-panel--selected", "facet-panel--count"}

    @dataclass
    class ValuesWanted(Message):
        """ "more…" reached the end of what the engine listed: list `count` values of `facet`."""

        facet: str
        count: int

    class Rebuilt(Message):
        """New counts are on show (the value under the cursor may have a new count)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("Facets", id=id)
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 2
        self._built = False
        self._counts: dict[NodeData, FacetCount] = {}  # the value behind each node
        self._count_width = 1  # digits of the largest count shown
        self._shown: dict[str, int] = {}  # venues and authors listed, after "more…"
        self._facets: Mapping[str, Sequence[FacetCount]] = {}  # the last counts, for "more…"
        self._more_values: frozenset[str] = frozenset()  # facets the engine listed in part
        self._sections_seen: set[str] = set()
        self._cuts: dict[tuple[int, int], frozenset[str]] = {}  # see `_shared_cuts`
        self._shown_built: dict[str, int] = {}  # `_shown` when the tree was last built
        self._page = PAGE_OF_VALUES  # values a long section lists at first (`_fitting_page`)
        # Long section -> (values it could list, lines below them, cut by the engine).
        self._sizes: dict[str, tuple[int, int, bool]] = {}

    def on_resize(self) -> None:
        """A new height may list more or fewer values per long section (`_fitting_page`):
        the first result is often drawn before the panel has a size at all."""
        if self._built and self._fitting_page() != self._page:
            self.show_facets(self._facets, self._more_values, force=True)

    def on_focus(self) -> None:
        """Arriving with no cursor, land on the first value: enter then selects something."""
        if self.cursor_line < 0 and self.last_line >= 1:
            values = (
                line
                for line in range(self.last_line + 1)
                if (node := self.get_node_at_line(line)) is not None
                and node.data is not None
                and node.data[1] not in (None, EMPTY, NONE, MORE)
            )
            self._move_cursor(next(values, 1))

    def process_label(self, label: str | Text) -> Text:
        """Labels are built as `Text`; a plain `str` is kept literal, never parsed as markup."""
        return literal(label) if isinstance(label, str) else label

    def show_facets(
        self,
        facets: Mapping[str, Sequence[FacetCount]],
        more_values: frozenset[str] = frozenset(),
        *,
        force: bool = False,
    ) -> None:
        """Rebuild the sections from a result's counts, keeping expansion and the cursor.

        Args:
            more_values: facets whose lists the engine cut at its top values
                (`SearchResult.more_values`): their "more…" can ask for the rest.
            force: rebuild even if nothing changed (the panel's height did).
        """
        unchanged = (facets, more_values, self._shown) == (
            self._facets,
            self._more_values,
            self._shown_built,
        )
        if self._built and unchanged and not force:
            # Typing on in a narrow search often brings the counts shown already: a new
            # tree would repaint every line of the panel for nothing.
            return
        self._shown_built = dict(self._shown)
        self._facets = facets
        self._more_values = more_values
        expanded = {node.data for node in self._walk() if node.is_expanded and node.data}
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        self._add_sections(facets, more_values, expanded)
        page = self._fitting_page()
        if page != self._page:  # fewer (or again more) values, so every section shows
            self._page = page
            expanded = {node.data for node in self._walk() if node.is_expanded and node.data}
            self._add_sections(facets, more_values, expanded)
        self._count_width = max((len(str(v.count)) for v in self._counts.values()), default=1)
        if cursor is not None:
            # A new tree has no line numbers until it is laid out, and `move_cursor` on a
            # node without one resets the cursor: number the lines first.
            self._tree_lines  # noqa: B018 - the property builds the lines
            node = next((node for node in self._walk() if node.data == cursor), None)
            if node is not None and self.has_focus:  # new counts may move its line
                self._move_cursor(node.line)
            elif node is not None:
                self.cursor_line = node.line
        self.post_message(self.Rebuilt())

    def _add_sections(
        self,
        facets: Mapping[str, Sequence[FacetCount]],
        more_values: frozenset[str],
        expanded: set[NodeData],
    ) -> None:
        """The tree's sections and values, `self._page` values to a long section."""
        self.clear()
        self._sizes = {}
        self._cuts = {}
        self._counts = {}
        for facet, title in SECTIONS:
            values = list(facets.get(facet, ()))
            if facet in OPTIONAL and not values:
                continue
            if facet in VOCABULARY and not any(v.value != NO_TOPIC or v.selected for v in values):
                # The engine lists every value some paper has: none here means the library
                # is about something else (law, psychology). One line, not an open
                # section, so Year, Venue and Author still fit a small terminal.
                self.root.add_leaf(Text(title), data=(facet, EMPTY))
                continue
            more, cut = 0, False
            if facet in LONG:
                everything = values
                values = self._top(values, self._shown.get(facet, self._page))
                listable = sum(1 for v in everything if v.count > 0 or v.selected)
                more = listable - len(values)
                cut = facet in more_values
                self._sizes[facet] = (listable, 0, cut)
            heading = Text(title, style="bold")
            if facet == "year" and values:
                ordered = sorted((v for v in values if v.value != "0"), key=lambda v: v.value)
                heading.append(" " + sparkline(v.count for v in ordered))
            chosen = sum(1 for v in values if v.selected)
            if chosen:
                heading.append(
                    f" ({chosen})", style=self.get_component_rich_style("facet-panel--selected")
                )
            # A section appearing later (the first saved search or tag) opens expanded.
            fresh = facet not in self._sections_seen
            self._sections_seen.add(facet)
            section = self.root.add(
                heading,
                data=(facet, None),
                expand=not self._built or fresh or (facet, None) in expanded,
            )
            if facet == "year":  # newest first, "no year" last
                # Only the years that have matches (or are chosen): a query on a library
                # spanning decades listed every empty year above the ones with papers.
                years = sorted(
                    (v for v in values if v.count > 0 or v.selected),
                    key=lambda v: (v.value != "0", v.value),
                    reverse=True,
                )
                # The newest first page, the rest behind "more…": a lab's library spans
                # seventy years, and Venue and Author were three screens further down.
                # "no year" stays listed, last: it is how to find the papers without one.
                dated = [v for v in years if v.value != "0"]
                kept = set(map(id, self._top(dated, self._shown.get(facet, self._page))))
                values = [v for v in years if id(v) in kept or v.value == "0"]
                more = len(dated) - len(kept)
                self._sizes[facet] = (len(dated), len(years) - len(dated), False)
            self._add_values(section, values, expanded)
            if more > 0 or cut:
                # A cut list has more than the engine listed: its number is not known yet.
                count = f" ({more:,}+)" if cut and more > 0 else "" if cut else f" ({more:,})"
                section.add_leaf(Text(f"  more…{count}", style="italic"), data=(facet, MORE))
            if not section.children:  # an open section with no line under it looked broken
                section.add_leaf(Text("  (none)", style="italic"), data=(facet, NONE))
        self._built = True

    def _fitting_page(self) -> int:
        """How many values the long sections list at first (`tui.view.facet_pages`),
        counted from the tree just built and the panel's height."""
        sections = [n for n in self.root.children if n.data and n.data[0] in self._sizes]
        if not sections:
            return PAGE_OF_VALUES
        self._tree_lines  # noqa: B018 - number the lines
        sizes = [
            SectionSize(facet, *self._sizes[facet], expanded=node.is_expanded)
            for node in sections
            if node.data is not None
            for facet in (node.data[0],)
        ]
        height = self.scrollable_content_region.height
        return fitting_page(sizes, sections[0].line, height, self._shown)
        self._tree_lines  # noqa: B018 - number the lines
        first = sections[0].line
        for page in range(PAGE_OF_VALUES, 2, -1):
            line = first
            for section in sections[:-1]:
                assert section.data is not None
                listable, extra, cut = self._sizes[section.data[0]]
                shown = min(listable, self._shown.get(section.data[0], page))
                more = 1 if listable > shown or cut else 0
                line += 1 + (max(1, shown + extra + more) if section.is_expanded else 0)
            if line + 1 < height:
                return page
        return PAGE_OF_VALUES

    def _invalidate(self) -> None:
        """Forget the drawn lines without asking the screen for a new layout.

        `Tree` asks for one with every node added, and Textual answers any layout request
        by reflowing the whole screen: each keystroke's new counts cost a reflow of every
        widget. The panel's size is set by its column (app.tcss), never by its lines, and
        a rebuild that changes how many lines there are still gets its reflow: the new
        `virtual_size` (set when the lines are rebuilt) asks for one. Overrides a private
        `Tree` method (Textual is pinned exactly); were it renamed, this would go unused
        and the panel would only be slower.
        """
        self._clear_line_cache()
        self._updates += 1
        self.root._reset()
        self.refresh()

    def cursor_hint(self) -> Text | None:
        """The value under the cursor whole, with its query id and count (None: no cursor).

        "Compilers and tensor programs" / "topic:compilers · 14 papers"; a heading or
        "more…" says what enter does there.
        """
        node = self.cursor_node
        if node is None or node.data is None:
            return None
        facet, value = node.data
        title = dict(SECTIONS).get(facet, facet)
        if value is None:
            return Text(f"{title}: enter or h/l folds and unfolds", style="italic")
        if value == MORE:
            return Text(f"enter: more {title.lower()} values", style="italic")
        if value == NONE:
            return Text(f"{title}: none among the papers that match", style="italic")
        if value == EMPTY:
            text = Text(title, style="bold")
            text.append("\nnone in the whole library", style="italic")
            return text
        count = self._counts.get(node.data)
        if count is None:
            return None
        text = Text(clean(count.label or count.value, one_line=True), style="bold")
        text.append("\n")
        query = facet_query(facet, count.value)
        if facet == "saved":
            text.append("enter recalls it", style="italic")
        elif query is not None:
            text.append(clean(query, one_line=True), style="underline")  # a tag is the user's
        else:
            text.append("(chosen here only)", style="italic")
        papers = "paper" if count.count == 1 else "papers"
        text.append(f" · {count.count:,} {papers}")
        if count.selected:
            text.append(" · selected")
        return text

    def _top(self, values: list[FacetCount], shown: int) -> list[FacetCount]:
        chosen = [v for v in values if v.selected]
        rest = [v for v in values if not v.selected and v.count > 0][: max(0, shown - len(chosen))]
        return chosen + rest

    def action_unfold(self) -> None:
        """Unfold the section or group under the cursor; on an unfolded one, go into it."""
        node = self.cursor_node
        if node is None or not node.allow_expand:
            return
        if not node.is_expanded:
            node.expand()
            if node.children:  # show what unfolded, as far as the cursor stays in view
                self._tree_lines  # noqa: B018 - number the new lines first
                self.scroll_to_line(node.children[-1].line, animate=False)
                self.scroll_to_line(node.line, animate=False)
        elif node.children:
            self._move_cursor(node.children[0].line)

    def action_fold(self) -> None:
        """Fold the section or group under the cursor; elsewhere, go to the one it is in."""
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self._move_cursor(node.parent.line)

    def _move_cursor(self, line: int) -> None:
        """Put the cursor on `line` and scroll it into view (setting `cursor_line` alone
        does not: going into the GPU group left the cursor below the panel's edge)."""
        self.cursor_line = line
        self.scroll_to_line(line, animate=False)

    def _add_values(
        self, section: TreeNode[NodeData], values: list[FacetCount], expanded: set[NodeData]
    ) -> None:
        """Values under their section; hardware children under their parent value."""
        present = {v.value for v in values}
        children: dict[str, list[FacetCount]] = {}
        for value in values:
            if value.parent and value.parent in present:
                children.setdefault(value.parent, []).append(value)

        def add(parent: TreeNode[NodeData], value: FacetCount) -> None:
            kids = children.get(value.value, [])
            data = (value.facet, value.value)
            self._counts[data] = value
            # The stored label is the short form ("○ Name 12"); `render_label` fits it to
            # the panel's width at draw time, so a resize needs no rebuild.
            label = Text(
                f"{'●' if value.selected else '○'} {value.label or value.value} {value.count}"
            )
            if kids:
                expand = data in expanded or any(k.selected for k in kids)
                node = parent.add(label, data=data, expand=expand)
                for kid in kids:
                    add(node, kid)
            else:
                parent.add_leaf(label, data=data)

        for value in values:
            if not (value.parent and value.parent in present):
                add(section, value)

    def render_label(self, node: TreeNode[NodeData], base_style: Style, style: Style) -> Text:
        """A value as "○ Name      12": the name cut to fit, the count right-aligned."""
        if node.data is not None and node.data[1] == EMPTY:
            return self._empty_label(node.data[0], style)
        value = self._counts.get(node.data) if node.data else None
        if value is None:
            return super().render_label(node, base_style, style)
        depth = 0
        parent = node.parent
        while parent is not None and parent is not self.root:
            depth += 1
            parent = parent.parent
        icon = 2 if node.allow_expand else 0
        room = self.scrollable_content_region.width - self.guide_depth * depth - icon
        text = self._label(value, room, self._shared_cuts(node.parent, room))
        text.stylize(style)
        if node.allow_expand:
            icon_text = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon_text, base_style + _TOGGLE), text)
        return text

    def _empty_label(self, facet: str, style: Style) -> Text:
        """ "Topics: none in this library", said as fully as the panel's width allows."""
        title = dict(SECTIONS)[facet]
        room = self.scrollable_content_region.width
        said = next(
            (s for s in _EMPTY_SAID if cell_len(title) + cell_len(s) <= room), _EMPTY_SAID[-1]
        )
        text = Text(title, style="bold")
        text.append(said, style="italic")
        text.stylize(style)
        return text

    def get_label_width(self, node: TreeNode[NodeData]) -> int:
        """Labels fit the panel by construction: never ask for a horizontal scrollbar."""
        return 1

    def _name_room(self, room: int) -> int:
        """The cells a name gets out of `room`: less the marker, one space and the count."""
        return max(4, room - 2 - 1 - self._count_width)

    def _shared_cuts(self, parent: TreeNode[NodeData] | None, room: int) -> frozenset[str]:
        """The cut names ("AWS…") that two or more values under `parent` would share.

        "AWS Trainium" and "AWS Inferentia" both cut to "AWS…" in a narrow panel; those are
        cut from the front instead ("…Trainium"), so the rows stay apart. Worked out once
        per section and width (a rebuild forgets it), not per row drawn.
        """
        if parent is None:
            return frozenset()
        key = (id(parent), room)
        known = self._cuts.get(key)
        if known is None:
            values = (self._counts.get(child.data) for child in parent.children if child.data)
            known = shared_cuts([v for v in values if v is not None], self._name_room(room))
            self._cuts[key] = known
        return known

    def _label(self, value: FacetCount, room: int, shared: frozenset[str] = frozenset()) -> Text:
        """ "○ Name   12": the name cut to fit, one space at least, the count at the right."""
        return value_label(
            value, self._name_room(room), self._count_width, shared, self.get_component_rich_style
        )

    def _walk(self) -> list[TreeNode[NodeData]]:
        nodes: list[TreeNode[NodeData]] = []
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            nodes.append(node)
            stack.extend(node.children)
        return nodes

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        """A value toggles its facet; a section heading folds or unfolds."""
        event.stop()
        data = event.node.data
        if data is None:
            return
        facet, value = data
        if value is None:
            event.node.toggle()
        elif value in (NONE, EMPTY):
            return
        elif value == MORE:
            shown = self._shown.get(facet, self._page) + PAGE_OF_VALUES
            self._shown[facet] = shown
            listed = sum(1 for v in self._facets.get(facet, ()) if v.count > 0 or v.selected)
            if facet in self._more_values and shown > listed:
                # A page ahead, so the next "more…" needs no search; the result rebuilds us.
                self.post_message(self.ValuesWanted(facet, shown + PAGE_OF_VALUES))
            else:
                self.show_facets(self._facets, self._more_values)
        else:
            self.post_message(FacetToggled(facet, value))
