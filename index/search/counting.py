"""Facet selections and disjunctive facet counts, all by mask intersection.

Selections are OR within one facet and AND across facets. The counts shown for a facet
apply every *other* facet's selections but not its own, so the user sees what choosing
another value of that facet would give (disjunctive faceting).
"""

from __future__ import annotations

from typing import Any

from whoosh.reading import IndexReader

from index.facets import taxonomy as _taxonomy
from index.models import FacetCount, SearchRequest
from index.search.bitsets import NO_TOPIC, NO_YEAR, FacetMasks

# The facets the index counts (the rest of `index.models.FACET_FIELDS` are the user's layer).
FACETS = ("topic", "hardware", "year", "venue", "author", "keyword", "category")
# Venue, author, keyword and category lists show this many values (plus any selected
# ones), unless the request asks for more (`facet_limits`).
LISTED_VALUES = 15


def arxiv_category_name(category: str) -> str | None:
    """The official name from the arXiv category table the facets package ships
    (`index.facets.taxonomy.arxiv_category_name`); None until that table is there."""
    lookup = getattr(_taxonomy, "arxiv_category_name", None)
    return lookup(category) if lookup is not None else None


def value_limit(request: SearchRequest, facet: str, default: int) -> int:
    """How many values of `facet` to list: the default, or more when the request asks."""
    return max(default, dict(request.facet_limits).get(facet, default))


def selection_masks(
    masks: FacetMasks, request: SearchRequest, reader: IndexReader
) -> dict[str, int]:
    """Facet -> documents allowed by that facet's selections (only selected facets)."""
    out: dict[str, int] = {}
    for facet in FACETS:
        values = request.selected(facet)
        if values:
            mask = 0
            for value in values:
                mask |= masks.value_mask(facet, value, reader)
            out[facet] = mask
    if request.year_range is not None:
        low, high = request.year_range
        mask = 0
        for year, year_mask in masks.masks["year"].items():
            if (
                year != NO_YEAR
                and (low is None or int(year) >= low)
                and (high is None or int(year) <= high)
            ):
                mask |= year_mask
        out["year"] = out.get("year", masks.live) & mask
    return out


def facet_counts(
    masks: FacetMasks,
    taxonomy: Any,
    request: SearchRequest,
    base: int,
    selected: dict[str, int],
    reader: IndexReader,
) -> tuple[dict[str, tuple[FacetCount, ...]], frozenset[str]]:
    """Every facet's counts over `base` (the query's matches), disjunctively; and the
    facets whose lists stop at their top values (`SearchResult.more_values`)."""
    out: dict[str, tuple[FacetCount, ...]] = {}
    cut: set[str] = set()
    for facet in FACETS:
        within = base
        for other, mask in selected.items():
            if other != facet:
                within &= mask
        out[facet], more = _counts(masks, taxonomy, request, facet, within, reader)
        if more:
            cut.add(facet)
    return out, frozenset(cut)


def _counts(
    masks: FacetMasks,
    taxonomy: Any,
    request: SearchRequest,
    facet: str,
    within: int,
    reader: IndexReader,
) -> tuple[tuple[FacetCount, ...], bool]:
    """One facet's counts, and whether values beyond the listed ones were left out."""
    chosen = request.selected(facet)
    if facet in ("topic", "hardware"):
        vocabulary = tuple(getattr(taxonomy, "topics" if facet == "topic" else "hardware", ()))
        known = {value.id for value in vocabulary}
        # Only values some paper of the library has (or chosen ones): a law library listed
        # all 14 topics and 13 hardware ids at 0, two screens of the panel at 80x24.
        present = masks.masks[facet]
        rows = [
            (v.id, v.label, v.parent)
            for v in vocabulary
            if v.id in chosen or present.get(v.id, 0) & masks.live
        ]
        rows += [
            (value, value, None)
            for value in sorted(masks.masks[facet])
            if value not in known and value != NO_TOPIC
        ]
        if facet == "topic" and NO_TOPIC in masks.masks["topic"]:
            rows.append((NO_TOPIC, "no topic", None))  # last, like "no year"
        return tuple(
            FacetCount(
                facet,
                value,
                label,
                (masks.masks[facet].get(value, 0) & within).bit_count(),
                value in chosen,
                parent,
            )
            for value, label, parent in rows
        ), False
    if facet == "year":
        years = sorted(masks.masks["year"], key=int, reverse=True)
        return tuple(
            FacetCount(
                "year",
                year,
                "no year" if year == NO_YEAR else year,
                (masks.masks["year"][year] & within).bit_count(),
                year in chosen,
            )
            for year in years
        ), False
    top, cut = masks.top_counts(facet, within, value_limit(request, facet, LISTED_VALUES))
    shown = {value for value, _ in top}
    top += [
        (value, (masks.value_mask(facet, value, reader) & within).bit_count())
        for value in sorted(chosen - shown)
    ]
    label = category_label if facet == "category" else str
    return tuple(
        FacetCount(facet, value, label(value), count, value in chosen) for value, count in top
    ), cut


def category_label(category: str) -> str:
    """ "hep-ph" -> "High Energy Physics - Phenomenology (hep-ph)", from arXiv's own table."""
    name = arxiv_category_name(category)
    return f"{name} ({category})" if name else category
