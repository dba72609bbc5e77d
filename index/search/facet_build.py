"""Computing the facet masks (index.search.bitsets.FacetMasks) from an index.

Two ways to the same state: `facet_masks` reads the whole index (a build, or an open that
found no saved masks), and `updated_facet_masks` patches the masks saved before an in-place
update. Whoosh appends an update's documents as new segments at the end and leaves the
leading segments' documents where they were (only their deletions change), so the masks of
those documents are kept and only the new segments are read. At 1,000,000 papers the whole
computation took 42 s of a 48 s update of 100 papers; the patch reads the new segment, the
deletions and, for each large facet, which values now have a mask of their own.

A segment merge can renumber documents: the patch keeps only the segments that are the same,
in the same place, with the same document count as before, and reads everything after the
first that is not. The result is the state a full computation gives, exactly (tested).
"""

from __future__ import annotations

import marshal
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from heapq import nsmallest
from itertools import chain
from typing import Any, NamedTuple

from whoosh.reading import IndexReader, MultiReader

from index.search import bitsets
from index.search.bitsets import (
    LIST_FACETS,
    NO_TOPIC,
    NO_YEAR,
    FacetMasks,
    ListColumns,
    Parts,
    bits,
    list_columns,
    list_columns_fit,
    mask_of,
    posting_ids,
)
from index.whoosh_ext.columns import column_values, deleted_docnums

__all__ = ["Computed", "Counts", "computed_facets", "facet_masks", "updated_facet_masks"]

# The small facets: a mask for every value, from their fields' lexicons.
FIELD_FACETS = {"topic": "topic", "hardware": "hw", "year": "year_facet"}
# The large ones: a mask for the `bitsets.TOP_MASKS` most frequent values, the rest on demand.
VALUE_FACETS = {"venue": "venue_facet", **{facet: f"{facet}_facet" for facet in LIST_FACETS}}
# Values the masks add that are no term of the facet's field (papers without one).
_ADDED = {"topic": NO_TOPIC, "year": NO_YEAR}
# An update with more new documents than this sorts the whole index again, rather than
# placing each new document in the kept sort orders (one list insertion each).
_INSERT_LIMIT = 2000

# Each large facet's documents per value, deleted documents too (as their postings count).
Counts = dict[str, dict[str, int]]


class Computed(NamedTuple):
    """The masks, and the value counts that chose the large facets' masked values (saved
    beside them, so an update adds its new documents' counts instead of counting every
    document's values again: 0.25-0.37 s at 100,000 papers)."""

    masks: FacetMasks
    counts: Counts


class _Columns(NamedTuple):
    """Every document's values that the masks keep, in document order."""

    ids: list[str]
    venues: list[str]
    titles: list[str]
    lists: ListColumns

    @classmethod
    def read(cls, reader: IndexReader) -> _Columns:
        return cls(
            column_values(reader, "id"),
            column_values(reader, "venue_facet"),
            column_values(reader, "title_sort"),
            list_columns(reader),
        )


def facet_masks(reader: IndexReader) -> FacetMasks:
    """Every facet value's mask, the columns and the sort orders of the whole index."""
    return computed_facets(reader).masks


def computed_facets(reader: IndexReader) -> Computed:
    """`facet_masks`, with the value counts."""
    size = reader.doc_count_all()
    columns = _Columns.read(reader)
    masks = {facet: _field_masks(reader, field, size) for facet, field in FIELD_FACETS.items()}
    counts = _value_counts(columns.venues, columns.lists)
    for facet, values in _top_values(counts).items():
        field = VALUE_FACETS[facet]
        masks[facet] = {value: mask_of(posting_ids(reader, field, value), size) for value in values}
    year_of = _year_column(masks["year"], size)
    live = _live(reader)
    orders = _sorted_orders(columns, year_of, live)
    return Computed(_assembled(size, live, columns, masks, year_of, orders), counts)


