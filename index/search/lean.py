"""Searching a lean first index (index.store.lean): what it answers exactly, and what not yet.

A big library's first start serves an index without edge n-grams and without positions
while the full one is built. Plain words, field searches, filters, facet counts and
sorting need neither, and answer exactly as on the full index. Two things do:

- a word start (the word being typed, `micro*`) is answered on the full index by the edge
  n-gram field `prefix` (the title's, short name's and authors' words as written, each
  start of up to `MAX_GRAM` letters a term). The lean index has none, and its title holds
  stems (`learni` is no start of `learn`), stop words dropped: no expansion over its own
  terms gives the same papers. So the query is parsed as for the full index and its
  `prefix` terms are answered by `WordStarts`, from the library beside the lean index:
  the same papers, and the same ranking (the n-grams only filter, they never score);
- a phrase needs positions: its candidates (the papers holding its words in its field)
  are checked against their text in the library, analysed as the full build analyses it
  (index.search.lean_phrases): the full index's papers. Whoosh's own phrase matcher would
  raise on a field without positions, so where Whoosh's collector ranks (a big match set
  of a query with a range), a phrase is scored as Whoosh scores one: its words' scores
  summed, in the papers holding the phrase (`lean_ranking`, `PhraseMatches`).
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from itertools import chain, islice

from whoosh import query as wq
from whoosh.index import Index
from whoosh.matching import FilterMatcher, Matcher, NullMatcher
from whoosh.searching import Searcher

from index.models import Paper
from index.schema.analysis import folded_words
from index.search.bitsets import bits, mask_of
from index.search.parser import Parsed
from index.search.spelling import Lexicon, count_words
from index.search.syntax import walk

__all__ = ["PhraseMatches", "WordStarts", "is_lean", "lean_lexicon", "lean_ranking"]

# Sorts after every word that begins with a start: the end of its range.
LAST = chr(0x10FFFF)


def lean_lexicon(papers: Sequence[Paper]) -> Lexicon:
    """The library's surface words (what a full build saves beside its index), counted
    when first needed: a fuzzy word, a "did you mean", or the engine's `preload` once
    the first page is shown. The lean build leaves them out: ~0.09 ms a paper, 5% of it."""

    def counted() -> Counter[str]:
        counts: Counter[str] = Counter()
        for paper in papers:
            count_words(counts, paper)
        return counts

    return Lexicon(counted)


def is_lean(index: Index) -> bool:
    """Whether `index` is a lean first index: its word fields keep no positions."""
    title = index.schema["title"]
    return not title.format.supports("positions")


class PhraseMatches(wq.WrappingQuery):
    """A phrase's words AND-ed in its field, matching only the documents of `mask` (those
    holding the phrase): scored as Whoosh's `Phrase` scores, the sum of its words' scores
    (`SpanNear2` over their intersection), without the positions its matcher needs."""

    def __init__(self, child: wq.Query, mask: int) -> None:
        super().__init__(child)
        self.mask = mask

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PhraseMatches)
            and self.child == other.child
            and self.mask == other.mask
        )

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, self.child, self.mask))

    def _rewrap(self, child: wq.Query) -> PhraseMatches:
        return PhraseMatches(child, self.mask)

    def matcher(self, searcher: Searcher, context: object = None) -> Matcher:
        top = searcher.get_parent()
        offset = next((at for leaf, at in top.leaf_searchers() if leaf is searcher), 0)
        end = offset + searcher.doc_count_all()
        local = {docnum - offset for docnum in bits(self.mask) if offset <= docnum < end}
        if not local:
            return NullMatcher()
        return FilterMatcher(self.child.matcher(searcher, context), local)


def _unphrased(q: wq.Query, mask: Callable[[wq.Phrase], int]) -> wq.Query:
    """`q` with every phrase replaced by its words in the papers holding it."""
    if isinstance(q, wq.Phrase):
        terms = [wq.Term(q.fieldname, word, boost=q.boost) for word in q.words]
        if not terms:
            return wq.NullQuery
        return PhraseMatches(terms[0] if len(terms) == 1 else wq.And(terms), mask(q))
    if q.is_leaf():
        return q
    return q.apply(lambda child: _unphrased(child, mask))


def lean_ranking(parsed: Parsed, mask: Callable[[wq.Phrase], int]) -> Parsed:
    """`parsed` to rank the (already matched) papers of the lean index with: each phrase
    as its words in the papers holding it (`mask`: its match set), `PhraseMatches`.
    Whoosh's phrase matcher would raise on a field without positions. `parsed` itself
    when it holds no phrase."""
    if parsed.query is None:
        return parsed
    if not any(isinstance(node, wq.Phrase) for node in walk(parsed.query)):
        return parsed
    return replace(parsed, query=_unphrased(parsed.query, mask))


class WordStarts:
    """The documents the full index's `prefix` term of a word start holds, from the library.

    The full build indexes every start of every word (as `folded_words` reads them) of a
    paper's title, short name and authors, up to `MAX_GRAM` letters; a start that long or
    shorter is in a paper's n-grams exactly when one of those words begins with it. So the
    words are read once, when first needed (the engine's `preload`, once the first page
    is shown: 0.3-0.9 s at 20,000 papers, benchmarks/README.md), each with its documents,
    sorted; a start's documents are those of the words in its range of the sorted list.

    Args:
        documents: (document number, paper) for every paper of the index.
        size: the index's document count (the masks' width).
    """

    def __init__(self, documents: Callable[[], Iterable[tuple[int, Paper]]], size: int) -> None:
        self._documents = documents
        self._size = size
        self._lock = threading.Lock()
        self._words: list[str] | None = None
        self._postings: dict[str, list[int]] = {}

    def _read(self) -> list[str]:
        with self._lock:
            if self._words is None:
                postings: dict[str, list[int]] = {}
                for docnum, paper in self._documents():
                    text = " ".join(filter(None, (paper.title, paper.short_name, *paper.authors)))
                    for word in set(folded_words(text)):
                        docs = postings.get(word)
                        if docs is None:
                            postings[word] = [docnum]
                        else:
                            docs.append(docnum)
                self._postings = postings
                self._words = sorted(postings)
            return self._words

    def preload(self) -> None:
        """Reads the words now, so the first word start typed does not wait for them."""
        self._read()

    def mask(self, start: str) -> int:
        """The documents with a word beginning with `start` (deleted ones too: the lean
        index has none, and callers mask with the live documents)."""
        words = self._read()
        first, end = bisect_left(words, start), bisect_left(words, start + LAST)
        docs = chain.from_iterable(self._postings[word] for word in islice(words, first, end))
        return mask_of(list(docs), self._size)
