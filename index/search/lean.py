"""Searching a lean first index (index.store.lean): what it answers exactly, and what not yet.

A big library's first start serves an index without edge n-grams and without positions
while the full one is built. Plain words, field searches, filters, facet counts and
sorting need neither, and answer exactly as on the full index. Two things do:

- a word start (the word being typed, `micro*`) is answered on the full index by the edge
  n-gram field; here it is expanded over the short fields' own terms (`QueryBuilder` with
  `ngrams=False`), and a title's terms are stems, so `learni` misses "learning";
- a phrase needs positions: here it is searched as its words, all in one field.

Each result that used either says so in its notice, in one short line, so the user knows
what changes once the index is complete. Whoosh's own phrase matcher would raise on a field
without positions: no phrase reaches it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from whoosh import query as wq
from whoosh.index import Index

from index.models import Paper
from index.schema.fields import NGRAM_FIELDS
from index.search.parser import Parsed
from index.search.spelling import Lexicon, count_words
from index.search.syntax import walk

__all__ = ["is_lean", "lean_lexicon", "lean_notice", "lean_parsed"]

UNTIL = "until the index is complete"


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


def lean_notice(phrases: bool, starts: bool) -> str | None:
    """The one line a result on the lean index carries, or None when it is exact."""
    if phrases and starts:
        return f"Phrases and word starts approximate {UNTIL}"
    if phrases:
        return f"Phrases searched as their words {UNTIL}"
    if starts:
        return f"Word starts approximate {UNTIL}"
    return None


def _unphrased(q: wq.Query) -> wq.Query:
    """`q` with every phrase replaced by its words, AND-ed in the phrase's field."""
    if isinstance(q, wq.Phrase):
        terms = [wq.Term(q.fieldname, word, boost=q.boost) for word in q.words]
        if not terms:
            return wq.NullQuery
        return terms[0] if len(terms) == 1 else wq.And(terms)
    if q.is_leaf():
        return q
    return q.apply(_unphrased)


def lean_parsed(parsed: Parsed) -> Parsed:
    """`parsed` as the lean index can answer it, its notice saying what is approximate."""
    if parsed.query is None:
        return parsed
    phrases = any(isinstance(node, wq.Phrase) for node in walk(parsed.query))
    # Only a start the full index answers from its n-grams differs here.
    starts = any(set(NGRAM_FIELDS) <= set(fields) for _, fields in parsed.prefixes.values())
    notice = lean_notice(phrases, starts)
    if notice is None:
        return parsed
    query = _unphrased(parsed.query) if phrases else parsed.query
    joined = f"{parsed.notice}; {notice}" if parsed.notice else notice
    return replace(parsed, query=query, notice=joined)
