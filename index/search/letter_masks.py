"""The first keystrokes' stored masks as the engine reads them, completed on first use.

The build stores, per Whoosh segment, the match set of every one-letter prefix and of the
commonest two-letter ones (index.search.prefixes.write_letters), keyed by the parsed
query's repr. An in-place update adds a small segment and does not compute its masks:
parsing the 126 prefixes again and reading their terms in the new segment was ~0.17 s of
a ~1.1 s update at 100,000 papers. A segment the file lacks is completed here instead,
one prefix at a time, the first time a search asks for it: the file's masks for the
segments it covers, and the node's terms (stored beside them) looked up in the segments
it lacks, a few small segments of recent edits (about a millisecond a prefix).

Nothing here can go stale: a mask is keyed by the repr of the query the engine has just
parsed, and the repr names the terms. A prefix whose expansion an update changed (a new
word among a letter's commonest) simply finds no stored mask and is computed as any other
prefix; the next whole write stores it again.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path

from whoosh.reading import IndexReader, TermNotFound
from whoosh.searching import Searcher

from index.search.bitsets import mask_of
from index.search.prefixes import read_letters_file
from index.whoosh_ext.blocks import id_blocks
from index.whoosh_ext.internals import segment_id

__all__ = ["LetterMasks", "letters_outdated", "read_letters"]

SearcherFor = Callable[[], AbstractContextManager[Searcher]]


class LetterMasks(Mapping[str, int]):
    """Node repr -> the documents it matches over the whole index (deleted ones included).

    Args:
        parts: for each node, its base64 masks and the first document number of each
            segment the file covers.
        terms: each node's terms, for the segments the file lacks.
        missing: the segments the file lacks, id -> first document number.
        searcher: a searcher of the same index for this thread (the engine's pool).
    """

    def __init__(
        self,
        parts: dict[str, list[tuple[str, int]]],
        terms: Mapping[str, list[tuple[str, str]]],
        missing: dict[str, int],
        searcher: SearcherFor | None,
    ) -> None:
        self._parts = parts
        self._terms = terms
        self._missing = missing
        self._searcher = searcher
        self._done: dict[str, int] = {}
        self._lock = threading.Lock()

    def get(self, key: str, default: int | None = None) -> int | None:  # type: ignore[override]
        """The node's mask, combined (and the segments the file lacks read) on first use;
        `default` for a node without stored masks."""
        mask = self._done.get(key)
        if mask is not None or key not in self._parts:
            return default if mask is None else mask
        with self._lock:  # two threads asking at once: one computes
            mask = self._done.get(key)
            if mask is None:
                try:
                    mask = self._combined(key)
                except (ValueError, TypeError):  # damaged base64: computed as usual
                    mask = None
                if mask is None:  # or the index moved on under the engine: not served
                    return default
                self._done[key] = mask
        return mask

    def __getitem__(self, key: str) -> int:
        mask = self.get(key)
        if mask is None:
            raise KeyError(key)
        return mask

    def __contains__(self, key: object) -> bool:
        return key in self._parts

    def __iter__(self) -> Iterator[str]:
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)

    def _combined(self, key: str) -> int | None:
        mask = 0
        for data, offset in self._parts[key]:
            mask |= int.from_bytes(base64.b64decode(data), "little") << offset
        if not self._missing:
            return mask
        if self._searcher is None:
            return None
        with self._searcher() as searcher:
            leaves = searcher.reader().leaf_readers()
            seen = {segment_id(leaf): offset for leaf, offset in leaves}
            if any(seen.get(segment) != offset for segment, offset in self._missing.items()):
                return None
            for leaf, offset in leaves:
                if segment_id(leaf) in self._missing:
                    mask |= _terms_mask(leaf, self._terms[key]) << offset
        return mask


def _terms_mask(leaf: IndexReader, terms: list[tuple[str, str]]) -> int:
    """The documents of one segment holding any of `terms` (deleted ones included)."""
    found: list[int] = []
    for fieldname, text in terms:
        try:
            matcher = leaf.postings(fieldname, text)
        except TermNotFound:
            continue
        for ids in id_blocks(matcher):
            found.extend(ids)
    return mask_of(found, leaf.doc_count_all())


def read_letters(
    folder: Path, reader: IndexReader, searcher: SearcherFor | None = None
) -> LetterMasks:
    """The stored masks of the index `reader` reads, by node repr; empty when the file
    covers none of its segments, or lacks some and has no terms to complete them with
    (format 2), or is missing or damaged.

    Only nodes every covered segment has a mask for are served. The masks are decoded,
    and the segments the file lacks read (with `searcher`), when a search first asks.
    """
    segments, terms = read_letters_file(folder)
    covered: list[tuple[dict[str, str], int]] = []
    missing: dict[str, int] = {}
    for leaf, offset in reader.leaf_readers():
        segment = segment_id(leaf)
        if segment is None:  # Whoosh's stock paths: computed as usual
            return LetterMasks({}, {}, {}, None)
        if segment in segments:
            covered.append((segments[segment], offset))
        else:
            missing[segment] = offset
    if not covered or (missing and terms is None):
        return LetterMasks({}, {}, {}, None)
    keys = set(covered[0][0]).intersection(*(masks for masks, _ in covered[1:]))
    if missing:
        keys &= set(terms or ())
    parts = {key: [(masks[key], offset) for masks, offset in covered] for key in keys}
    if not all(isinstance(data, str) for part in parts.values() for data, _ in part):
        return LetterMasks({}, {}, {}, None)  # damaged
    return LetterMasks(parts, terms or {}, missing, searcher)


def letters_outdated(folder: Path, reader: IndexReader) -> bool:
    """Whether an in-place update must store the masks again (index.store.writer's
    `store_letters`) rather than leave the new segment to `LetterMasks`: the file is
    missing, damaged or of an older format, holds no prefix (a library that was too
    small for masks), or covers none of the index's segments."""
    segments, terms = read_letters_file(folder)
    if not terms:
        return True
    return not any(segment_id(leaf) in segments for leaf, _ in reader.leaf_readers())
