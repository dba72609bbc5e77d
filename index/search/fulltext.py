"""Searching inside the papers: the full text of their attachments, one more place to match.

A plain word (or phrase, or typed prefix) matches a paper when the library's index has it
in any text field, as before, or when a page of one of the paper's attachments has it
(index.search.page_view reads the page index). `fulltext:` searches the pages alone, and
`-fulltext:` excludes by them; an excluded plain word (`-word`) excludes by the library's
fields alone, as before: nearly every paper mentions a common word somewhere in its text.

Ranking keeps the library's order first: the papers the query matches without the full
text (its `strict` set) are ranked as before, and only then come the papers it matches
through their full text alone (`loose` less `strict`), by their best page's BM25 score.
Each of those, and every hit of a query that names `fulltext:`, carries its best page as
a `PageMatch`: the attachment, the page number, and a highlighted fragment of that page.

Nothing here runs while the page index is absent or the query has no plain word and no
`fulltext:` part: the engine searches exactly as it did.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from whoosh import query as wq

from index.fulltext.page_index import TEXT_FIELD, Unit
from index.models import Hit, PageMatch, SearchRequest, Segment, Snippet
from index.schema.fields import TEXT_FIELDS
from index.search.bitsets import bits, member_test
from index.search.highlight import FRAGMENT_CHARS, Highlighter
from index.search.matching import without_layer
from index.search.page_view import MIN_ASKED_PREFIX, MIN_PREFIX, Pages, PageView
from index.search.parser import Parsed
from index.search.ranking import ranking_query, scored_terms
from index.search.syntax import PLACEHOLDER, walk

__all__ = ["FIELD", "FulltextMatch", "match_fulltext", "with_pages"]

# The query field that searches the pages alone (`fulltext:word`).
FIELD = "fulltext"
# Fields a bare word's group may hold besides the text fields (the year a word may be,
# the edge n-grams of a typed prefix).
_GROUP_EXTRA = frozenset(("year_facet", "prefix"))

# What looking a word up at one paper's pages costs, in postings tested one by one.
_SPAN_COST = 16
# Characters of a page looked through at a time for its first match (`_snippet`).
_WINDOW = 4 * FRAGMENT_CHARS

Rank = Callable[[int, bool], list[tuple[float, int]]]


@dataclass
class FulltextMatch:
    """A query's match sets with and without the full text, and what to score pages by."""

    view: PageView | None  # the pages searched (None: none yet, for a `fulltext:` query)
    loose: int  # papers matched, the full text counting for plain words
    strict: int  # papers matched by the library's fields (and `fulltext:` parts) alone
    explicit: bool  # the query names `fulltext:` (every hit then shows its page)
    scored: bool  # the query has words the library's ranking scores (not only `fulltext:`)
    words: list[str] = field(default_factory=list)  # stems looked up in the pages

    def rows(
        self,
        request: SearchRequest,
        final: int,
        rank: Rank,
        order: Callable[[int, int], list[tuple[float, int]]],
    ) -> list[tuple[float, int]]:
        """The rows to show: the library's ranking of `final`'s strict matches, then the
        papers matched through their full text alone, best page first.

        `rank(mask, filtered)` is the engine's ranking of a part of `final`; `order(mask,
        limit)` its newest-first order (for papers no scored word reaches).
        """
        if request.sort != "relevance":
            return rank(final, True)
        if not self.scored:  # `fulltext:` alone (and filters): by the pages' scores
            return _by_pages(self, final, max(0, request.limit), order)
        first = rank(final & self.strict, True)
        left = max(0, request.limit) - len(first)
        rest = final & ~self.strict
        if left <= 0 or not rest:
            return first
        return first + _by_pages(self, rest, left, order)


