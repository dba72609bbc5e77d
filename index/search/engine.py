"""The search engine: one open index answering `SearchRequest`s from any thread.

Per request: parse (index.search.parser), compute the match set as a bitmask
(index.search.matching: each AND-ed part is cached, so typing one more word or letter only
evaluates the new part), apply the facet selections as masks, count every facet value by
intersection (index.search.counting), rank only what will be shown
(index.search.ranking) and highlight only those rows (index.search.highlight). Results are
frozen values (index.models), cached per request. "Did you mean" and fuzzy words use the
library's words as written (index.search.spelling). Once the attachments' text has been
read, plain words and `fulltext:` also match their pages (index.search.fulltext: the match
set, the rows after the library's own matches, each one's page).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, cast

from whoosh.index import Index
from whoosh.searching import Searcher

from index.cancel import cancellable
from index.facets.taxonomy import Taxonomy
from index.models import FacetCount, Hit, Library, Paper, SearchRequest, SearchResult, Snippet
from index.search.bitsets import (
    Lru,
    list_columns,
)
from index.search.counting import facet_counts, selection_masks
from index.search.facet_build import facet_masks
from index.search.facet_store import read_facet_masks
from index.search.fulltext import match_fulltext, with_pages
from index.search.highlight import Highlighter
from index.search.highlight import forget as forget_highlighted
from index.search.key_lookup import KeyLookup
from index.search.lean import WordStarts, is_lean, lean_lexicon, lean_ranking
from index.search.lean_phrases import LeanPhrases
from index.search.letter_masks import read_letters
from index.search.matching import Evaluation, QueryMasks, uses_layer, without_layer
from index.search.page_view import Pages
from index.search.paper_keys import PaperKeys, SavedKeys, read_saved_keys
from index.search.parser import QueryBuilder
from index.search.positions import Positions, placed, read_positions
from index.search.ranking import best_scoring, in_order, top_rows
from index.search.searchers import Searchers
from index.search.spelling import (
    correct,
    rare_words,
    saved_lexicon,
    transposed,
    unknown_words,
)
from index.search.stored_postings import StoredPostings
from index.search.syntax import is_wildcard, positive_words
from index.search.tables import read_table
from index.search.term_scores import TermScores
from index.search.typos import ALMOST_NOTHING, TypoRetry
from index.search.user_layer import (
    LayerMasks,
    NoteMasks,
    UserLayer,
    live_docnums,
    source_facets,
    source_notes,
)
from index.whoosh_ext.columns import column_values
from index.whoosh_ext.fuzzy import clear_automata

__all__ = ["OpenedIndex", "SearchEngine"]


class OpenedIndex(Protocol):
    """What the engine needs of an opened index (index.store.generations.Opened is one).

    The store opens, builds and refreshes the index and sits above search in the layers,
    so the engine names only the two things it reads, not the store's type.
    """

    @property
    def index(self) -> Index: ...

    @property
    def path(self) -> Path: ...


OpenedT = TypeVar("OpenedT", bound=OpenedIndex)

# Recent requests answered from memory (the UI repeats them: backspace, facet toggles).
RESULT_CACHE = 256
# "Did you mean" answers (or their absence) for recent queries that matched nothing.
CORRECTION_CACHE = 256
# Papers read from stored fields when the engine has no library: a few pages of results.
STORED_CACHE = 1024


class SearchEngine(Generic[OpenedT]):
    """Answers searches over one open index; every public method is thread-safe.

    `opened` is kept as given (the store's `Opened`, with what was done to get the index,
    for `paperscope index` to report). `library` may be None: every `Paper` is then read
    from the index's stored JSON when a hit, a prefix check or `paper()` needs it, so a
    command that only searches never loads the library (the store decides the index is
    current from the files' sizes and mtimes, `index.store.generations.open_if_current`).
    """

    def __init__(
        self,
        opened: OpenedT,
        library: Library | None,
        taxonomy: Taxonomy,
        fulltext_dir: Path | None = None,
    ) -> None:
        """`fulltext_dir`: the cache folder whose page index (index.fulltext.page_index)
        plain words and `fulltext:` also search; None: no full text."""
        self.opened = opened
        self.taxonomy = taxonomy
        self._index = opened.index
        self._papers = library.by_id() if library is not None else {}
        # Papers decoded from stored fields, by id (no library given, or a stale index
        # served while another process rebuilds it).
        self._stored = Lru(STORED_CACHE)
        # Where the papers of an updated file now are (index.search.positions), on first use.
        self._positions: Positions | None = None
        self._hierarchy = taxonomy.implied_by()
        self.lexicon = saved_lexicon(opened.path)
        # A lean first index (index.search.lean): word starts and words counted from the
        # library when first needed, phrases checked against the library's text.
        self.lean = is_lean(self._index)
        if self.lean and library is None:
            raise ValueError(f"{opened.path}: a lean index is searched with its library")
        if self.lean and self.lexicon is None and library is not None:
            self.lexicon = lean_lexicon(library.papers)
        self._builder = QueryBuilder(self._hierarchy, read_table(opened.path), self.lexicon)
        self._typos = TypoRetry(
            lambda request: self._search(request, fallbacks=False), self._transposed, self.lexicon
        )
        self._parse_lock = threading.Lock()
        self._searchers = Searchers(self._index)
        self._searcher = self._searchers.searcher  # one for this thread (index.search.searchers)
        self._results = Lru(RESULT_CACHE)
        self._corrections = Lru(CORRECTION_CACHE)
        # Without a library: what the user's layer and the citation keys need of each
        # paper, as the build saved it (index.search.paper_keys), read on first use.
        self._saved_keys: SavedKeys | None = None
        self._paper_keys: list[PaperKeys] | None = None
        self._key_lookup: KeyLookup | None = None
        self._keys_lock = threading.Lock()
        with self._searcher() as searcher:
            # Saved by the build (index.search.facet_store); computed when missing or stale.
            self.masks = read_facet_masks(
                opened.path, searcher.reader(), self._read_column
            ) or facet_masks(searcher.reader())
            letters = read_letters(opened.path, searcher.reader(), self._searchers.held)
            self._postings = StoredPostings.open(opened.path, searcher.reader())
            if library is None:
                self._saved_keys = read_saved_keys(opened.path, searcher.reader())
        self.size: int = self.masks.live.bit_count()
        # The scored words' postings, kept between keystrokes (index.search.term_scores).
        self._term_scores = TermScores(self.masks.size, self._postings)
        # The match sets of queries and their parts (index.search.matching). It only calls
        # the letters' `get` (a `LetterMasks` mapping; annotated as a dict there).
        self._matching = QueryMasks(
            self.masks, cast(dict[str, int], letters), self._term_scores, self._paper_at
        )
        self._starts: WordStarts | None = None
        self._phrases: LeanPhrases | None = None
        if self.lean:
            ids, by_id = self.masks.ids, self._papers
            self._starts = WordStarts(
                lambda: ((d, by_id[i]) for d, i in enumerate(ids) if i in by_id), self.masks.size
            )
            self._matching.starts = self._starts.mask
            phrases = LeanPhrases(self._index.schema, lambda d: by_id.get(ids[d]), self.masks.size)
            self._matching.phrases, self._phrases = phrases.mask, phrases
        # The user's layer (tags, status, notes) and the source's tags, as masks; replaced
        # whole by `set_user_layer`, never re-indexed. The generation keys the caches.
        # Without a library (a CLI search on a current index) the source facets come from
        # the saved keys; the source's tags are the index's keyword facet either way. The
        # store serves such a search only when the library has no notes of its own (Zotero's
        # child notes are not saved with the keys: index.store.generations.open_if_current).
        papers = library.papers if library is not None else ()
        saved = self._saved_keys.collections if self._saved_keys is not None else ()
        self._source = source_facets(papers or saved)
        # The source's notes (Zotero's child notes) change with the library only: their
        # masks are built once here and merged into every layer.
        notes = source_notes(papers)
        self._source_notes = (
            NoteMasks.build(notes, live_docnums(self.masks.ids, self.masks.live), self.masks.size)
            if notes
            else NoteMasks()
        )
        self._user_layer = UserLayer()  # what `_layer` was made from
        self._layer = self._layer_masks(self._user_layer)
        self._layer_generation = 0
        self._layer_lock = threading.Lock()
        # The attachments' pages (index.search.fulltext), looked at again at each search.
        self._pages = (
            Pages(
                fulltext_dir, lambda: live_docnums(self.masks.ids, self.masks.live), self.masks.size
            )
            if fulltext_dir is not None
            else None
        )

    def _read_column(self, name: str) -> Any:
        """The multi-valued facets' columns (`lists`) or the sorted titles (`titles`), read
        from the index: a saved copy did not fit it."""
        with self._searcher() as searcher:
            if name == "titles":
                return column_values(searcher.reader(), "title_sort")
            return list_columns(searcher.reader())

    def preload(self) -> None:
        """Reads now what the first narrow or misspelt search would otherwise read: the
        saved facet columns and the lexicon.

        For a worker to call once the first page is shown (tui): a keystroke then does not
        pay for it (0.2 s at 100,000 papers).
        """
        self.masks.preload()
        if self.lexicon is not None:
            self.lexicon.counts  # noqa: B018  (read on first use)
        if self._starts is not None:
            self._starts.preload()

    @property
    def has_paper_keys(self) -> bool:
        """Opened without a library, on an index that saved its papers' keys."""
        return self._saved_keys is not None

    @property
    def paper_keys(self) -> list[PaperKeys] | None:
        """Every paper's saved keys (no library given), read on first use; else None.

        At 100,000 papers reading them is ~0.5 s that a search or a start without the
        user's tags never needs.
        """
        with self._keys_lock:
            if self._paper_keys is None and self._saved_keys is not None:
                self._paper_keys = self._saved_keys.rows()
            return self._paper_keys

    @property
    def key_lookup(self) -> KeyLookup | None:
        """The papers by identity and note name (index.search.key_lookup), read on first
        use, when opened without a library on an index that saved them; else None."""
        with self._keys_lock:
            if self._key_lookup is None and self._saved_keys is not None:
                self._key_lookup = self._saved_keys.lookup()
            return self._key_lookup

    def saved_citation_keys(self) -> dict[str, str] | None:
        """Paper id -> citation key as the build computed it over the whole library (no
        library given), without reading every paper's keys; else None."""
        return self._saved_keys.citation_keys() if self._saved_keys is not None else None

    def set_user_layer(self, layer: UserLayer) -> bool:
        """Use the user's current tags, statuses and notes from the next search on.

        The masks are built here, once per change (milliseconds at 100,000 papers); cached
        results and match sets of the previous layer are no longer served. Returns False,
        changing nothing, when `layer` is the one in use: the app's start hands over an
        empty layer, and a new user's searches need not start again for it.
        """
        if layer == self._user_layer:
            return False
        masks = self._layer_masks(layer)
        with self._layer_lock:
            self._layer = masks
            self._user_layer = layer
            self._layer_generation += 1
        return True

    def _layer_masks(self, layer: UserLayer) -> LayerMasks:
        return LayerMasks(layer, self._source, self.masks.ids, self.masks.live, self._source_notes)

    # -- closing ----------------------------------------------------------------------------

    def close(self) -> None:
        """Closes every searcher and the index; the engine cannot be used afterwards."""
        self._searchers.close()
        self._postings.close()
        if self._pages is not None:
            self._pages.close()
        self._index.close()

    def forget_cached(self) -> None:
        """Forget cached results, match sets, scored words, prefix expansions, automata and
        the words of the texts highlighted.

        The next search then does all of its work, as the first search of a session does:
        what the torture tests and benchmarks time. Masks of the facets and of the first
        keystrokes (built with the index) are kept.
        """
        with self._parse_lock:
            self._builder.expander.forget()
        if self.lexicon is not None:
            self.lexicon.forget()
        for cache in (self._results, self._matching.cache, self._corrections):
            with cache.lock:
                cache.clear()
        self._term_scores.clear()
        if self._phrases is not None:
            self._phrases.forget()
        clear_automata()
        forget_highlighted()

    # -- searching -------------------------------------------------------------------------

    def search(
        self, request: SearchRequest, cancelled: Callable[[], bool] | None = None
    ) -> SearchResult:
        """Ranked hits, totals and facet counts for `request` (identical ones are cached).

        Args:
            cancelled: asked as the work goes on; once it returns True the search stops
                and raises `index.cancel.Cancelled` (a superseded query's work ends early
                instead of delaying the next one). Nothing half-done is cached.
        """
        with cancellable(cancelled):
            return self._search(request)

    def _search(self, request: SearchRequest, fallbacks: bool = True) -> SearchResult:
        """`fallbacks`: offer a correction and retry fuzzily when nothing is found (not
        for the searches those make themselves)."""
        started = time.perf_counter()
        with self._layer_lock:
            layer, generation = self._layer, self._layer_generation
        view, pages_generation = self._pages.current() if self._pages else (None, 0)
        cached = self._results.fetch((request, generation, pages_generation))
        if cached is not None:
            return replace(cached, elapsed_ms=(time.perf_counter() - started) * 1000)

        def finds(query: str) -> bool:
            """Whether `query`, with this request's filters, finds a paper."""
            other = replace(request, query=query, as_you_type=False, counts=False, limit=0)
            return self._search(other, fallbacks=False).total > 0

        with self._searcher() as searcher:
            with self._parse_lock:
                parsed = self._builder.parse(request.query, searcher.reader(), request.as_you_type)
            masks = self.masks
            evaluation = Evaluation(parsed.prefixes, layer, generation)

            def main(q: Any) -> int:
                return self._matching.mask(searcher, q, evaluation)

            # With the attachments' pages: None when they change nothing for this query.
            found = match_fulltext(view, parsed, main, masks.live)
            base = (
                masks.live
                if parsed.query is None
                else found.loose
                if found is not None
                else main(parsed.query)
            )
            selected = selection_masks(masks, request, searcher.reader())
            selected.update(layer.selections(request))
            if request.within is not None:  # never a facet's name: every count applies it
                selected["within"] = layer.papers_mask(request.within)
            final = base
            for mask in selected.values():
                final &= mask
            facets, more_values = (
                self._counts(searcher, layer, request, base, selected)
                if request.counts
                else ({}, frozenset())
            )
            ranking = lean_ranking(parsed, main) if self.lean else parsed
            if ranking.query is not None and uses_layer(ranking.query):
                # Whoosh cannot score fields it does not hold: rank by the rest.
                ranking = replace(ranking, query=without_layer(ranking.query))

            def rank(part: int, filtered: bool) -> list[tuple[float, int]]:
                return top_rows(
                    searcher, masks, ranking, request, part, filtered, self._term_scores
                )

            if found is None:
                ranked = rank(final, final != base or ranking is not parsed)
            else:
                ranked = found.rows(
                    request, final, rank, lambda part, n: in_order(masks, masks.order_year, part, n)
                )
            highlighter = Highlighter(parsed.terms)
            hits = tuple(self._hit(searcher, d, score, highlighter) for score, d in ranked)
            if found is not None:
                hits = with_pages(self._pages, found, hits, [d for _, d in ranked], parsed.terms)
            total = final.bit_count()
            # Not while the last word is still being typed: it is a prefix of the word the
            # user means, and every zero-result keystroke paid for a correction.
            typing = request.as_you_type and not request.query.endswith(" ")
            # A search of the pages (`fulltext:`) is no typo of a paper's words or key.
            fallbacks = fallbacks and not (found is not None and found.explicit)
            words: list[str] = []
            unknown: set[str] = set()
            rare: set[str] = set()
            fallback = total <= ALMOST_NOTHING and parsed.query is not None and not typing
            if fallback and fallbacks:
                # The words as typed (not the fuzzy words' expansions that `terms`
                # adds for highlighting); a fuzzy word is kept as written.
                typed = positive_words(parsed.text, keep_fuzzy=True)
                words = [t.rstrip("*") for t in typed if not is_wildcard(t)]
                reader = searcher.reader()
                if total == 0:
                    unknown = set(unknown_words(reader, words, prefixes=False))
                rare = rare_words(reader, self.lexicon, words)
        result = SearchResult(
            request=request,
            total=total,
            hits=hits,
            facets=facets,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            notice=parsed.notice,
            partial=parsed.partial,
            terms=parsed.terms,
            library_size=self.size,
            more_values=more_values,
        )
        if fallback and fallbacks and total == 0:
            # The fuzzy retry first: the correction's candidate searches then find the
            # near words' match sets made (each is one of the fuzzy words' expansions).
            result = self._typos.nothing_found(result, unknown | rare, started) or result
            result = replace(
                result,
                correction=self._correction(parsed.terms, request, words, finds),
                elapsed_ms=(time.perf_counter() - started) * 1000,
            )
        elif rare:
            result = self._typos.few_found(result, rare, started) or result
        self._results.store((request, generation, pages_generation), result)
        return result

    def _correction(
        self,
        terms: tuple[str, ...],
        request: SearchRequest,
        words: list[str],
        finds: Callable[[str], bool],
    ) -> str | None:
        """The "did you mean" of a query that found nothing as written (cached)."""
        key = ("correction", terms, request)
        known = self._corrections.fetch(key)  # "" means: no suggestion
        if known is None:
            with self._searcher() as searcher:
                known = correct(searcher.reader(), self.lexicon, words, finds) or ""
            self._corrections.store(key, known)
        return known or None

    def _transposed(self, word: str) -> str | None:
        with self._searcher() as searcher:
            return transposed(searcher.reader(), self.lexicon, word)

    def _counts(
        self,
        searcher: Searcher,
        layer: LayerMasks,
        request: SearchRequest,
        base: int,
        selected: dict[str, int],
    ) -> tuple[dict[str, tuple[FacetCount, ...]], frozenset[str]]:
        """Every facet's counts over the matches, the user's layer's facets among them."""
        facets, more_values = facet_counts(
            self.masks, self.taxonomy, request, base, selected, searcher.reader()
        )
        layer_counts, layer_more = layer.counts(request, base, selected)
        for facet, counts in layer_counts.items():
            # The layer's facets are its own (the user's, and the source's collections).
            if facet not in facets:
                facets[facet] = counts
                if facet in layer_more:
                    more_values |= {facet}
        return facets, more_values

    def _hit(self, searcher: Searcher, docnum: int, score: float, highlighter: Highlighter) -> Hit:
        paper = self._paper_at(searcher, docnum)
        matched: list[str] = []
        if highlighter:
            for name, text in (
                ("title", paper.title),
                ("short_name", paper.short_name or ""),
                ("authors", " ".join(paper.authors)),
                ("abstract", paper.abstract),
                ("venue", paper.venue or ""),
            ):
                if text and highlighter.any_in(text):
                    matched.append(name)
        return Hit(
            paper=paper,
            score=score,
            matched_fields=tuple(matched),
            snippet=highlighter.fragment(paper.abstract),
            title=highlighter.whole(paper.title),
        )

    def _paper_at(self, searcher: Searcher, docnum: int) -> Paper:
        paper_id = self.masks.ids[docnum]
        paper = self._papers.get(paper_id)
        if paper is None:  # no library given, or a stale index served during a rebuild
            paper = self._stored.fetch(paper_id)
            if paper is None:
                paper = Paper.from_dict(json.loads(searcher.stored_fields(docnum)["paper"]))
                if self._positions is None:  # read on the first decode (benign race)
                    self._positions = read_positions(self.opened.path)
                paper = placed(paper, self._positions)
                self._stored.store(paper_id, paper)
        return paper

    # -- single papers ---------------------------------------------------------------------

    def paper_ids(self) -> frozenset[str]:
        """The id of every paper in the index, without decoding one."""
        return frozenset(live_docnums(self.masks.ids, self.masks.live))

    def papers(self, paper_ids: Iterable[str]) -> list[Paper]:
        """The papers with these ids that the index has, in their order, read in one pass."""
        docnums = live_docnums(self.masks.ids, self.masks.live)
        with self._searcher() as searcher:
            return [self._paper_at(searcher, docnums[i]) for i in paper_ids if i in docnums]

    def paper(self, paper_id: str) -> Paper | None:
        """The paper with this id, or None."""
        paper = self._papers.get(paper_id)
        if paper is not None:
            return paper
        with self._searcher() as searcher:
            docnum = searcher.document_number(id=paper_id)
            return None if docnum is None else self._paper_at(searcher, docnum)

    def more_like_this(self, paper_id: str, limit: int = 5) -> tuple[Paper, ...]:
        """Papers sharing this one's most distinctive words, in their abstracts or titles.

        The words are Whoosh's key terms (as its `more_like` picks them) of the title among
        the titles and of title and abstract among the abstracts; each is looked for in
        both fields. Abstracts alone missed every paper that has none: in a lab's shared .bib
        most have only a title, and "Sparse coding of sensory inputs" was shown "PreSense:
        ... Finger Sensing Input Devices", not the two titles about sparse coding. A paper
        with an abstract counts a title match as an abstract match (the title's field boost
        divided out), so one shared title word does not outweigh a shared subject; a paper
        with only a title has only its title to go by, and keeps the boost.
        """
        paper = self.paper(paper_id)
        if paper is None:
            return ()
        with self._searcher() as searcher:
            docnum = searcher.document_number(id=paper_id)
            if docnum is None:
                return ()
            # Whoosh keeps only words its field holds: a word found in titles alone (in a
            # library of titles) is a key term of the title field, not of the abstracts.
            words = dict(searcher.key_terms_from_text("title", paper.title, numterms=6))
            text = f"{paper.title} {paper.abstract}"
            for word, weight in searcher.key_terms_from_text("abstract", text, numterms=12):
                words[word] = max(weight, words.get(word, 0.0))
            title_boost = searcher.schema["title"].format.field_boost if paper.abstract else 1.0
            terms = [("abstract", word, weight) for word, weight in words.items()]
            terms += [("title", word, weight / title_boost) for word, weight in words.items()]
            others = self.masks.live & ~(1 << docnum)
            rows = best_scoring(searcher, self.masks, terms, others, limit, self._term_scores)
            return tuple(self._paper_at(searcher, row) for _, row in rows)

    def highlight(self, text: str, terms: Sequence[str]) -> Snippet:
        """All of `text` with the query's words highlighted ("word*" is a prefix)."""
        return Highlighter(terms).whole(text)
