"""Choosing the rows to show: by relevance (BM25F, scoring only known matches) or order.

The match set is computed from cached masks before ranking, so Whoosh's matchers would
redo the boolean work (leapfrogging `skip_to` over every posting of every word) just to
find documents we already have. Instead each scored term's postings are read once per
open index (`term_scores`) and only documents in the match set are scored, with the same
BM25F formula and statistics Whoosh uses, so a document's score is the sum Whoosh would
give it for an AND/OR of terms. Whoosh's own collector ranks only what this cannot sum:
many matches of a query with a wildcard, fuzzy word or range (`_sums_its_terms`).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from itertools import repeat
from operator import mul

from whoosh import query as wq
from whoosh.searching import Searcher

from index.cancel import checkpoint
from index.models import SearchRequest
from index.schema.fields import TEXT_FIELDS
from index.search.bitsets import AllowedDocs, FacetMasks, bits, member_test
from index.search.parser import Parsed
from index.search.syntax import walk
from index.search.term_scores import TermScores

ScoredTerm = tuple[str, object, float]  # field, term text, query boost
# Match sets up to this size are ranked term at a time (`score`); a larger one too when
# its query sums its words (`_sums_its_terms`), else by Whoosh's collector.
TERM_AT_A_TIME_LIMIT = 30_000
# Queries whose union parts make Whoosh's top-k collector pathological (docs/whoosh.md).
_UNION_TYPES = (wq.Or, wq.FuzzyTerm, wq.Wildcard, wq.Prefix, wq.NumericRange, wq.Every)


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


# A word is summed without a test per document when `final` leaves out at most one of
# this many of its documents (they are dropped at the end): the deleted papers an
# in-place update leaves in the postings, or the few a filter removes.
STRAYS_PER_POSTING = 16


def score(
    searcher: Searcher, terms: list[ScoredTerm], final: int, size: int, parts: TermScores
) -> dict[int, float]:
    """docnum -> BM25F score, for the documents of `final` holding any of `terms`.

    Each document's parts are added in the order of `terms`, as Whoosh adds them (the same
    floats). A word whose every document matches (each field's word of a one-word
    query) needs no test per document, and the first such word fills the scores in C
    (`dict.update`): at 1,000,000 papers this loop was the largest part of a common
    word's keystroke (~50 ms per 400,000 postings). That is known from the word's mask
    when its match set made one (`TermScores.known_mask`); making one only for this costs
    as much as it saves. The few documents summed that `final` leaves out
    (`STRAYS_PER_POSTING`) are dropped at the end, which leaves every other sum as it was.
    """
    test = member_test(final, size)
    scores: dict[int, float] = defaultdict(float)
    outside = ~final
    strays = 0  # documents scored untested that `final` leaves out: dropped at the end
    for fieldname, text, boost in terms:
        checkpoint()  # a superseded search stops here (index.cancel)
        docs, term_parts = parts.parts(searcher, fieldname, text)
        known = parts.known_mask(fieldname, text)
        left_out = known & outside if known is not None else None
        if left_out is None or left_out.bit_count() * STRAYS_PER_POSTING > len(docs):
            for g, part in zip(docs, term_parts):
                if test[g >> 3] >> (g & 7) & 1:
                    scores[g] += boost * part
            continue
        strays |= left_out
        if not scores:
            scores.update(zip(docs, map(mul, repeat(boost), term_parts)))
        else:
            for g, part in zip(docs, term_parts):
                scores[g] += boost * part
    for docnum in bits(strays):
        del scores[docnum]
    return scores


def best_scoring(
    searcher: Searcher,
    masks: FacetMasks,
    terms: list[ScoredTerm],
    final: int,
    limit: int,
    parts: TermScores,
) -> list[tuple[float, int]]:
    """The `limit` documents of `final` that score best on `terms` (summed as `score`
    does), best first; a document holding none of them is never among them."""
    return _best(masks, score(searcher, terms, final, masks.size, parts), limit)


def _split_prefix(q: wq.Query) -> list[wq.Query] | None:
    """For a node built by `QueryBuilder._prefix`: its scored whole-word terms, else None."""
    if isinstance(q, wq.ConstantScoreQuery):
        return []
    if (
        isinstance(q, wq.Or)
        and q.subqueries
        and isinstance(q.subqueries[-1], wq.ConstantScoreQuery)
    ):
        return list(q.subqueries[:-1])
    return None


def ranking_query(q: wq.Query) -> wq.Query | None:
    """The query to score the (already known) matches with; None when nothing scores.

    A prefix's expansion only filters (its match set is in the mask already), so it is
    dropped here: the typed word ranks by the whole words it may already be, as an
    optional boost, and the rest of the query ranks as usual. Whoosh then scores a few
    plain terms instead of a union of a prefix's expansions over every match.
    """
    words = _split_prefix(q)
    if words is not None:
        return wq.Or(words) if words else None
    if isinstance(q, wq.And):
        required: list[wq.Query] = []
        optional: list[wq.Query] = []
        for child in q.subqueries:
            words = _split_prefix(child)
            if words is None:
                required.append(child)
            else:
                optional += words
        if not required:
            return wq.Or(optional) if optional else None
        base = required[0] if len(required) == 1 else wq.And(required)
        return wq.AndMaybe(base, wq.Or(optional)) if optional else base
    return q


def top_rows(
    searcher: Searcher,
    masks: FacetMasks,
    parsed: Parsed,
    request: SearchRequest,
    final: int,
    filtered: bool,
    parts: TermScores,
) -> list[tuple[float, int]]:
    """The (score, docnum) pairs of the rows to show, best first.

    By relevance, a paper whose id or citation key is the whole query comes first.
    `parts` keeps the scored words' postings between searches (`term_scores`).
    """
    limit = max(0, request.limit)
    if not final or limit == 0:
        return []
    rows = _ranked(searcher, masks, parsed, request, final, filtered, limit, parts)
    exact = [d for d in parsed.exact if final >> d & 1] if request.sort == "relevance" else []
    if not exact:
        return rows
    top = max((row_score for row_score, _ in rows), default=1.0)
    pinned = exact[:limit]  # a DOI prefix (`doi:10.1145`) names many papers: still `limit`
    rest = [row for row in rows if row[1] not in exact]
    return [(top, docnum) for docnum in pinned] + rest[: max(0, limit - len(pinned))]


def _ranked(
    searcher: Searcher,
    masks: FacetMasks,
    parsed: Parsed,
    request: SearchRequest,
    final: int,
    filtered: bool,
    limit: int,
    parts: TermScores,
) -> list[tuple[float, int]]:
    if parsed.query is None or request.sort != "relevance":
        return in_order(masks, masks.order(request.sort), final, limit)
    scoring = ranking_query(parsed.query)
    if scoring is None:
        return in_order(masks, masks.order_year, final, limit)
    count = final.bit_count()
    if count <= TERM_AT_A_TIME_LIMIT or _sums_its_terms(scoring):
        terms = scored_terms(scoring)
        if not terms:
            return in_order(masks, masks.order_year, final, limit)
        scores = score(searcher, terms, final, masks.size, parts)
        return _fill(masks, _best(masks, scores, limit), final, limit)
    unions = any(isinstance(node, _UNION_TYPES) for node in scoring.leaves()) or any(
        len(node.subqueries) > 12 for node in walk(scoring) if isinstance(node, wq.Or)
    )
    allow = AllowedDocs(final, masks.size) if filtered or scoring != parsed.query else None
    prunable = count > 4 * limit and not unions
    collected = _collected(searcher, scoring, allow, limit if prunable else None)
    year_of, ids = masks.year_of, masks.ids
    ranked = sorted(collected, key=lambda item: (-item[0], -year_of[item[1]], ids[item[1]]))
    return _fill(masks, [(float(score), docnum) for score, docnum in ranked[:limit]], final, limit)


def _best(masks: FacetMasks, scores: dict[int, float], limit: int) -> list[tuple[float, int]]:
    """The `limit` best (score, docnum) pairs: by score, then newest, then paper id.

    Only the documents scoring at least the `limit`-th best score are ordered by the full
    key (ties at that score all among them): a key per document of a match set of 400,000
    cost ~0.15 s at 1,000,000 papers, the scores alone are compared in C.
    """
    if len(scores) > limit:
        cut = heapq.nlargest(limit, scores.values())[-1]
        scores = {docnum: value for docnum, value in scores.items() if value >= cut}
    year_of, ids = masks.year_of, masks.ids
    top = heapq.nsmallest(
        limit, scores.items(), key=lambda item: (-item[1], -year_of[item[0]], ids[item[0]])
    )
    return [(value, docnum) for docnum, value in top]


def _sums_its_terms(scoring: wq.Query) -> bool:
    """Whether `score` ranks `scoring` as Whoosh would: every leaf is a word or a phrase
    (its words summed) or nothing, no range or pattern whose expansions Whoosh scores
    (the parser turns fuzzy words and text wildcards into words already).

    Such a query is ranked term at a time at any size. Whoosh's block-max top-k prunes
    postings, but it leapfrogs every posting of every word again at each keystroke; a
    word read once here serves every later keystroke (`term_scores`). At 1,000,000 papers
    three common words (`low latency llm`) took 2.0-2.5 s a keystroke that way, now
    0.05-0.4 s; only the first keystroke of one common word alone is slower (~0.1-0.25 s
    more): it reads the word whole (benchmarks/README.md, "Ranking and the second
    keystroke at 1M").
    """
    return all(
        type(leaf) is wq.Term or isinstance(leaf, wq.Phrase) or leaf is wq.NullQuery
        for leaf in scoring.leaves()
    )


def _collected(
    searcher: Searcher, scoring: wq.Query, allow: AllowedDocs | None, limit: int | None
) -> list[tuple[float, int]]:
    """The (score, docnum) pairs the top `limit` rows are chosen from: all of them when
    `limit` is None, else every match scoring at least the `limit`-th best.

    Whoosh's collector keeps the best `limit` by score and settles a tie at the cut by
    document number, which a rebuild of the same library may assign differently (the
    parallel writer). Twice as many are collected instead; when the last of those still
    ties the `limit`-th, every match is collected, so the rows shown are chosen by
    score, year and id alone, in any build.
    """
    if limit is None:
        return list(searcher.search(scoring, limit=None, filter=allow).top_n)
    top = searcher.search(scoring, limit=2 * limit, filter=allow).top_n
    if len(top) == 2 * limit and top[limit - 1][0] == top[-1][0]:
        return list(searcher.search(scoring, limit=None, filter=allow).top_n)
    return list(top)


def _fill(
    masks: FacetMasks, out: list[tuple[float, int]], final: int, limit: int
) -> list[tuple[float, int]]:
    """Tops up scored rows with unscored matches (a prefix's expansions), newest first."""
    if len(out) < limit:
        seen = {docnum for _, docnum in out}
        rest = in_order(masks, masks.order_year, final, limit + len(seen))
        out += [(0.0, d) for _, d in rest if d not in seen][: limit - len(out)]
    return out


def in_order(
    masks: FacetMasks, order: list[int], final: int, limit: int
) -> list[tuple[float, int]]:
    """The first `limit` documents of `order` that are in `final`."""
    if final.bit_count() * 20 < len(order):
        wanted = set(bits(final))
        return [(0.0, d) for d in order if d in wanted][:limit]
    test = member_test(final, masks.size)
    out: list[tuple[float, int]] = []
    for docnum in order:
        if test[docnum >> 3] >> (docnum & 7) & 1:
            out.append((0.0, docnum))
            if len(out) == limit:
                break
    return out
