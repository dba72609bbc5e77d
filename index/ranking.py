"""Scoring only the documents already known to match, one term at a time (BM25F).

The match set is computed from cached masks before ranking, so Whoosh's matchers would
redo the boolean work (leapfrogging `skip_to` over every posting of every word) just to
find documents we already have. Instead each scored term's postings are read in blocks and
only documents in the match set are scored, with the same BM25F formula and statistics
Whoosh uses, so a document's score is the sum Whoosh would give it for an AND/OR of terms.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from whoosh import query as wq
from whoosh.reading import TermNotFound
from whoosh.scoring import bm25
from whoosh.searching import Searcher

from index.masks import member_test
from index.schema import TEXT_FIELDS

# Whoosh's BM25F defaults.
B = 0.75
K1 = 1.2

ScoredTerm = tuple[str, object, float]  # field, term text, query boost


def scored_terms(q: wq.Query) -> list[ScoredTerm]:
    """The text-field terms that add to a document's score (not negated, not constant)."""
    found: list[ScoredTerm] = []

    def visit(node: wq.Query, boost: float) -> None:
        if isinstance(node, (wq.Not, wq.ConstantScoreQuery)):
            return
        if isinstance(node, wq.AndNot):
            visit(node.a, boost * node.boost)
            return
        if type(node) is wq.Term:
            if node.fieldname in TEXT_FIELDS:
                found.append((node.fieldname, node.text, boost * node.boost))
            return
        if isinstance(node, wq.Phrase):
            if node.fieldname in TEXT_FIELDS:
                found.extend((node.fieldname, word, boost * node.boost) for word in node.words)
            return
        if not node.is_leaf():
            for child in node.children():
                visit(child, boost * getattr(node, "boost", 1.0))

    visit(q, 1.0)
    return list(dict.fromkeys(found))


def _blocks(matcher: object) -> Iterator[tuple[object, object]]:
    """(ids, weights) per posting block, or per posting when blocks are not exposed."""
    while hasattr(matcher, "child") and not hasattr(matcher, "_read_ids"):
        matcher = matcher.child  # type: ignore[attr-defined]
    if all(hasattr(matcher, n) for n in ("_read_ids", "_read_weights", "_lastblock")):
        m: object = matcher
        while not m._atend:  # type: ignore[attr-defined]
            m._read_ids()  # type: ignore[attr-defined]
            m._read_weights()  # type: ignore[attr-defined]
            yield m._ids, m._weights  # type: ignore[attr-defined]
            if m._lastblock:  # type: ignore[attr-defined]
                return
            m._next_block()  # type: ignore[attr-defined]
        return
    while matcher.is_active():  # type: ignore[attr-defined]
        yield (matcher.id(),), (matcher.weight(),)  # type: ignore[attr-defined]
        matcher.next()  # type: ignore[attr-defined]


def score(searcher: Searcher, terms: list[ScoredTerm], final: int,
          size: int) -> dict[int, float]:
    """docnum -> BM25F score, for the documents of `final` holding any of `terms`."""
    test = member_test(final, size)
    scores: dict[int, float] = defaultdict(float)
    reader = searcher.reader()
    for fieldname, text, boost in terms:
        idf = searcher.idf(fieldname, text)
        avgfl = searcher.avg_field_length(fieldname) or 1
        for leaf, offset in reader.leaf_readers():
            try:
                matcher = leaf.postings(fieldname, text)
            except TermNotFound:
                continue
            length = leaf.doc_field_length
            for ids, weights in _blocks(matcher):
                for docnum, weight in zip(ids, weights):
                    g = docnum + offset
                    if test[g >> 3] >> (g & 7) & 1:
                        fl = length(docnum, fieldname, 1)
                        scores[g] += boost * bm25(idf, weight, fl, avgfl, B, K1)
    return scores
