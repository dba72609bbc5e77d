"""The page index (index.fulltext.page_index) as the engine reads it: pages -> papers.

A sync commits new pages while searches run; the engine asks `Pages.current()` at every
search, which costs one `stat` of the sync's record while nothing changed, and opens a
new `PageView` when it did. A view maps each page to the engine's document number of its
paper once, so a word's pages become a mask of papers (the engine's match sets) with one
pass over its postings, kept per word.
"""

from __future__ import annotations

import logging
import os
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

from whoosh import query as wq
from whoosh.index import Index
from whoosh.searching import Searcher

from index.fulltext.page_index import TEXT_FIELD, open_page_index, pages_folder
from index.fulltext.store import FulltextStore
from index.search.bitsets import Lru, mask_of, member_test, posting_ids
from index.search.term_scores import TermParts, TermScores
from index.whoosh_ext.blocks import phrase_ids
from index.whoosh_ext.columns import column_values, deleted_docnums

__all__ = ["MIN_ASKED_PREFIX", "MIN_PREFIX", "PageView", "Pages"]

log = logging.getLogger("paperscope.index")

# Word and phrase masks one view keeps (they only depend on the view).
MASK_CACHE = 1024
# Attachments' texts kept for snippets (a page of results, with room for paging on).
TEXT_CACHE = 64
# Completions a typed prefix is searched for in the pages (the most frequent), and at
# least this many letters before it is looked for there at all: full text holds far
# more words than the abstracts, and a one-letter prefix would match nearly every page.
# Each common completion is ~10 ms of postings at 45,000 pages; the pages' matches come
# after the library's anyway, and the finished word is searched whole.
PREFIX_CAP = 8
PREFIX_SCAN = 1000
MIN_PREFIX = 4
# Words a fuzzy word or a pattern (`fulltext:quok?a`) is searched for in the pages.
PATTERN_CAP = 8
# A prefix the user asked the pages for (`fulltext:kv*`, or typing `fulltext:kv`).
MIN_ASKED_PREFIX = 2


class PageView:
    """One committed state of the page index, mapped onto one engine's papers."""

    def __init__(self, ix: Index, docnum_of: dict[str, int], size: int) -> None:
        self.index = ix
        self.size = size  # the engine's document count: masks are of papers
        # One searcher: a Whoosh index opens each new searcher at its latest commit, and
        # the page -> paper map is of one. Reads take turns (`searcher`); they are few.
        self._searcher = ix.searcher()
        self.generation = self._searcher.reader().generation()
        self._lock = threading.RLock()
        self.masks = Lru(MASK_CACHE)
        with self.searcher() as searcher:
            reader = searcher.reader()
            self.pages = reader.doc_count_all()
            # Read at once (index.whoosh_ext.columns): a column reader's lookup per page
            # cost ~0.3 s at 45,000 pages, at the first search after each sync.
            self.paper_of: array[int] = array(
                "i", [docnum_of.get(str(paper), -1) for paper in column_values(reader, "paper")]
            )
            # Deleted pages, and each attachment's head (its page count, no text).
            for page in (*deleted_docnums(reader), *posting_ids(reader, "head", "1")):
                self.paper_of[page] = -1
        # Each paper's first and last page (an attachment's pages are written together),
        # for scoring a few papers' pages without reading every posting.
        self.span_of: dict[int, tuple[int, int]] = {}
        for page, paper in enumerate(self.paper_of):
            if paper >= 0:
                first = self.span_of.get(paper)
                self.span_of[paper] = (page if first is None else first[0], page)
        self.scores = TermScores(self.pages)

    @contextmanager
    def searcher(self) -> Iterator[Searcher]:
        """The view's searcher, for this thread until the block ends."""
        with self._lock:
            yield self._searcher

    def close(self) -> None:
        """Closes the searcher (after a read in progress ends) and the index."""
        with self._lock:
            self._searcher.close()
            self.index.close()

    def parts(self, word: str) -> TermParts:
        """The pages holding the stemmed `word` and its BM25 part in each."""
        with self.searcher() as searcher:
            return self.scores.parts(searcher, TEXT_FIELD, word)

    def papers(self, pages: Iterable[int]) -> int:
        """The mask of the papers these pages belong to."""
        papers = set(map(self.paper_of.__getitem__, pages))  # a paper's pages: one bit
        papers.discard(-1)
        return mask_of(list(papers), self.size)

    def phrase_mask(self, q: wq.Phrase) -> int:
        """Papers with a page holding the phrase `q` (of the pages' field): only the pages
        holding every word have their positions read (index.whoosh_ext.blocks), as the
        library's phrases are matched; Whoosh's phrase matcher stepped every posting of
        every word (~0.4 s for "mixture of experts" over 45,000 pages)."""
        key = ("phrase", q)
        found = self.masks.fetch(key)
        if found is not None:
            return found
        pages_found: list[int] = []
        with self.searcher() as searcher:
            reader = searcher.reader()
            candidates: set[int] | None = None
            for word in q.words:
                pages = set(posting_ids(reader, TEXT_FIELD, str(word)))
                candidates = pages if candidates is None else candidates & pages
                if not candidates:
                    break
            if candidates:
                test = member_test(mask_of(sorted(candidates), self.pages), self.pages)
                terms = [str(word).encode("utf-8") for word in q.words]
                matched = phrase_ids(reader, TEXT_FIELD, terms, q.slop, test)
                # None: not Whoosh's block postings; Whoosh's phrase matcher then.
                pages_found = list(searcher.docs_for_query(q)) if matched is None else matched
        found = self.papers(pages_found)
        self.masks.store(key, found)
        return found

    def word_mask(self, word: str) -> int:
        """Papers with a page holding the stemmed `word`: its postings' ids alone (a
        tenth of reading their scores, which only the ranking of a few papers needs)."""
        key = ("word", word)
        found = self.masks.fetch(key)
        if found is None:
            with self.searcher() as searcher:
                found = self.papers(posting_ids(searcher.reader(), TEXT_FIELD, word))
            self.masks.store(key, found)
        return found

    def frequency(self, word: str) -> int:
        """How many pages hold the stemmed `word` (deleted ones included)."""
        with self.searcher() as searcher:
            return int(searcher.reader().doc_frequency(TEXT_FIELD, word))

    def with_text(self) -> int:
        """Papers with at least one page of text."""
        found = self.masks.fetch(("every",))
        if found is None:
            found = self.papers(range(self.pages))
            self.masks.store(("every",), found)
        return found

    def completions(self, prefix: str, minimum: int = MIN_PREFIX) -> list[str]:
        """The most frequent words of the pages that start with `prefix` (none when it is
        shorter than `minimum`)."""
        if len(prefix) < minimum:
            return []
        key = ("prefix", prefix)
        found = self.masks.fetch(key)
        if found is None:
            with self.searcher() as searcher:
                reader = searcher.reader()
                words = []
                for count, word in enumerate(reader.expand_prefix(TEXT_FIELD, prefix)):
                    if count == PREFIX_SCAN:
                        break
                    text = word.decode("utf-8") if isinstance(word, bytes) else str(word)
                    words.append((reader.doc_frequency(TEXT_FIELD, text), text))
            found = [text for _, text in sorted(words, reverse=True)[:PREFIX_CAP]]
            self.masks.store(key, found)
        return list(found)

    def expanded(self, q: wq.Query) -> list[str]:
        """The pages' words a fuzzy word or a pattern of theirs matches, the commonest
        `PATTERN_CAP` (Whoosh finds them)."""
        key = ("expanded", q)
        found = self.masks.fetch(key)
        if found is None:
            with self.searcher() as searcher:
                reader = searcher.reader()
                words = [
                    text.decode("utf-8") if isinstance(text, bytes) else str(text)
                    for _, text in islice(q.expanded_terms(reader), PREFIX_SCAN)
                ]
                ranked = sorted(
                    ((reader.doc_frequency(TEXT_FIELD, w), w) for w in words), reverse=True
                )
            found = [word for _, word in ranked[:PATTERN_CAP]]
            self.masks.store(key, found)
        return list(found)

    def located(self, page: int) -> tuple[str, int] | None:
        """The unit key and page number of a page document."""
        with self.searcher() as searcher:
            stored = searcher.stored_fields(page)
        unit, number = stored.get("unit"), stored.get("page")
        return (str(unit), int(number)) if unit is not None and isinstance(number, int) else None


