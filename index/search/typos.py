"""Typo tolerance: what a query that found nothing, or almost nothing, is searched as next.

A stranger has no reason to know `~`, and a typo dead-ended: `few-shot lerners` found
nothing, and its "did you mean" offered the author Lerner. The engine
(index.search.engine) searches these rewrites of such a query in turn and shows the first
that finds something, saying so; each is a query the user could have typed.

A typo can also make a word a few papers hold: `retreival` is in one abstract of a
psychology lab's 6,315 papers (its own typo), `retrieval` in 235. A query that finds at
most `ALMOST_NOTHING` papers with such a word (index.search.spelling.rare_words) is
searched again with it fuzzy, and when that finds more, its results follow the exact ones,
which stay first: what was typed exactly still finds its paper at the same rank.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from index.library.lookup import paper_name
from index.models import SearchRequest, SearchResult
from index.search.known_items import FUZZY_TRIED, identify
from index.search.spelling import FIXED_PREFIX, MAX_SUGGEST_CHARS, Lexicon, allowed_edits
from index.search.syntax import with_fuzzy
from index.whoosh_ext.fuzzy import distance

__all__ = ["ALMOST_NOTHING", "FEW", "FOUND", "TypoRetry", "retries"]

# How the notice of a retried search begins (`FUZZY_TRIED` when none found anything).
FOUND = "No exact match: showing results for"
# ... and of one whose exact matches were few: theirs come first.
FEW = "Few exact matches, first; then results for"
# Papers a query may find and still be retried for a rare word near a common one.
ALMOST_NOTHING = 3


def retries(
    query: str,
    unknown: set[str],
    transposed: Callable[[str], str | None],
    nearest: Callable[[str], int | None] = lambda word: None,
) -> Iterator[str]:
    """The queries to try, in order, for `query`, whose `unknown` words (folded) no field
    holds; `transposed` gives the real word a word is with two letters swapped back, and
    `nearest` how many edits away the closest real word is (None: none is near).

    A word is made as fuzzy as its closest real word needs, not as fuzzy as its length
    allows: `pipline~` finds "pipeline", where `pipline~2` also ranked a dozen rarer
    words two edits off (every one a posting list read and scored: at 100,000 papers
    that was most of a retry's time) and showed `~2` in the status.

    The unknown words made fuzzy first (`lerners` -> `lerners~2`; `huamn` -> `human`),
    then the same without the query's one- and two-letter words (`c programming`, from
    "The C++ Programming Language", holds a letter no field keeps), then every word
    fuzzy (a typo can make another real word), then a citation key with a typo
    (`key:hofetal13~`). An identifier no paper has is no typo: nothing is tried. Each
    is made when asked for: the first usually finds something, and every word's
    nearest word is a walk of the library's words (~15 ms each at 100,000 papers).
    """
    query = query.strip()
    if identify(query):
        return

    def edits(word: str) -> int:
        allowed = allowed_edits(len(word))
        return min(allowed, nearest(word.lower()) or allowed)

    fixed = {word: swapped for word in unknown if (swapped := transposed(word)) is not None}
    short = {word.lower() for word in re.findall(r"\w+", query) if len(word) <= 2}
    tried = {query}
    for words, drop in ((unknown or None, None), (unknown or None, short), (None, short)):
        text = with_fuzzy(query, words, edits=edits, fixed=fixed, drop=drop)
        if text is not None and text not in tried:
            tried.add(text)
            yield text
    name = paper_name(query)
    if name is not None and not name.isalpha() and len(name) >= 4:
        text = f"key:{name.removeprefix('key:').rstrip('~*')}~"
        if text not in tried:
            yield text


@dataclass(frozen=True)
class TypoRetry:
    """Runs the retries of one engine: `search` answers a request without fallbacks,
    `transposed` is `spelling.transposed` on the engine's index."""

    search: Callable[[SearchRequest], SearchResult]
    transposed: Callable[[str], str | None]
    lexicon: Lexicon | None

    def nearest(self, word: str) -> int | None:
        """How many edits the closest of the library's words is from `word` (None: none
        within the edits its length allows). The walk is the one the fuzzy word's
        expansion and the correction make next (`Lexicon.near` keeps it)."""
        if self.lexicon is None or len(word) > MAX_SUGGEST_CHARS:
            return None  # a pasted blob's automaton would cost more than any search
        # One edit first: the cheaper walk, and the one the fuzzy word then makes.
        for edits in range(1, allowed_edits(len(word)) + 1):
            near = [w for w in self.lexicon.near(word, edits, FIXED_PREFIX) if w != word]
            if near:
                return distance(word, near[0])
        return None

    def nothing_found(
        self, result: SearchResult, unknown: set[str], started: float
    ) -> SearchResult | None:
        """What the query finds retried with fuzzy words, when as written it found
        nothing; the notice says what was searched. None when nothing could be tried."""
        request = result.request
        if not unknown and request.filter_count:
            # Every word is known: if they find papers without the selected filters, the
            # filters leave none, and near words would only mislead.
            alone = SearchRequest(request.query, limit=0, counts=False)
            if self.search(alone).total:
                return None
        first = None
        for text in retries(request.query, unknown, self.transposed, self.nearest):
            found = self.search(replace(request, query=text, as_you_type=False))
            if found.total:
                return _said(found, request, f"{FOUND} {text}", started)
            first = first or text
        if first is None:
            return None
        said = f"{FUZZY_TRIED} ({first})"
        return replace(result, notice=f"{result.notice}; {said}" if result.notice else said)

    def few_found(
        self, result: SearchResult, rare: set[str], started: float
    ) -> SearchResult | None:
        """The exact matches (at most `ALMOST_NOTHING`) first, then what the query finds
        with its `rare` words fuzzy; None when that finds no more."""
        request = result.request
        # As fuzzy as their length allows, nothing swapped back: the fuzzy words then
        # hold the exact ones (a word is near itself), whose papers come first.
        text = next(retries(request.query, rare, lambda word: None), None)
        if text is None:
            return None
        found = self.search(replace(request, query=text, as_you_type=False))
        if found.total <= result.total:
            return None
        exact = [hit.paper.id for hit in result.hits]
        hits = result.hits + tuple(hit for hit in found.hits if hit.paper.id not in exact)
        merged = replace(found, hits=hits[: request.limit])
        return _said(merged, request, f"{FEW} {text}", started)


def _said(found: SearchResult, request: SearchRequest, said: str, started: float) -> SearchResult:
    """`found` as the answer to `request`, its notice led by `said`."""
    return replace(
        found,
        request=request,
        notice=f"{said}; {found.notice}" if found.notice else said,
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )
