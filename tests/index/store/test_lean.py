"""A big library's first build serves a lean index of every paper, then the full one.

`index.store.lean` and `index.search.lean`: the threshold is lowered so a small generated
library gets a lean index first (built in this process, as a library under
`PARALLEL_MIN_PAPERS` is; one test builds both in the build process, as a large library
does). The lean index must answer words, fields, filters and facet counts exactly as the
full one (word starts and phrases included) and never raise; the full
index must be exactly a one-shot build's; a start killed between the two must leave no
index the next start could take for a complete one.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from index import open_current_engine, open_engine
from index.models import Library, SearchRequest
from index.search.engine import SearchEngine
from index.store import lean as lean_module
from index.store import writer
from index.store.generations import library_dir
from tests.fixtures.search.generate import TAXONOMY, make_library
from tests.index.store.test_store import file_library

PAPERS = 60
# What the lean index answers exactly: words, fields, operators, fuzzy words, years.
EXACT = [
    "",
    "pipeline",
    "memory training",
    "topic:training",
    "hw:gpu",
    "author:li",
    "venue:osdi",
    "year:2020..2022",
    "-pipeline memory",
    "pipeline OR zebrafish",
    "quantizaton~",
    "title:kernel",
    "Müller",
    "pipelien memroy",  # nothing found: the fuzzy retry and "did you mean"
]
# Requests with filters, sorts and facet selections on top of a query.
FILTERED = [
    SearchRequest(query="memory", topics=frozenset({"training"}), limit=100),
    SearchRequest(query="", hardware=frozenset({"gpu"}), sort="year", limit=100),
    SearchRequest(query="kernel", venues=frozenset({"OSDI", "SOSP"}), limit=100),
    SearchRequest(query="", years=frozenset({2021}), sort="title", limit=100),
]


@pytest.fixture
def lean_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library of 60 papers is big enough for a lean index first."""
    monkeypatch.setattr(lean_module, "LEAN_MIN_PAPERS", 40)


def _answer(engine: SearchEngine[Any], request: SearchRequest) -> tuple[object, ...]:
    result = engine.search(request)
    hits = [h.paper.id for h in result.hits]
    return (hits, result.total, result.facets, result.notice, result.correction)


def _answers(engine: SearchEngine[Any]) -> list[tuple[object, ...]]:
    """What each exact query and filtered request gives: ranked ids, total, facets, notice."""
    requests = [SearchRequest(query=q, limit=100) for q in EXACT] + FILTERED
    return [_answer(engine, request) for request in requests]


def _first_start(library: Library, cache: Path) -> tuple[SearchEngine[Any], SearchEngine[Any]]:
    """(the lean engine handed over first, the full engine returned)."""
    shown: list[SearchEngine[Any]] = []
    final = open_engine(library, TAXONOMY, cache, preview=shown.append)
    (lean,) = shown
    return lean, final


def test_the_lean_index_answers_words_fields_filters_and_facets_as_the_full_one(
    tmp_path: Path, lean_first: None
) -> None:
    library = make_library(PAPERS)
    lean, final = _first_start(library, tmp_path / "cache")
    one_shot = open_engine(library, TAXONOMY, tmp_path / "one-shot")  # no preview asked
    try:
        assert lean.lean and lean.opened.action == "lean" and lean.size == PAPERS
        assert not final.lean and not one_shot.lean
        assert _answers(lean) == _answers(final) == _answers(one_shot)
        assert not any("until the index is complete" in str(a[3]) for a in _answers(lean))
        paper = library.papers[5]
        assert lean.paper(paper.id) == paper  # the library's own papers, not stored ones
        assert lean.lexicon is not None and final.lexicon is not None
        assert lean.lexicon.counts == final.lexicon.counts  # counted from the library
    finally:
        for engine in (lean, final, one_shot):
            engine.close()


def test_the_lean_index_has_no_ngrams_positions_or_stored_papers(
    tmp_path: Path, lean_first: None
) -> None:
    lean, final = _first_start(make_library(PAPERS), tmp_path / "cache")
    try:
        with lean.opened.index.searcher() as searcher:
            assert not list(searcher.lexicon("prefix"))
            assert not searcher.schema["abstract"].format.supports("positions")
            assert "paper" not in searcher.stored_fields(0)
            years = len(list(searcher.lexicon("year")))  # no shifted terms
        with final.opened.index.searcher() as searcher:
            assert list(searcher.lexicon("prefix"))
            assert len(list(searcher.lexicon("year"))) > years
    finally:
        lean.close()
        final.close()


