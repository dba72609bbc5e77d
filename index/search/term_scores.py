"""Each scored word's BM25F part for every document holding it, read once per open index.

Search as you type ranks every keystroke's matches by the words typed so far: typing
"low latency llm serving" scores "low" again at each of the twenty keystrokes after it.
Reading a word's postings is most of that: Whoosh stores a block's ids, weights and
positions as one compressed pickle, so even the ids of a block cost its whole decoding,
and a document's field length is a seek of its own. At 1,000,000 papers the ranking of
one keystroke of that query took ~0.5-2.5 s, almost all of it reading the same postings
as the keystroke before.

`TermScores` keeps, per (field, word), the documents holding it and the word's BM25F part
in each (`bm25` with the index's idf and average field length, as Whoosh's scorer and
`ranking.score` compute it), so a keystroke re-reads nothing it read before. The parts
stay valid while the engine's index is open (its statistics do not change); the least
recently used words are dropped past a budget of postings proportional to the index.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterator, Sequence

from whoosh.reading import IndexReader, TermNotFound
from whoosh.scoring import bm25
from whoosh.searching import Searcher

from index.search.bitsets import mask_of
from index.search.stored_postings import StoredPostings
from index.whoosh_ext.blocks import scored_blocks
from index.whoosh_ext.columns import LENGTH_OF_BYTE, field_lengths

__all__ = ["K1", "B", "TermParts", "TermScores"]

# Whoosh's BM25F defaults.
B = 0.75
K1 = 1.2

# Postings kept per document of the index (at least `_MIN_BUDGET`): at 1,000,000 papers
# 4,000,000 postings, ~48 MB (4 + 8 bytes each), hold the longest query of the
# benchmark's mix whole.
_BUDGET_PER_DOCUMENT = 4
_MIN_BUDGET = 200_000

TermParts = tuple["array[int]", "array[float]"]  # document numbers, their BM25F parts


class TermScores:
    """The scored postings of recently ranked words, for one open index; thread-safe."""

    def __init__(self, documents: int, stored: StoredPostings | None = None) -> None:
        """`stored`: the long posting lists kept decoded beside the index, read instead of
        Whoosh's blocks where it has them (index.search.stored_postings); the match sets
        read them through here too (index.search.matching)."""
        self.budget = max(_MIN_BUDGET, _BUDGET_PER_DOCUMENT * documents)
        self.stored = stored
        self._parts: OrderedDict[tuple[str, object], TermParts] = OrderedDict()
        self._masks: dict[tuple[str, object], int] = {}  # of words in `_parts`, once asked
        self._held = 0  # postings in `_parts`
        self._lengths: dict[tuple[int, str], bytes | None] = {}
        self._lock = threading.Lock()

    def parts(self, searcher: Searcher, fieldname: str, text: object) -> TermParts:
        """The documents holding `text` in `fieldname` (ascending) and its part in each."""
        key = (fieldname, text)
        with self._lock:
            found = self._parts.get(key)
            if found is not None:
                self._parts.move_to_end(key)
                return found
        found = self._read(searcher, fieldname, text)
        with self._lock:
            if key not in self._parts:
                self._parts[key] = found
                self._held += len(found[0])
                while self._held > self.budget and len(self._parts) > 1:
                    dropped, (docs, _) = self._parts.popitem(last=False)
                    self._masks.pop(dropped, None)
                    self._held -= len(docs)
        return found

    def mask(self, searcher: Searcher, fieldname: str, text: object) -> int:
        """The documents holding `text` in `fieldname` as a mask (deleted ones included),
        kept with its parts: a word's match set and the ranking's test of whether every
        document holding it matches cost one pass over its documents."""
        docs = self.parts(searcher, fieldname, text)[0]
        key = (fieldname, text)
        with self._lock:
            found = self._masks.get(key)
        if found is None:
            found = mask_of(docs.tolist(), searcher.reader().doc_count_all())
            with self._lock:
                if key in self._parts:
                    self._masks[key] = found
        return found

    def known_mask(self, fieldname: str, text: object) -> int | None:
        """The word's mask if `mask` made it already (else None: nothing is computed)."""
        with self._lock:
            return self._masks.get((fieldname, text))

    def clear(self) -> None:
        """Forget every kept word (the next ranking reads its postings again)."""
        with self._lock:
            self._parts.clear()
            self._masks.clear()
            self._held = 0

    def _read(self, searcher: Searcher, fieldname: str, text: object) -> TermParts:
        idf = searcher.idf(fieldname, text)
        avgfl = searcher.avg_field_length(fieldname) or 1
        # Whoosh's `bm25(idf, tf, fl, avgfl, B, K1)` is
        #     idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / avgfl)))
        # The length's part depends on the stored length byte alone: computed once per
        # byte, by the same operations in the same order, it gives the same floats, and a
        # posting costs no function call (a third of reading a common word at 1M papers).
        saturation = K1 + 1
        normal = [K1 * ((1 - B) + B * length / avgfl) for length in LENGTH_OF_BYTE]
        docs: array[int] = array("i")  # a document number fits 32 bits
        parts: array[float] = array("d")
        for leaf, offset in searcher.reader().leaf_readers():
            kept = self.stored.scored(leaf, fieldname, text) if self.stored else None
            blocks: Iterator[tuple[Sequence[int], Sequence[float]]]
            if kept is None:
                try:
                    blocks = scored_blocks(leaf.postings(fieldname, text))
                except TermNotFound:
                    continue
            else:
                blocks = iter((kept,))
            lengths = self._stored_lengths(leaf, offset, fieldname)
            for ids, weights in blocks:
                docs.extend([docnum + offset for docnum in ids] if offset else ids)
                if lengths is None:  # Whoosh's stock path: a read per document
                    parts.extend(
                        [
                            bm25(idf, tf, leaf.doc_field_length(docnum, fieldname, 1), avgfl, B, K1)
                            for docnum, tf in zip(ids, weights)
                        ]
                    )
                else:
                    parts.extend(
                        [
                            idf * ((tf * saturation) / (tf + normal[lengths[docnum]]))
                            for docnum, tf in zip(ids, weights)
                        ]
                    )
        return docs, parts

    def _stored_lengths(self, leaf: IndexReader, offset: int, fieldname: str) -> bytes | None:
        """The segment's stored field lengths (`field_lengths`), read once; the segment is
        known by where its documents start, as the index stays the same."""
        key = (offset, fieldname)
        with self._lock:
            if key in self._lengths:
                return self._lengths[key]
        lengths = field_lengths(leaf, fieldname)
        with self._lock:
            self._lengths[key] = lengths
        return lengths