class _Evaluator:
    """Walks a parsed query, each node's papers from the library's masks or the pages."""

    def __init__(
        self, view: PageView | None, parsed: Parsed, main: Callable[[wq.Query], int], live: int
    ) -> None:
        self.view = view
        self.parsed = parsed
        self.main = main
        self.live = live
        self.words: list[str] = []  # the positive parts' stems: pages are scored by them
        self._negated = 0

    def evaluate(self, q: wq.Query, groups: bool) -> int:
        """`q`'s papers; `groups`: a plain word's group matches in the pages too."""
        if not _names_fulltext(q) and not (groups and self.looks_up(q)):
            return self.main(q)  # whole: the engine's own shortcuts (a typed prefix checked)
        if getattr(q, "fieldname", None) == FIELD:
            return self._fulltext_leaf(q) & self.live
        if isinstance(q, wq.Not):
            return self.live & ~self._excluded(q.query)
        if isinstance(q, wq.AndNot):
            return self.evaluate(q.a, groups) & ~self._excluded(q.b)
        if isinstance(q, wq.And):
            mask = self.live
            for child in q.subqueries:
                mask &= self.evaluate(child, groups)
                if not mask:
                    break
            return mask
        if groups and self._is_group(q):
            return self.main(q) | (self._group(q) & self.live)
        if isinstance(q, wq.Or):
            mask = 0
            for child in q.subqueries:
                mask |= self.evaluate(child, groups)
            return mask
        return self.main(q)

    def _excluded(self, q: wq.Query) -> int:
        """An excluded part: plain words by the library's fields alone, and no word of
        it scores a page."""
        self._negated += 1
        try:
            return self.evaluate(q, False)
        finally:
            self._negated -= 1

    def _note(self, words: list[str]) -> None:
        if not self._negated:
            self.words.extend(words)

    def looks_up(self, q: wq.Query) -> bool:
        """Whether a plain word of `q` is looked for in the pages (a typed prefix only
        from `MIN_PREFIX` letters): else the query is searched as it was, whole."""
        if self.view is None:
            return False
        for node in walk(q):
            if node in self.parsed.prefixes:
                if len(self.parsed.prefixes[node][0]) >= MIN_PREFIX and self._is_group(node):
                    return True
            elif self._is_group(node):
                return True
        return False

    def _is_group(self, q: wq.Query) -> bool:
        """A plain word's node: its fields are the text fields (the abstract among them)."""
        if q in self.parsed.prefixes:
            return set(self.parsed.prefixes[q][1]) == set(TEXT_FIELDS)
        if not isinstance(q, wq.Or):
            return False
        names = {getattr(leaf, "fieldname", None) for leaf in q.leaves()} - {None}
        return {"title", "abstract"} <= names and names <= set(TEXT_FIELDS) | _GROUP_EXTRA

    def _group(self, q: wq.Query) -> int:
        """The papers whose pages hold the group's word (its abstract stems, which the
        pages are analyzed like) or phrase; for a typed prefix, its completions in the
        pages and its stem as a whole word ("quokkas" typed is the stem "quokka", which
        no page word starts with)."""
        mask = 0
        if q in self.parsed.prefixes:
            mask = self._prefix(self.parsed.prefixes[q][0])
        for leaf in _outside_expansions(q):
            if getattr(leaf, "fieldname", None) != "abstract":
                continue
            if type(leaf) is wq.Term:
                mask |= self._word(str(leaf.text))
            elif isinstance(leaf, wq.Phrase) and leaf.words:
                mask |= self._phrase(leaf)
        return mask

    def _fulltext_leaf(self, q: wq.Query) -> int:
        if self.view is None:
            return 0
        if type(q) is wq.Term:
            if q.text == PLACEHOLDER and self.parsed.last:
                return self._prefix(self.parsed.last.lower(), MIN_ASKED_PREFIX)
            return self._word(str(q.text))
        if isinstance(q, wq.Phrase):
            return self._phrase(q) if q.words else 0
        if isinstance(q, wq.Prefix):
            return self._prefix(str(q.text), MIN_ASKED_PREFIX)
        if isinstance(q, wq.Every):  # `fulltext:*`: every paper with text
            return self.view.with_text()
        if not isinstance(q, wq.MultiTerm):
            return 0
        # A fuzzy word, a pattern, a range: its commonest words in the pages (Whoosh finds
        # them, a bounded scan), each a word of the match (scored, highlighted).
        moved = q.copy()
        moved.fieldname = TEXT_FIELD
        words = self.view.expanded(moved)
        self._note(words)
        mask = 0
        for word in words:
            mask |= self.view.word_mask(word)
        return mask

    def _word(self, word: str) -> int:
        assert self.view is not None
        self._note([word])
        return self.view.word_mask(word)

    def _phrase(self, q: wq.Phrase) -> int:
        assert self.view is not None
        self._note([str(word) for word in q.words])
        if len(q.words) == 1:
            return self.view.word_mask(str(q.words[0]))
        return self.view.phrase_mask(wq.Phrase(TEXT_FIELD, list(q.words), slop=q.slop))

    def _prefix(self, prefix: str, minimum: int = MIN_PREFIX) -> int:
        assert self.view is not None
        mask = 0
        words = self.view.completions(prefix, minimum)
        self._note(words)
        for word in words:
            mask |= self.view.word_mask(word)
        return mask


