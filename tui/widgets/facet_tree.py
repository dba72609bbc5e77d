"""The facet tree as it is drawn and moved in: each value's line, folding, the cursor's hint.

`FacetPanel` (tui.widgets.facet_panel) decides what the tree lists, from a result's
counts; this base class draws it. A `Tree` (Line API, so no widget per value): `l`/right
unfolds a section or a hardware group and `h`/left folds it (or goes to its parent); a
name too long for the panel is cut at a word (tui.widgets.facet_labels), the panel widens
while it has the focus (see app.tcss), and `cursor_hint` gives the cursor's value whole,
with its query id, for the line under the panel (facet_column).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from index.models import FacetCount
from tui.view.facets import facet_query
from tui.widgets.facet_labels import shared_cuts, value_label
from tui.widgets.render import clean, literal

__all__ = ["EMPTY", "MORE", "NONE", "SECTIONS", "FacetTree", "NodeData"]

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

NodeData = tuple[str, str | None]  # (facet, value); value None for a section heading
MORE = "\x00more"  # the value of a section's "more…" line
NONE = "\x00none"  # the value of the line an empty section shows instead of its values
EMPTY = "\x00empty"  # the value of the one line a section with nothing in the library is
_EMPTY_SAID = (": none in this library", ": none in library", ": none")  # widest that fits
_TOGGLE = Style.from_meta({"toggle": True})  # as `Tree` marks its ▶ so a click on it folds


class FacetTree(Tree[NodeData]):
    """Facet values as tree lines: "○ Name   12", cut to the panel's width, with keys to fold."""

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

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 2
        self._counts: dict[NodeData, FacetCount] = {}  # the value behind each node
        self._count_width = 1  # digits of the largest count shown
        self._cuts: dict[tuple[int, int], frozenset[str]] = {}  # see `_shared_cuts`

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
