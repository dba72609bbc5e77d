"""Per-value document bitmasks: facet counts by intersection instead of `groupedby`.

A mask is a Python int with bit d set when document d has the value. Built once per open
index (docs/whoosh.md: ~70 ms at 10k, ~0.7 s at 100k), after which counting a facet value over
any match set is one `&` and one `bit_count()`: 1-15 ms for every facet at 100k, where
Whoosh's `groupedby` rebuilt every document's values from the postings on every search.
"""

from __future__ import annotations

import logging
import marshal
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from functools import cached_property
from itertools import chain
from typing import Any

from whoosh.idsets import DocIdSet
from whoosh.reading import IndexReader, TermNotFound

from index.search.stored_postings import StoredPostings
from index.whoosh_ext.blocks import id_blocks
from index.whoosh_ext.columns import column_values

# Author and venue values with their own mask (the most frequent); the rest are counted
# from the per-document columns when the match set is small enough.
TOP_MASKS = 256
# Match sets up to this size count author and venue values exactly (index.search.counting).
EXACT_COUNT_LIMIT = 4000

log = logging.getLogger("paperscope.index")

_BIT_OFFSETS = tuple(tuple(j for j in range(8) if byte >> j & 1) for byte in range(256))


def mask_of(docnums: Iterable[int], size: int) -> int:
    """The mask with exactly these bits set (a bytearray is far cheaper than shifting)."""
    ids = docnums if isinstance(docnums, list) else list(docnums)
    if len(ids) < 24:
        mask = 0
        for docnum in ids:
            mask |= 1 << docnum
        return mask
    buffer = bytearray((size >> 3) + 1)
    for docnum in ids:
        buffer[docnum >> 3] |= 1 << (docnum & 7)
    return int.from_bytes(buffer, "little")


def posting_ids(
    reader: IndexReader,
    fieldname: str,
    text: str | bytes,
    stored: StoredPostings | None = None,
) -> list[int]:
    """Every document number holding the term, deleted ones included (mask with `live`).

    A long list `stored` holds is read from it (index.search.stored_postings); the others
    from Whoosh's posting blocks, read whole (index.whoosh_ext.blocks: ~10x faster on long
    lists than stepping a matcher).
    """
    out: list[int] = []
    for leaf, offset in reader.leaf_readers():
        if stored:
            found = stored.ids(leaf, offset, fieldname, text)
            if found is not None:
                out.extend(found)
                continue
        try:
            matcher = leaf.postings(fieldname, text)
        except TermNotFound:
            continue
        for ids in id_blocks(matcher):
            out.extend(ids if not offset else [d + offset for d in ids])
    return out


def bits(mask: int) -> list[int]:
    """The document numbers set in `mask`, ascending."""
    out: list[int] = []
    if not mask:
        return out
    data = mask.to_bytes((mask.bit_length() + 7) >> 3, "little")
    offsets = _BIT_OFFSETS
    for index, byte in enumerate(data):
        if byte:
            base = index << 3
            out.extend(base + j for j in offsets[byte])
    return out


def member_test(mask: int, size: int) -> bytes:
    """Bytes for O(1) membership: `data[d >> 3] >> (d & 7) & 1` (shifting an int is O(n))."""
    return mask.to_bytes((size >> 3) + 1, "little")


LIST_FACETS = ("author", "keyword", "category")  # facets with several values per paper

# Every document's values of each of LIST_FACETS.
ListColumns = dict[str, list[tuple[str, ...]]]


def list_columns(reader: IndexReader) -> ListColumns:
    """Each document's values of the multi-valued facets, from their columns."""
    return {
        facet: [
            tuple(value.decode("utf-8").split("\x1f")) if value else ()
            for value in column_values(reader, f"{facet}_list")
        ]
        for facet in LIST_FACETS
    }


def list_columns_fit(lists: object, size: int) -> bool:
    """`lists` has every multi-valued facet's column, one entry per document."""
    return (
        isinstance(lists, dict)
        and set(LIST_FACETS) <= lists.keys()
        and all(isinstance(column, list) and len(column) == size for column in lists.values())
    )


NO_YEAR = "0"  # the year facet's value for papers without a year
NO_TOPIC = "none"  # the topic facet's value for papers the tagger gave no topic


# A column saved in two parts: a whole file's (of which the first `int` entries are
# kept) and its changes' (index.search.facet_changes), each marshalled.
Parts = tuple[bytes, int, bytes]


def _decoded(data: bytes | Parts) -> Any:
    """A saved column's marshalled bytes decoded, or None when they cannot be; `Parts`
    are joined: lists end to end, dicts of lists name by name."""
    try:
        if isinstance(data, bytes):
            return marshal.loads(data)
        whole, cut, more = marshal.loads(data[0]), data[1], marshal.loads(data[2])
    except (ValueError, EOFError, TypeError):
        return None
    if isinstance(whole, list) and isinstance(more, list):
        return whole[:cut] + more
    if isinstance(whole, dict) and isinstance(more, dict) and whole.keys() == more.keys():
        return {name: whole[name][:cut] + more[name] for name in whole}
    return None