def updated_facet_masks(
    before: FacetMasks,
    before_key: Sequence[Sequence[Any]],
    reader: IndexReader,
    key: Sequence[Sequence[Any]],
    counts: Counts | None = None,
) -> Computed:
    """The masks of the index `reader` reads, whose segments are `key`, patched from
    `before`: the masks of the same index before an update, whose segments were
    `before_key` (both as index.search.facet_store.index_key gives them); `counts`:
    `before`'s value counts, if saved."""
    kept, kept_leaves = _kept(before_key, key)
    counted = counts is not None and set(counts) == set(VALUE_FACETS)
    lazy = _joinable(before, kept) if counted else None
    try:
        old = before.lists if lazy is None else {}
    except ValueError:  # the saved columns did not fit: nothing to patch
        kept = 0
    if not kept:
        return computed_facets(reader)
    size = reader.doc_count_all()
    leaves = [leaf for leaf, _ in reader.leaf_readers()][kept_leaves:]
    tail = MultiReader(leaves) if leaves else None
    added = size - kept
    columns = _Columns(
        before.ids[:kept],
        before.venues[:kept],
        before.titles[:kept],
        {facet: old[facet][:kept] for facet in LIST_FACETS} if lazy is None else {},
    )
    new = _Columns.read(tail) if tail is not None else _Columns([], [], [], {})
    if tail is not None:
        columns.ids.extend(new.ids)
        columns.venues.extend(new.venues)
        columns.titles.extend(new.titles)
        for facet in LIST_FACETS if lazy is None else ():
            columns.lists[facet].extend(new.lists[facet])
    if counts is not None and counted:
        # The counts before, less the documents that lost their numbers (a dropped or
        # merged segment), plus the new segments' (the merged documents among them).
        lost = lazy.lost if lazy is not None else {f: old[f][kept:] for f in LIST_FACETS}
        gone = _value_counts(before.venues[kept:], lost)
        fresh = _value_counts(new.venues, new.lists) if tail is not None else {}
        counts = {
            facet: _changed(counted, fresh.get(facet, {}), gone[facet])
            for facet, counted in counts.items()
        }
    else:
        counts = _value_counts(columns.venues, columns.lists)
    below = (1 << kept) - 1

    def patched(facet: str, value: str, field: str) -> int:
        mask = before.masks[facet].get(value, 0) & below
        if tail is not None:
            mask |= mask_of(posting_ids(tail, field, value), added) << kept
        return mask

    masks: dict[str, dict[str, int]] = {}
    for facet, field in FIELD_FACETS.items():
        values = set(before.masks[facet])
        values.discard(_ADDED.get(facet, ""))  # computed again below
        if tail is not None:
            values.update(text.decode("utf-8") for text in tail.lexicon(field))
        values.discard("")
        found = {value: patched(facet, value, field) for value in sorted(values)}
        masks[facet] = {value: mask for value, mask in found.items() if mask}
    for facet, top in _top_values(counts).items():
        field = VALUE_FACETS[facet]
        masks[facet] = {
            value: patched(facet, value, field)
            if value in before.masks[facet]
            else mask_of(posting_ids(reader, field, value), size)
            for value in top
        }
    year_of = before.year_of[:kept]
    if tail is not None:
        year_of += _year_column({v: m >> kept for v, m in masks["year"].items()}, added)
    live = _live(reader)
    orders = _kept_orders(before, columns, year_of, live, kept)
    lists: Parts | None = None
    if lazy is not None:  # the saved columns stay undecoded, the new ones joined to them
        more = lazy.more
        if tail is not None:
            more = {f: more[f] + new.lists[f] for f in LIST_FACETS}
        lists = (lazy.whole, lazy.cut, marshal.dumps(more, 4))
    return Computed(_assembled(size, live, columns, masks, year_of, orders, lists), counts)


class _Joinable(NamedTuple):
    """Saved list columns an update extends undecoded: the whole file's part, the number of
    its documents kept, the changes' part decoded (to be extended), and the columns of
    the documents the update renumbered (for their counts)."""

    whole: bytes
    cut: int
    more: ListColumns
    lost: ListColumns


def _joinable(before: FacetMasks, kept: int) -> _Joinable | None:
    """`before`'s list columns as `_Joinable` when they are undecoded and the update kept
    every document of their whole file's part; None when they must be decoded."""
    data = before.undecoded_lists()
    if isinstance(data, bytes) and kept == before.size:
        nothing: ListColumns = {facet: [] for facet in LIST_FACETS}
        return _Joinable(data, kept, nothing, nothing)
    if not isinstance(data, tuple) or kept < data[1]:
        return None
    whole, cut, part = data
    try:
        more = marshal.loads(part)
    except (ValueError, EOFError, TypeError):
        return None
    if not list_columns_fit(more, before.size - cut):
        return None
    return _Joinable(
        whole,
        cut,
        {facet: more[facet][: kept - cut] for facet in LIST_FACETS},
        {facet: more[facet][kept - cut :] for facet in LIST_FACETS},
    )


def _changed(counts: dict[str, int], more: dict[str, int], less: dict[str, int]) -> dict[str, int]:
    """`counts` plus `more` less `less`, without values counted 0 (as counting gives)."""
    out = dict(counts)
    for value, count in more.items():
        out[value] = out.get(value, 0) + count
    for value, count in less.items():
        left = out.get(value, 0) - count
        if left:
            out[value] = left
        else:
            out.pop(value, None)
    return out


