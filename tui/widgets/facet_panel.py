"""The facet panel: topics, the hardware tree, years, venues and authors with live counts.

One section per facet, in a `FacetTree` (tui.widgets.facet_tree, which draws the lines
and has the keys to move and fold). The panel is rebuilt from each `SearchResult`; what
the user had expanded and where the cursor was survive the rebuild, because counts change
on every keystroke. Venues and authors (and years, newest first) end with "more…", which
shows the next values and, past the ones the engine listed, asks it for more
(`ValuesWanted`), as far as the last value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from index.models import FacetCount
from tui.messages import FacetToggled
from tui.view.facet_pages import MOST, SectionSize, fitting_page
from tui.widgets.facet_tree import EMPTY, MORE, NONE, SECTIONS, FacetTree, NodeData
from tui.widgets.render import sparkline

__all__ = ["MORE", "NONE", "PAGE_OF_VALUES", "SECTIONS", "FacetPanel"]

# Sections left out while they have no values (a library without tags, no saved searches).
OPTIONAL = {"saved", "status", "tag", "keyword", "category", "collection"}
PAGE_OF_VALUES = MOST  # long sections' values shown at most at first, added by "more…"
# Sections that list their most frequent values first, the rest behind "more…".
LONG = ("venue", "author", "keyword")

# Sections that fold to one line when no paper of the library has any of their values.
VOCABULARY = ("topic", "hardware")
NO_TOPIC = "none"  # the engine's value for papers without a topic (index.search.bitsets)


class FacetPanel(FacetTree):
    """Facet values as a tree; enter or a click on a value posts `FacetToggled`.

    Zero-count values stay listed (dimmed): selecting one is how a user widens an
    OR-selection, and hiding them would make the panel jump while typing.
    """

    @dataclass
    class ValuesWanted(Message):
        """ "more…" reached the end of what the engine listed: list `count` values of `facet`."""

        facet: str
        count: int

    class Rebuilt(Message):
        """New counts are on show (the value under the cursor may have a new count)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("Facets", id=id)
        self._built = False
        self._shown: dict[str, int] = {}  # venues and authors listed, after "more…"
        self._facets: Mapping[str, Sequence[FacetCount]] = {}  # the last counts, for "more…"
        self._more_values: frozenset[str] = frozenset()  # facets the engine listed in part
        self._sections_seen: set[str] = set()
        self._shown_built: dict[str, int] = {}  # `_shown` when the tree was last built
        self._page = PAGE_OF_VALUES  # values a long section lists at first (`_fitting_page`)
        # Long section -> (values it could list, lines below them, cut by the engine).
        self._sizes: dict[str, tuple[int, int, bool]] = {}

    def on_resize(self) -> None:
        """A new height may list more or fewer values per long section (`_fitting_page`):
        the first result is often drawn before the panel has a size at all."""
        if self._built and self._fitting_page() != self._page:
            self.show_facets(self._facets, self._more_values, force=True)

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

    def _top(self, values: list[FacetCount], shown: int) -> list[FacetCount]:
        chosen = [v for v in values if v.selected]
        rest = [v for v in values if not v.selected and v.count > 0][: max(0, shown - len(chosen))]
        return chosen + rest

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
