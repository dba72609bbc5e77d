"""The records as read, shown and searched before the library is merged, tagged and indexed.

A first start's rows waited for the index (or its sample's), after the files were read,
their duplicates merged and every paper tagged: 3,670 papers of a Better BibTeX export
showed nothing for ~10 s, when nothing needs an index to show the first page of an
unfiltered list (issue 50). The load hands its caller the parsed records as soon as the
files are read (`load_library`'s `read`); the app shows their first page at once and
answers a search typed meanwhile with `ReadRecords.matching`, a plain scan saying what
it is: every word of the query somewhere in a record's title, authors, year, venue or
key, before duplicates are merged (no stemming, no syntax, no facets).

A record is named as the finished library will name it when its raw id is settled
(`early_sample.settled_ids`), so the cursor on it stays on the same paper when the index
takes over; the others keep their raw id until then.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from index.models import Hit, Paper, SearchRequest, SearchResult, replace

__all__ = ["PLAIN_NOTICE", "Read", "ReadRecords", "plain_request"]

# What a load tells its caller once the files are read (`load_library`'s `read`).
Read = Callable[["ReadRecords"], None]
# The status line's notice on a search the records answered (`ReadRecords.search`).
PLAIN_NOTICE = "words matched in titles, authors and venues until the index is ready"
# Query syntax a plain scan would take literally: fields, phrases, exclusions, patterns.
_SYNTAX = frozenset(':"*?~()[]{}^')


def plain_request(request: SearchRequest) -> bool:
    """Whether the records answer `request` as the index would, bar ranking: no filter
    selected (the records are not tagged) and no query syntax, only words."""
    query = request.query
    return (
        not request.filter_count
        and request.within is None
        and not _SYNTAX.intersection(query)
        and not any(word.startswith("-") for word in query.split())
    )


@dataclass(eq=False)
class ReadRecords:
    """The parsed records of a first load, before dedupe (see the module docstring).

    Attributes:
        papers: every record, in load order (the load's own list, not copied).
        ids: each record's raw id as an id (`early_sample.raw_ids`).
        settled: the raw ids exactly one record has (`early_sample.settled_ids`).
    """

    papers: Sequence[Paper]
    ids: Sequence[str]
    settled: set[str]
    _texts: list[str] | None = field(default=None, repr=False)
    _by_id: dict[str, int] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def of_library(cls, papers: Sequence[Paper]) -> ReadRecords:
        """The loaded library's papers, merged and tagged, answering the same way while
        their index is built (their ids are final)."""
        ids = [paper.id for paper in papers]
        return cls(papers, ids, set(ids))

    def __len__(self) -> int:
        return len(self.papers)

    def _id(self, index: int) -> str:
        slug = self.ids[index]
        return slug if slug in self.settled else self.papers[index].id

    def named(self, index: int) -> Paper:
        """Record `index`, named by its settled id (what the finished library calls it)."""
        paper, name = self.papers[index], self._id(index)
        return paper if name == paper.id else replace(paper, id=name)

    def paper(self, paper_id: str) -> Paper | None:
        """The record shown as `paper_id` (for the detail pane), or None."""
        with self._lock:
            if self._by_id is None:
                self._by_id = {self._id(i): i for i in range(len(self.papers))}
        index = self._by_id.get(paper_id)
        return None if index is None else self.named(index)

    def matching(self, request: SearchRequest) -> tuple[list[Paper], int]:
        """The first `request.limit` records matching its query plainly, in its sort
        order (relevance: newest first, as the index orders an empty query), and how many
        match. Meant for a worker thread: the first call folds every record's text
        (~0.1 s at 100,000 records)."""
        words = request.query.casefold().split()
        if words:
            texts = self._folded()
            found = [i for i, text in enumerate(texts) if all(word in text for word in words)]
        else:
            found = list(range(len(self.papers)))
        if request.within is not None:  # the marked papers only
            found = [i for i in found if self._id(i) in request.within]
        papers = self.papers
        if request.sort == "title":
            found.sort(key=lambda i: (papers[i].title.casefold(), self.ids[i]))
        elif request.sort == "year-asc":
            found.sort(key=lambda i: (not papers[i].year, papers[i].year or 0, papers[i].title))
        elif request.sort == "author":
            found.sort(key=lambda i: (_family(papers[i]) or "\uffff", -(papers[i].year or 0)))
        else:
            found.sort(key=lambda i: (-(papers[i].year or 0), papers[i].title, self.ids[i]))
        return [self.named(i) for i in found[: max(0, request.limit)]], len(found)

    def search(
        self, request: SearchRequest, cancelled: Callable[[], bool] | None = None
    ) -> SearchResult:
        """`request` answered from the records, as an engine answers it: the page of
        `matching`, no facet counts, a notice saying so when it has words. `cancelled` is
        accepted for the engine's signature; a scan is over in ~0.1 s."""
        started = time.perf_counter()
        papers, total = self.matching(request)
        return SearchResult(
            request=request,
            total=total,
            hits=tuple(Hit(paper, 0.0) for paper in papers),
            facets={},
            elapsed_ms=(time.perf_counter() - started) * 1000,
            notice=PLAIN_NOTICE if request.query.strip() else None,
            library_size=len(self.papers),
        )

    def _folded(self) -> list[str]:
        with self._lock:
            if self._texts is None:
                self._texts = [
                    " ".join(
                        (
                            paper.title,
                            " ".join(paper.authors),
                            str(paper.year or ""),
                            paper.venue or "",
                            paper.id,
                        )
                    ).casefold()
                    for paper in self.papers
                ]
            return self._texts


def _family(paper: Paper) -> str:
    first = paper.authors[0] if paper.authors else ""
    return first.split()[-1].casefold() if first.split() else ""