@pytest.mark.parametrize(
    ("query", "typing"),
    [
        ("pipe", True),
        ("memory tra", True),
        ("micro*", False),
        ('"memory bandwidth"', False),
        ('title:"workload memory"', False),
        ('"kernel serving" gra', True),
        ('"memory band', True),  # one word so far: `"memory" band`
        ('"kernel fusion"~2', False),
    ],
)
def test_phrases_and_word_starts_are_answered_exactly_on_the_lean_index(
    tmp_path: Path, lean_first: None, query: str, typing: bool
) -> None:
    """Word starts and phrases are the full index's answers, and say nothing of the lean
    index (tests/index/search/test_lean_starts.py and test_lean_phrases.py: many more)."""
    lean, final = _first_start(make_library(PAPERS), tmp_path / "cache")
    try:
        request = SearchRequest(query=query, as_you_type=typing, limit=100)
        assert _answer(lean, request) == _answer(final, request)
        result = lean.search(request)
        assert result.total > 0
        assert result.notice is None or "until the index is complete" not in result.notice
    finally:
        lean.close()
        final.close()


@pytest.mark.parametrize(
    "query", ['""', '"', '"a"', 'title:"', '"memory" "bandwidth', 'authors:"li" OR \'x', '("a b"']
)
def test_no_query_raises_on_the_lean_index(tmp_path: Path, lean_first: None, query: str) -> None:
    lean, final = _first_start(make_library(PAPERS), tmp_path / "cache")
    try:
        for typing in (False, True):
            lean.search(SearchRequest(query=query, as_you_type=typing))
    finally:
        lean.close()
        final.close()


