"""Facet selections and disjunctive facet counts, all by mask intersection.

Selections are OR within one facet and AND across facets. The counts shown for a facet
apply every *other* facet's selections but not its own, so the user sees what choosing
another value of that facet would give (disjunctive faceting).
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from whoosh.reading import IndexReader

from index.facets import taxonomy as _taxonomy
from index.models import FacetCount, SearchRequest
from index.search import bitsets
from index.search.bitsets import LIST_FACETS, NO_TOPIC, NO_YEAR, FacetMasks, bits

# The facets the index counts (the rest of `index.models.FACET_FIELDS` are the user's layer).
FACETS = ("topic", "hardware", "year", "venue", "author", "keyword", "category")
# Venue, author, keyword and category lists show this many values (plus any selected
# ones), unless the request asks for more (`facet_limits`).
LISTED_VALUES = 15
# A single-valued facet (venue) with at most this many values, each with a mask, is counted
# from its masks at any size: one `&` per value costs less than walking the match set.
MASK_COUNTED_VALUES = 64
# A listed facet's top masks are tried on a small match set (`top_counts`) when it holds
# at least one document per this many bits of masks to intersect: below that, walking
# its documents' columns costs less than the intersections.
BITS_PER_DOCUMENT = 10_000


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
    top, cut = top_counts(masks, facet, within, value_limit(request, facet, LISTED_VALUES))
    shown = {value for value, _ in top}
    top += [
        (value, (masks.value_mask(facet, value, reader) & within).bit_count())
        for value in sorted(chosen - shown)
    ]
    label = category_label if facet == "category" else str
    return tuple(
        FacetCount(facet, value, label(value), count, value in chosen) for value, count in top
    ), cut


def top_counts(
    masks: FacetMasks, facet: str, within: int, limit: int
) -> tuple[list[tuple[str, int]], bool]:
    """The `limit` most frequent values of a venue or listed facet among the documents in
    `within`, and whether values were left out.

    Small match sets are counted exactly, large ones from the top masks (one `&` per
    value), unless more values are asked for than have masks: then one pass over the
    columns (~200 ms for authors at 100,000 papers, and only when a user pages that far
    through a panel's "more…"). Exactly means: a venue whose every value has a mask (a
    paper has one venue, so a mask counts what its column does) by its masks at any size;
    a listed facet no paper has a value of not at all; another listed facet by its top
    masks when their `limit`-th count is above what any other value can reach
    (`FacetMasks.unmasked_bound`), else document by document from the columns. Walking
    the match set of a typed word cost more than those intersections (issue 50).
    """
    total = within.bit_count()
    if total == 0:
        return [], False
    values = masks.masks[facet]
    every_value_masked = len(values) < bitsets.TOP_MASKS
    if every_value_masked and (
        not values or (facet not in LIST_FACETS and len(values) <= MASK_COUNTED_VALUES)
    ):
        counts = _mask_counts(values, within)
        return _most_frequent(counts, limit), len(counts) > limit
    if total > bitsets.EXACT_COUNT_LIMIT and (limit <= len(values) or every_value_masked):
        counts = _mask_counts(values, within)
        # Values without a mask of their own may match too: then there may be more.
        return _most_frequent(counts, limit), len(counts) > limit or not every_value_masked
    if (
        facet in LIST_FACETS
        and 0 < limit < len(values)
        and total * BITS_PER_DOCUMENT >= len(values) * masks.size
    ):
        bound = masks.unmasked_bound(facet)
        if bound is not None:
            counts = _mask_counts(values, within)
            top = _most_frequent(counts, limit)
            # More than `limit` values match (masked ones), and none without a mask can
            # reach the last one shown: the columns would give the same.
            if len(counts) > limit and top[-1][1] > bound:
                return top, True
    docnums = bits(within)
    if facet in LIST_FACETS:
        # A name listed twice on one paper counts twice here (once in a mask).
        counter = Counter(chain.from_iterable(map(masks.lists[facet].__getitem__, docnums)))
    else:
        counter = Counter(map(masks.venues.__getitem__, docnums))
        counter.pop("", None)
    return _most_frequent(counter, limit), len(counter) > limit


def _mask_counts(values: dict[str, int], within: int) -> dict[str, int]:
    """How many documents of `within` each value's mask holds, for those holding any."""
    counts = {value: (mask & within).bit_count() for value, mask in values.items()}
    return {value: count for value, count in counts.items() if count}


def _most_frequent(counts: dict[str, int], limit: int) -> list[tuple[str, int]]:
    """The `limit` values with the highest counts, ties by value: `sorted(...)[:limit]`
    without a Python key for every value (3,000 authors of a narrow search at 10,000
    papers), only for those at least as frequent as the `limit`-th. The counts alone are
    sorted in C (`heapq.nlargest` steps through them in Python)."""
    if len(counts) > limit > 0:
        cut = sorted(counts.values(), reverse=True)[limit - 1]
        counts = {value: count for value, count in counts.items() if count >= cut}
    return sorted(counts.items(), key=_by_count)[:limit]


def _by_count(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]


def category_label(category: str) -> str:
    """ "hep-ph" -> "High Energy Physics - Phenomenology (hep-ph)", from arXiv's own table."""
    name = arxiv_category_name(category)
    return f"{name} ({category})" if name else category