def _outside_expansions(q: wq.Query) -> list[wq.Query]:
    """`q`'s leaves, less those of a prefix's or pattern's expansion in the library's
    words (a `ConstantScoreQuery`: the pages have their own words)."""
    if isinstance(q, wq.ConstantScoreQuery):
        return []
    if q.is_leaf():
        return [q]
    return [leaf for child in q.children() for leaf in _outside_expansions(child)]


def _names_fulltext(q: wq.Query) -> bool:
    return any(getattr(node, "fieldname", None) == FIELD for node in walk(q))


def match_fulltext(
    view: PageView | None, parsed: Parsed, main: Callable[[wq.Query], int], live: int
) -> FulltextMatch | None:
    """The query's papers with the full text; None when it changes nothing (no pages and
    no `fulltext:` part, or no part the pages could match): search as before."""
    q = parsed.query
    if q is None:
        return None
    explicit = _names_fulltext(q)
    if not explicit and (view is None or not view.pages):
        return None
    evaluator = _Evaluator(view, parsed, main, live)
    if not explicit and not evaluator.looks_up(q):  # `title:x`, `year:2020`, `py` typed
        return None
    loose = evaluator.evaluate(q, True)
    if not explicit and not evaluator.words:
        return None
    words = list(dict.fromkeys(evaluator.words))
    strict = evaluator.evaluate(q, False) if explicit else main(q)
    plain = without_layer(q)
    scoring = ranking_query(plain) if plain is not None else None
    return FulltextMatch(
        view=view,
        loose=loose,
        strict=strict & loose,
        explicit=explicit,
        scored=scoring is not None and bool(scored_terms(scoring)),
        words=words,
    )


def best_pages(view: PageView, words: list[str], papers: int) -> dict[int, tuple[float, int]]:
    """Each paper of `papers` with a page holding any of `words`: (that page's score, the
    page), its best page by the summed BM25 parts of the words."""
    paper_of = view.paper_of
    page_scores: dict[int, float] = defaultdict(float)
    chosen = bits(papers)
    postings = sum(view.frequency(word) for word in words)
    if len(chosen) * len(words) * _SPAN_COST < postings:
        # Few papers (a page of hits, the few found in the pages alone): each word's
        # postings looked up at each paper's pages, not every posting tested.
        for word in words:
            docs, parts = view.parts(word)
            for paper in chosen:
                span = view.span_of.get(paper)
                if span is None:
                    continue
                at = bisect_left(docs, span[0])
                while at < len(docs) and docs[at] <= span[1]:
                    if paper_of[docs[at]] == paper:
                        page_scores[docs[at]] += parts[at]
                    at += 1
    else:
        test = member_test(papers, view.size)
        for word in words:
            docs, parts = view.parts(word)
            for page, part in zip(docs, parts):
                paper = paper_of[page]
                if paper >= 0 and test[paper >> 3] >> (paper & 7) & 1:
                    page_scores[page] += part
    best: dict[int, tuple[float, int]] = {}
    for page, value in page_scores.items():
        paper = paper_of[page]
        known = best.get(paper)
        if known is None or value > known[0] or (value == known[0] and page < known[1]):
            best[paper] = (value, page)
    return best


