"""Equal results come in the same order from any build of the same library.

Papers that tie (the same score, year and title) were ordered by document number, which
the parallel writer may assign differently from one build to the next: the rows of a
query, and so the paper under the cursor after a rebuild, could change with nothing
changed. They are ordered by paper id. Here the same papers are indexed in two orders, so
every document number differs, and every way of ranking must agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import index.search.ranking as ranking
from index import open_engine
from index.facets.taxonomy import Taxonomy
from index.models import Library, Paper, SearchRequest
from index.search.engine import SearchEngine

# Twelve papers that tie on everything a ranking looks at, and four that do not.
TWINS = [
    Paper(id=f"twin-{n:02d}", title="Sparse attention kernels", year=2022, authors=("Ann Lee",))
    for n in (7, 3, 11, 0, 9, 5, 1, 10, 2, 8, 6, 4)
]
OTHERS = [
    Paper(id="other-a", title="Sparse attention kernels on GPUs", year=2023),
    Paper(id="other-b", title="Dense attention", year=2022),
    Paper(id="other-c", title="Sparse kernels", year=2020, authors=("Bo Chen",)),
    Paper(id="other-d", title="Attention", year=None),
]
PAPERS = TWINS + OTHERS


def _engine(papers: list[Paper], taxonomy: Taxonomy, cache: Path) -> SearchEngine:
    return open_engine(Library(papers=tuple(papers)), taxonomy, cache)


@pytest.fixture(scope="module")
def engines(
    taxonomy: Taxonomy, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[SearchEngine, SearchEngine]]:
    """The same papers indexed in both orders; the tests only search them."""
    forward = _engine(PAPERS, taxonomy, tmp_path_factory.mktemp("forward"))
    backward = _engine(PAPERS[::-1], taxonomy, tmp_path_factory.mktemp("backward"))
    yield forward, backward
    forward.close()
    backward.close()


def _rows(engine: SearchEngine, request: SearchRequest) -> list[str]:
    return [hit.paper.id for hit in engine.search(request).hits]


REQUESTS = [
    SearchRequest(limit=50),  # no query: newest first
    SearchRequest(query="sparse attention", limit=50),
    SearchRequest(query="sparse", limit=5),  # the cut falls inside the tie
    SearchRequest(query="spa", as_you_type=True, limit=5),
    *(SearchRequest(sort=sort, limit=50) for sort in ("title", "year-asc", "author")),
    SearchRequest(query="attention", sort="title", limit=3),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: f"{r.query or '-'}/{r.sort}/{r.limit}")
def test_any_build_gives_the_same_rows(
    engines: tuple[SearchEngine, SearchEngine], request_: SearchRequest
) -> None:
    forward, backward = engines
    assert _rows(forward, request_) == _rows(backward, request_)


def test_tied_papers_come_by_id(engines: tuple[SearchEngine, SearchEngine]) -> None:
    forward, _ = engines
    rows = _rows(forward, SearchRequest(query="sparse attention kernels", limit=50))
    twins = [row for row in rows if row.startswith("twin-")]
    assert twins == sorted(paper.id for paper in TWINS)
    assert _rows(forward, SearchRequest(sort="title", limit=3)) == [
        "other-d",
        "other-b",
        "twin-00",
    ]


# A range is ranked by Whoosh's own collector, with a limit, once the match set is big
# (words are summed term at a time at any size: ranking._sums_its_terms).
KERNELS = "title:[kernel TO kernelz]"


def test_whooshs_collector_cut_inside_a_tie_takes_the_first_ids(
    engines: tuple[SearchEngine, SearchEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whoosh's collector settles a tie at its cut by document number. The size from which
    # it ranks is lowered here so sixteen papers take that path.
    monkeypatch.setattr(ranking, "TERM_AT_A_TIME_LIMIT", 0)
    for limit in (1, 2, 3, 5):
        request = SearchRequest(query=KERNELS, limit=limit)
        forward, backward = (_rows(engine, request) for engine in engines)
        assert forward == backward
        assert len(forward) == limit


def test_a_cut_between_different_scores_collects_no_more(
    taxonomy: Taxonomy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Shorter titles score higher: ten different scores, so twice the limit is enough.
    papers = [
        Paper(id=f"k{n}", title="Kernels " + " ".join(["word"] * n), year=2020) for n in range(10)
    ]
    monkeypatch.setattr(ranking, "TERM_AT_A_TIME_LIMIT", 0)
    limits: list[Any] = []
    original = ranking.Searcher.search

    def search(self: Any, q: Any, **options: Any) -> Any:
        limits.append(options.get("limit"))
        return original(self, q, **options)

    monkeypatch.setattr(ranking.Searcher, "search", search)
    for number, order in enumerate((papers, papers[::-1])):
        engine = _engine(order, taxonomy, tmp_path / str(number))
        try:
            limits.clear()
            assert _rows(engine, SearchRequest(query=KERNELS, limit=2)) == ["k0", "k1"]
            assert limits == [4]  # the top four, once: no second, unlimited collection
        finally:
            engine.close()