def _kept(before: Sequence[Sequence[Any]], after: Sequence[Sequence[Any]]) -> tuple[int, int]:
    """How many leading documents, and segments, kept their numbers through the update:
    the same segments, in the same places, with as many documents as before."""
    docs = segments = 0
    for (old_id, old_count, _), (new_id, new_count, _) in zip(before, after):
        if old_id != new_id or old_count != new_count:  # another segment, or a merged one
            break
        docs += old_count
        segments += 1
    return docs, segments


def _live(reader: IndexReader) -> int:
    size = reader.doc_count_all()
    return ((1 << size) - 1) & ~mask_of(deleted_docnums(reader), size)


def _field_masks(reader: IndexReader, fieldname: str, size: int) -> dict[str, int]:
    """A mask for every term of a small field (papers without a year: no mask here)."""
    return {
        text.decode("utf-8"): mask_of(posting_ids(reader, fieldname, text), size)
        for text in reader.lexicon(fieldname)
        if text
    }


def _value_counts(venues: list[str], lists: ListColumns) -> Counts:
    """Each large facet's documents per value, from the columns (deleted documents too, as
    their postings are): walking a lexicon of 100,000 names through Whoosh's merged reader
    would cost seconds."""
    counts: Counts = {
        facet: dict(Counter(chain.from_iterable(column))) for facet, column in lists.items()
    }
    venue = Counter(venues)
    venue.pop("", None)
    counts["venue"] = dict(venue)
    return counts


def _top_values(counts: Counts) -> dict[str, list[str]]:
    """The values of each large facet that get a mask: the most frequent, ties by name."""
    # `nsmallest` is `sorted(...)[:n]` without sorting 300,000 author names at 1M papers.
    return {
        facet: [value for value, _ in nsmallest(bitsets.TOP_MASKS, counted.items(), key=_by_count)]
        for facet, counted in counts.items()
    }


def _by_count(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]


def _year_column(years: dict[str, int], size: int) -> list[int]:
    """Each document's year (0: none), from the year masks."""
    year_of = [0] * size
    for year, mask in years.items():
        number = int(year)
        for docnum in bits(mask):
            year_of[docnum] = number
    return year_of


def _order_keys(columns: _Columns, year_of: list[int]) -> tuple[Callable[[int], Any], ...]:
    """The sort keys of `order_title` and `order_year`: by title, and by year (newest first)
    then title; equal ones by paper id, never by document number, which a rebuild of the
    same library may assign differently (the parallel writer)."""
    titles, ids = columns.titles, columns.ids
    return (
        lambda d: (titles[d], ids[d]),
        lambda d: (-year_of[d], titles[d], ids[d]),
    )


def _sorted_orders(columns: _Columns, year_of: list[int], live: int) -> tuple[list[int], ...]:
    """The live documents in each order of `_order_keys`."""
    alive = set(bits(live))
    everything = range(len(columns.titles))
    return tuple(
        [d for d in sorted(everything, key=key) if d in alive]
        for key in _order_keys(columns, year_of)
    )


def _kept_orders(
    before: FacetMasks, columns: _Columns, year_of: list[int], live: int, kept: int
) -> tuple[list[int], ...]:
    """The sort orders of `before` without its deleted and renumbered documents, with
    the new documents placed in them: what `_sorted_orders` gives."""
    size = len(columns.titles)
    if size - kept > _INSERT_LIMIT:
        return _sorted_orders(columns, year_of, live)
    gone = set(bits(~live & ((1 << kept) - 1)))
    orders = []
    for old, key in zip((before.order_title, before.order_year), _order_keys(columns, year_of)):
        order = [d for d in old if d < kept and d not in gone]
        for docnum in sorted(bits(live >> kept << kept), key=key):
            order.insert(bisect_right(order, key(docnum), key=key), docnum)
        orders.append(order)
    return tuple(orders)


def _assembled(
    size: int,
    live: int,
    columns: _Columns,
    masks: dict[str, dict[str, int]],
    year_of: list[int],
    orders: tuple[list[int], ...],
    lists: Parts | None = None,
) -> FacetMasks:
    """The state, with the masks of papers without a year and without a topic; `lists`:
    the list columns undecoded, instead of `columns.lists`."""
    # Papers without a year are a value of their own, "0" (`NO_YEAR`), so they can be
    # selected ("no year") like any year; ranges never include it. Likewise papers with no
    # topic (no evidence for one: the tagger forces none), so a user can see and select
    # what the topic facet does not cover.
    for facet, value in _ADDED.items():
        covered = 0
        for mask in masks[facet].values():
            covered |= mask
        if live & ~covered:
            masks[facet][value] = live & ~covered
    order_title, order_year = orders
    return FacetMasks.restored(
        {
            "size": size,
            "live": live,
            "ids": columns.ids,
            "venues": columns.venues,
            "lists": columns.lists if lists is None else lists,
            "masks": masks,
            "year_of": year_of,
            "titles": columns.titles,
            "order_title": order_title,
            "order_year": order_year,
        }
    )
