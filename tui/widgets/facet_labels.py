"""A facet value's line in the panel: its name cut to the room it has, its count at the right.

Apart from the panel (tui.widgets.facet_panel) because it is all about cells and words,
not the tree: names are cut at a word ("Advanced Micro…"), and names that would cut alike
("AWS Trainium", "AWS Inferentia" both "AWS…") are cut from the front instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text

from index.models import FacetCount
from tui.widgets.render import clean

__all__ = ["shared_cuts", "value_label"]


def shared_cuts(values: Sequence[FacetCount], width: int) -> frozenset[str]:
    """The cut names two or more of `values` would share in `width` cells."""
    cuts: Counter[str] = Counter()
    for value in values:
        name = clean(value.label or value.value, one_line=True)
        if cell_len(name) > width:
            cuts[_cut_at_word(name, width)] += 1
    return frozenset(name for name, n in cuts.items() if n > 1)


def value_label(
    value: FacetCount,
    room: int,
    count_width: int,
    shared: frozenset[str],
    style: Callable[[str], Style],
) -> Text:
    """ "○ Name   12": the name cut to `room` cells, one space, the count right-aligned in
    `count_width` (every count gets the widest count's room, so names are cut at one
    column too); `style` gives the panel's component styles."""
    count = str(value.count).rjust(count_width)
    text = Text("● " if value.selected else "○ ")
    name = clean(value.label or value.value, one_line=True)
    if cell_len(name) > room:
        cut = _cut_at_word(name, room)
        name = _cut_at_word(name, room, from_end=True) if cut in shared else cut
    text.append(set_cell_size(name, room) + " ")
    text.append(count, style=style("facet-panel--count"))
    if value.selected:
        text.stylize(style("facet-panel--selected"))
    elif value.count == 0:
        text.stylize(style("facet-panel--zero"))
    return text


def _cut_at_word(name: str, room: int, from_end: bool = False) -> str:
    """`name` cut to `room` cells at a word boundary, with "…" ("…" first and the last
    words kept `from_end`); a single word too long is cut."""
    words = name.split(" ")
    if from_end:
        words.reverse()
    kept = ""
    for word in words:
        candidate = (f"{word} {kept}" if from_end else f"{kept} {word}") if kept else word
        if cell_len(candidate) + 1 > room:
            break
        kept = candidate
    if not kept:
        return set_cell_size(name, room - 1) + "…"
    if from_end:
        return "…" + kept.lstrip(" ,;:-")
    return kept.rstrip(" ,;:-") + "…"