class FacetMasks:
    """Every facet value's mask for one open index, plus the columns sorting needs.

    Computed from the index (index.search.facet_build: its columns and the facet fields'
    posting lists, ~0.4 s at 11,000 papers), patched after an in-place update, or restored
    from what the build saved beside it (index.search.facet_store: one file read); each
    gives a `state()` that `FacetMasks.restored` takes.
    """

    # What `state()` holds and `restored` takes: plain ints, strings, lists and dicts.
    STATE = (
        "size",
        "live",
        "ids",
        "venues",
        "lists",
        "masks",
        "year_of",
        "titles",
        "order_title",
        "order_year",
    )

    @classmethod
    def restored(
        cls, state: dict[str, Any], recompute: Callable[[str], Any] | None = None
    ) -> FacetMasks:
        """The masks from a saved `state()`, without reading the index.

        Its `lists` and `titles` may be marshalled bytes (index.search.facet_store): they
        are decoded on first use, and `recompute(name)` reads that column from the index
        instead should the bytes not hold one entry per document.
        """
        masks = cls.__new__(cls)
        masks._adopt(state, recompute)
        return masks

    def state(self) -> dict[str, Any]:
        """Everything computed from the index, as plain values (for `restored`)."""
        return {
            "size": self.size,
            "live": self.live,
            "ids": self.ids,
            "venues": self.venues,
            "lists": self.lists,
            "masks": self.masks,
            "year_of": self.year_of,
            "titles": self.titles,
            "order_title": self.order_title,
            "order_year": self.order_year,
        }

    def _adopt(self, state: dict[str, Any], recompute: Callable[[str], Any] | None = None) -> None:
        self.size: int = state["size"]
        self.live: int = state["live"]
        self.ids: list[str] = state["ids"]
        self.venues: list[str] = state["venues"]
        saved = state["lists"]
        undecoded = isinstance(saved, (bytes, tuple))
        self._lists: ListColumns | None = None if undecoded else saved
        self._lists_data: bytes | Parts | None = saved if undecoded else None
        self._recompute = recompute
        self._decode_lock = threading.Lock()
        self.masks: dict[str, dict[str, int]] = state["masks"]
        self._reader_fields = {
            "venue": "venue_facet",
            **{facet: f"{facet}_facet" for facet in LIST_FACETS},
        }
        self.year_of: list[int] = state["year_of"]
        titles = state["titles"]
        undecoded = isinstance(titles, (bytes, tuple))
        self._titles: list[str] | None = None if undecoded else titles
        self._titles_data: bytes | Parts | None = titles if undecoded else None
        self.order_title: list[int] = state["order_title"]
        self.order_year: list[int] = state["order_year"]
        self._extra: dict[tuple[str, str], int] = {}
        self._folded: dict[str, dict[str, tuple[str, ...]]] = {}
        self._bounds: dict[str, int | None] = {}

    @property
    def lists(self) -> ListColumns:
        """Each document's authors, keywords and categories.

        Restored from a saved file they are decoded here, on first use: at 100,000 papers
        the author column is 9 MB of tuples, 0.2 s of a 0.3 s read, and neither a start's
        first page nor a large match set's counts need it (they use the masks).
        """
        if self._lists is None:
            with self._decode_lock:
                if self._lists is None:
                    self._lists = self._decoded_lists()
        return self._lists

    def undecoded_lists(self) -> bytes | Parts | None:
        """The saved list columns while they are still undecoded, else None: an in-place
        update joins them to its new documents' without decoding them (0.06-0.1 s at
        100,000 papers: index.search.facet_build)."""
        with self._decode_lock:
            return self._lists_data if self._lists is None else None

    def _decoded_lists(self) -> ListColumns:
        assert self._lists_data is not None
        lists = _decoded(self._lists_data)
        self._lists_data = None
        if list_columns_fit(lists, self.size):
            return lists
        return self._recomputed("lists", "facet columns")

    @property
    def titles(self) -> list[str]:
        """Each document's title as the `title` order sorts it (folded).

        Restored from a saved file they are decoded on first use, as `lists` are: only
        the sorts built on demand and an in-place update read them (100,000 papers: ~9 ms
        of a warm start's file read).
        """
        if self._titles is None:
            with self._decode_lock:
                if self._titles is None:
                    self._titles = self._decoded_titles()
        return self._titles

    def _decoded_titles(self) -> list[str]:
        assert self._titles_data is not None
        titles = _decoded(self._titles_data)
        self._titles_data = None
        if (
            isinstance(titles, list)
            and len(titles) == self.size
            and all(isinstance(title, str) for title in titles)
        ):
            return titles
        return self._recomputed("titles", "titles")

    def _recomputed(self, name: str, what: str) -> Any:
        """The column `name` read from the index: the saved one did not fit it."""
        if self._recompute is None:
            raise ValueError(f"the saved {what} do not fit the index")
        log.warning("the saved %s do not fit the index; reading them again", what)
        return self._recompute(name)

    @property
    def authors(self) -> list[tuple[str, ...]]:
        """Each document's authors (the author column of `lists`)."""
        return self.lists["author"]

    def preload(self) -> None:
        """Decodes the saved columns now (a worker after the first page), not at a keystroke,
        and finds the listed facets' `unmasked_bound`s."""
        self.lists  # noqa: B018  (the property decodes them)
        self.titles  # noqa: B018
        for facet in LIST_FACETS:
            self.unmasked_bound(facet)

    @cached_property
    def order_year_asc(self) -> list[int]:
        """Oldest first (papers without a year last), then by title, then id; built on
        first use."""
        live = set(bits(self.live))
        titles, year_of, ids = self.titles, self.year_of, self.ids
        return [
            d
            for d in sorted(
                range(self.size), key=lambda d: (year_of[d] == 0, year_of[d], titles[d], ids[d])
            )
            if d in live
        ]

    @cached_property
    def order_author(self) -> list[int]:
        """By the first author's family name (the last word of the name), then year, title
        and id."""
        live = set(bits(self.live))
        titles, year_of, authors, ids = self.titles, self.year_of, self.authors, self.ids

        def key(d: int) -> tuple[bool, str, str, int, str, str]:
            first = authors[d][0] if authors[d] else ""
            family = first.split()[-1].casefold() if first.split() else ""
            return (not family, family, first.casefold(), -year_of[d], titles[d], ids[d])

        return [d for d in sorted(range(self.size), key=key) if d in live]

    def order(self, sort: str) -> list[int]:
        """The documents in a non-relevance sort order (`SortOrder`)."""
        if sort == "title":
            return self.order_title
        if sort == "year-asc":
            return self.order_year_asc
        if sort == "author":
            return self.order_author
        return self.order_year

    def value_mask(self, facet: str, value: str, reader: IndexReader) -> int:
        """The mask of one value, built on demand for values outside the top masks."""
        known = self.masks[facet].get(value)
        if known is not None:
            return known
        key = (facet, value)
        if key not in self._extra:
            fieldname = self._reader_fields.get(facet)
            mask = 0
            if fieldname is not None:
                try:
                    mask = mask_of(posting_ids(reader, fieldname, value), self.size)
                except TermNotFound:  # a value the index has never seen
                    mask = 0
            self._extra[key] = mask & self.live
        return self._extra[key]

    def folded_mask(self, facet: str, text: str, reader: IndexReader) -> int:
        """The documents with a value of a listed facet equal to `text` ignoring case.

        `keyword:gpus` finds the source tag "GPUs": what a typed query means, where a
        clicked value (`value_mask`) is exact.
        """
        wanted = self._folded_values(facet).get(text.strip().casefold(), ())
        mask = 0
        for value in wanted:
            mask |= self.value_mask(facet, value, reader)
        return mask & self.live

    def _folded_values(self, facet: str) -> dict[str, tuple[str, ...]]:
        """A listed facet's values by their case-folded form, read from its column once."""
        folded = self._folded.get(facet)
        if folded is None:
            grouped: dict[str, set[str]] = {}
            for values in self.lists[facet]:
                for value in values:
                    grouped.setdefault(value.strip().casefold(), set()).add(value)
            folded = {key: tuple(sorted(group)) for key, group in grouped.items()}
            self._folded[facet] = folded
        return folded

    def unmasked_bound(self, facet: str) -> int | None:
        """The most times any value of a listed facet without a mask of its own occurs in
        its column: the masks go to the most frequent values, so no other value occurs
        more often than the least frequent of those. None when a mask does not count what
        the column does (a paper listing a masked name twice counts it twice in the column,
        once in the mask): then only the columns count that facet exactly.

        One pass over the column on first use (~3 ms at 10,000 papers; `preload` does it
        in a worker), remembered: the masks and columns never change in place.
        """
        if facet not in self._bounds:
            occurs = Counter(chain.from_iterable(self.lists[facet]))
            masks = self.masks[facet]
            exact = all(occurs[value] == mask.bit_count() for value, mask in masks.items())
            self._bounds[facet] = min(map(occurs.__getitem__, masks), default=0) if exact else None
        return self._bounds[facet]


class AllowedDocs(DocIdSet):
    """A filter Whoosh's collector can test in O(1) per document."""

    def __init__(self, mask: int, size: int) -> None:
        self._data = member_test(mask, size)
        self._count = mask.bit_count()

    def __contains__(self, docnum: object) -> bool:
        d = int(docnum)  # type: ignore[call-overload]
        return d >> 3 < len(self._data) and bool(self._data[d >> 3] >> (d & 7) & 1)

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return True


class Lru(OrderedDict):
    """A small thread-safe LRU map."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.max_size = size
        self.lock = threading.Lock()

    def fetch(self, key: Any) -> Any:
        with self.lock:
            value = self.get(key)
            if value is not None:
                self.move_to_end(key)
            return value

    def store(self, key: Any, value: Any) -> None:
        with self.lock:
            self[key] = value
            while len(self) > self.max_size:
                self.popitem(last=False)
