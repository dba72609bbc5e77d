"""How many values the panel's long sections list at first, so the sections fit its height.

The year, venue, author and source-tag sections list their first values and "more…". Eight
each pushed Author and Source tags below the panel's edge at 80x24 (issue 47); this picks
the most values per section (eight down to three) that brings the heading and first value
of as many of those sections as can be into view. Pure arithmetic, kept apart from the
widget so it is tested without one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["LEAST", "MOST", "SectionSize", "fitting_page"]

MOST, LEAST = 8, 3  # values a long section lists at first, at most and at least


@dataclass(frozen=True)
class SectionSize:
    """One long section as the panel would draw it."""

    facet: str
    listable: int  # values it could list (count > 0 or selected)
    extra: int = 0  # lines always under its values ("no year")
    cut: bool = False  # the engine listed only some: "more…" shows whatever the page
    expanded: bool = True  # a folded section is its heading alone


def fitting_page(
    sections: Sequence[SectionSize], first_line: int, height: int, shown: Mapping[str, int]
) -> int:
    """The values per section, from `MOST` down to `LEAST`, that shows the most headings.

    Args:
        sections: the long sections, top to bottom, consecutive in the panel.
        first_line: the line of the first one's heading.
        height: the panel's lines.
        shown: sections the user opened further with "more…": their own count stands.
    """
    if height <= 0 or len(sections) < 2:
        return MOST
    best, best_seen = MOST, -1
    for page in range(MOST, LEAST - 1, -1):
        line, seen = first_line, 0
        for section in sections:
            if line + 1 < height:  # its heading and first value are in view
                seen += 1
            listed = min(section.listable, shown.get(section.facet, page))
            more = 1 if section.listable > listed or section.cut else 0
            line += 1 + (max(1, listed + section.extra + more) if section.expanded else 0)
        if seen > best_seen:
            best, best_seen = page, seen
    return best