def _by_pages(
    found: FulltextMatch,
    papers: int,
    limit: int,
    order: Callable[[int, int], list[tuple[float, int]]],
) -> list[tuple[float, int]]:
    """`limit` papers of `papers` by their best page's score; then newest first."""
    if limit <= 0 or not papers:
        return []
    view = found.view
    scored = best_pages(view, found.words, papers) if view is not None else {}
    rows = sorted(
        ((value, paper) for paper, (value, _) in scored.items()), key=lambda r: (-r[0], r[1])
    )
    rows = rows[:limit]
    if len(rows) < limit:
        seen = {paper for _, paper in rows}
        for _, paper in order(papers, limit + len(seen)):
            if paper not in seen:
                rows.append((0.0, paper))
                if len(rows) == limit:
                    break
    return rows


def with_pages(
    pages: Pages | None,
    found: FulltextMatch,
    hits: tuple[Hit, ...],
    docnums: list[int],
    terms: tuple[str, ...],
) -> tuple[Hit, ...]:
    """`hits` (of these documents), each that needed the full text (all of them when the
    query names `fulltext:`) with its best page and a highlighted fragment of it."""
    found_pages = _page_matches(pages, found, docnums, terms) if pages is not None else {}
    if not found_pages:
        return hits
    return tuple(
        replace(hit, page_match=found_pages[docnum]) if docnum in found_pages else hit
        for hit, docnum in zip(hits, docnums)
    )


def _page_matches(
    pages: Pages,
    found: FulltextMatch,
    docnums: list[int],
    terms: tuple[str, ...],
) -> dict[int, PageMatch]:
    view = found.view
    if view is None or not found.words:
        return {}
    wanted = docnums if found.explicit else [d for d in docnums if not found.strict >> d & 1]
    if not wanted:
        return {}
    mask = 0
    for docnum in wanted:
        mask |= 1 << docnum
    # The query's words, and the pages' words they matched (a fuzzy word's, a pattern's).
    highlighter = Highlighter((*terms, *found.words))
    out: dict[int, PageMatch] = {}
    for docnum, (_, page) in best_pages(view, found.words, mask).items():
        located = view.located(page)
        unit = Unit.parse(located[0]) if located else None
        if located is None or unit is None:
            continue
        number = located[1]
        text = pages.page_text(unit.digest, number)
        out[docnum] = PageMatch(
            path=unit.path,
            page=number if number > 0 else None,
            snippet=_snippet(highlighter, text),
        )
    return out


def _snippet(highlighter: Highlighter, text: str) -> Snippet:
    """The fragment of a page around its first match, found a window at a time.

    A page is ten times an abstract: tokenizing all of it for each hit (as `fragment`
    does to find the densest run) was most of what a page of full-text hits cost.
    """
    start = 0
    while start < len(text):
        end = _word_end(text, start + _WINDOW)
        if highlighter.any_in(text[start:end]):
            begin = _word_end(text, max(0, start - FRAGMENT_CHARS)) if start else 0
            found = highlighter.fragment(text[begin : _word_end(text, end + FRAGMENT_CHARS)])
            segments = list(found.segments)
            if begin and segments and segments[0].text != "…":
                segments.insert(0, Segment("…"))
            return Snippet(tuple(segments))
        start = end
    return highlighter.fragment(text[: _word_end(text, FRAGMENT_CHARS)])


def _word_end(text: str, at: int) -> int:
    """`at`, moved on to the next space (a window never cuts a word)."""
    if at >= len(text):
        return len(text)
    space = text.find(" ", at)
    return len(text) if space == -1 else space