def test_a_big_first_build_in_the_build_process_is_the_one_shot_index(
    tmp_path: Path, lean_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both builds in a build process with two writers, as at 5,000 papers or more."""
    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 40)
    monkeypatch.setattr(lean_module, "PARALLEL_MIN_PAPERS", 40)
    library = make_library(PAPERS)
    progress: list[tuple[int, int]] = []
    shown: list[SearchEngine[Any]] = []
    final = open_engine(
        library,
        TAXONOMY,
        tmp_path / "cache",
        preview=shown.append,
        progress=lambda done, total: progress.append((done, total)),
    )
    one_shot = open_engine(library, TAXONOMY, tmp_path / "one-shot")
    (lean,) = shown
    try:
        assert lean.lean and lean.size == final.size == PAPERS
        assert _answers(lean) == _answers(final) == _answers(one_shot)
        assert progress.count((PAPERS, PAPERS)) == 2  # the lean build's, then the full one's
    finally:
        for engine in (lean, final, one_shot):
            engine.close()


class Killed(BaseException):
    """The process died here (a SIGKILL, the machine off)."""


def test_a_start_killed_between_the_lean_and_the_full_build_is_finished_by_the_next(
    tmp_path: Path, lean_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = file_library(tmp_path, per_file=20)  # real files: the library-free open
    cache = tmp_path / "cache"
    shown: list[SearchEngine[Any]] = []

    def killed(*args: Any, **kwargs: Any) -> Any:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(writer, "build", killed)  # dies once the lean index is served
        with pytest.raises(Killed):
            open_engine(library, TAXONOMY, cache, preview=shown.append)
    folder = library_dir(cache, library)
    (lean,) = shown
    assert lean.lean and lean.size == len(library.papers)
    assert not (folder / "current.json").exists()  # nothing was published
    files = list(map(Path, library.files))
    assert open_current_engine(files, TAXONOMY, cache) is None  # never taken for complete
    lean.close()
    del lean, shown
    gc.collect()  # the closed index lets go of its hold (the process has gone)
    again = open_engine(library, TAXONOMY, cache)
    one_shot = open_engine(library, TAXONOMY, tmp_path / "one-shot")
    try:
        assert again.opened.action == "built" and not again.lean
        assert _answers(again) == _answers(one_shot)
        current = json.loads((folder / "current.json").read_text(encoding="utf-8"))
        assert current["dir"].startswith("gen-")
        assert not list(folder.glob("preview-*")) and not list(folder.glob("build-*"))
    finally:
        again.close()
        one_shot.close()


def test_a_lean_index_that_fails_to_be_served_does_not_fail_the_build(
    tmp_path: Path, lean_first: None
) -> None:
    def broken(engine: SearchEngine[Any]) -> None:
        engine.close()
        raise RuntimeError("the app went away")

    engine = open_engine(make_library(PAPERS), TAXONOMY, tmp_path / "cache", preview=broken)
    assert engine.size == PAPERS and not engine.lean
    engine.close()


def test_a_small_library_an_update_or_a_caller_leaving_gets_no_lean_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from index.store.leaving import LeaveBuilds

    shown: list[SearchEngine[Any]] = []
    open_engine(make_library(PAPERS), TAXONOMY, tmp_path / "small", preview=shown.append).close()
    assert not shown  # 60 papers are quick to build: nothing to serve first
    monkeypatch.setattr(lean_module, "LEAN_MIN_PAPERS", 40)
    library = make_library(PAPERS)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    again = open_engine(library, TAXONOMY, tmp_path / "cache", preview=shown.append)
    assert not shown and again.opened.action == "up to date"
    again.close()
    leaving = LeaveBuilds()
    leaving.leave()  # the app quit before the build began: the full build at once
    built = open_engine(library, TAXONOMY, tmp_path / "left", preview=shown.append, leave=leaving)
    assert not shown and built.size == PAPERS
    built.close()


def test_year_ranges_and_sorts_on_the_lean_index(tmp_path: Path, lean_first: None) -> None:
    """Its year keeps one term a paper (no shifted terms): ranges answer the same."""
    lean, final = _first_start(make_library(PAPERS), tmp_path / "cache")
    try:
        requests = [
            SearchRequest(query=query, year_range=span, sort=sort, limit=100)
            for query in ("", "year:2019", "year:2018..2021", "year:>2020", "memory year:..2019")
            for span in (None, (2019, 2021), (None, 2020), (2021, None))
            for sort in ("relevance", "year")
        ]
        assert [_answer(lean, r) for r in requests] == [_answer(final, r) for r in requests]
        assert any(lean.search(r).total for r in requests)
    finally:
        lean.close()
        final.close()


def test_a_caller_leaving_while_the_lean_index_serves_leaves_the_full_build_to_finish(
    tmp_path: Path, lean_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app quits once the lean index is served: the full build, in its build process,
    is left to finish and publish alone (`LeaveBuilds`), and the next start opens it."""
    import time

    from index.store.leaving import BuildDetached, LeaveBuilds

    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 40)
    library = file_library(tmp_path, per_file=20)
    cache = tmp_path / "cache"
    leaving = LeaveBuilds()
    shown: list[SearchEngine[Any]] = []

    def served_then_quit(engine: SearchEngine[Any]) -> None:
        shown.append(engine)
        leaving.leave()

    with pytest.raises(BuildDetached):
        open_engine(library, TAXONOMY, cache, preview=served_then_quit, leave=leaving)
    (lean,) = shown
    assert lean.lean
    lean.close()
    files = list(map(Path, library.files))
    deadline = time.monotonic() + 60
    while (engine := open_current_engine(files, TAXONOMY, cache)) is None:
        assert time.monotonic() < deadline, "the build left alone never published"
        time.sleep(0.1)
    one_shot = open_engine(library, TAXONOMY, tmp_path / "one-shot")
    try:
        assert not engine.lean and engine.size == len(library.papers)
        assert _answers(engine) == _answers(one_shot)
    finally:
        engine.close()
        one_shot.close()


def test_a_lean_build_that_fails_is_skipped_and_the_full_build_serves(
    tmp_path: Path, lean_first: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(lean_module, "build_into", full_disk)
    shown: list[SearchEngine[Any]] = []
    engine = open_engine(make_library(PAPERS), TAXONOMY, tmp_path / "cache", preview=shown.append)
    try:
        assert not shown and not engine.lean and engine.size == PAPERS
    finally:
        engine.close()