class Pages:
    """The page index under one cache folder, as seen by one engine; thread-safe.

    `docnum_of` gives the engine's paper id -> document number (asked once, when there is
    full text to map); `size` is the engine's document count.
    """

    def __init__(self, cache_dir: Path, docnum_of: Callable[[], dict[str, int]], size: int) -> None:
        self.cache_dir = Path(cache_dir)
        self.store = FulltextStore(self.cache_dir)
        self._docnum_of = docnum_of
        self._docnums: dict[str, int] | None = None
        self._size = size
        self._record = pages_folder(self.cache_dir) / "synced.json"
        self._stamp: tuple[int, int, int] | None = None
        self._view: PageView | None = None
        self._generation = 0
        self._lock = threading.Lock()
        self._texts = Lru(TEXT_CACHE)

    def current(self) -> tuple[PageView | None, int]:
        """The view to search now (None: no full text yet) and its generation number."""
        try:
            info = os.stat(self._record)
            stamp: tuple[int, int, int] | None = (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError:
            stamp = None
        with self._lock:
            if stamp == self._stamp:
                return self._view, self._generation
            ix = open_page_index(self.cache_dir) if stamp is not None else None
            old = self._view
            if ix is not None and old is not None and ix.latest_generation() == old.generation:
                ix.close()
            else:
                if ix is not None and self._docnums is None:
                    self._docnums = self._docnum_of()
                self._view = self._opened(ix) if ix is not None else None
                self._generation += 1
                # The old view is not closed: a search may still be reading it. Its files
                # close with it, when the last search using it lets it go.
            self._stamp = stamp
            return self._view, self._generation

    def _opened(self, ix: Index) -> PageView | None:
        """A view of `ix`; None (no full text) when it cannot be read, never an error."""
        try:
            return PageView(ix, self._docnums or {}, self._size)
        except Exception as error:  # a damaged page index: search without it
            log.warning("the full-text index cannot be read (%s); searching without it", error)
            ix.close()
            return None

    def page_text(self, digest: str, page: int) -> str:
        """The text of one page of a stored file ("" when the store no longer has it)."""
        pages = self._texts.fetch(digest)
        if pages is None:
            extracted = self.store.get(digest)
            pages = extracted.pages if extracted is not None else ()
            self._texts.store(digest, pages)
        index = max(page, 1) - 1
        return pages[index] if index < len(pages) else ""

    def close(self) -> None:
        with self._lock:
            if self._view is not None:
                self._view.close()
            self._view = None
            self._stamp = None
