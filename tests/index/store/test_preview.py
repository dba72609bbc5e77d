"""While a big library's first index is built, an index of a sample of it serves searches.

`index.store.preview`: the thresholds are lowered so a small generated library gets a
preview of 12 papers beside its full build, which runs in the build process as a large
library's does. The final index must be exactly a one-shot build's.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from index import open_current_engine, open_engine
from index.models import SearchRequest
from index.search.engine import SearchEngine
from index.store import preview as preview_module
from index.store import writer
from index.store.generations import library_dir
from tests.fixtures.search.generate import TAXONOMY, make_library
from tests.index.store.test_store import file_library

PAPERS, SAMPLE = 60, 12
QUERIES = ["", "pipeline", "memory train*", '"data parallel"', "topic:training"]


@pytest.fixture
def previewed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library of 60 papers is big: built by the build process, with a preview of 12."""
    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 40)
    monkeypatch.setattr(preview_module, "PREVIEW_MIN_PAPERS", 40)
    monkeypatch.setattr(preview_module, "PREVIEW_PAPERS", SAMPLE)


def _answers(engine: SearchEngine[Any]) -> list[tuple[object, ...]]:
    """What each query gives: the ranked ids, the total and the facet counts."""
    found: list[tuple[object, ...]] = []
    for query in QUERIES:
        result = engine.search(SearchRequest(query=query, limit=100))
        found.append((query, [h.paper.id for h in result.hits], result.total, result.facets))
    return found


def test_a_first_build_serves_a_sample_first_then_exactly_the_one_shot_index(
    tmp_path: Path, previewed: None
) -> None:
    library = make_library(PAPERS)
    shown: list[SearchEngine[Any]] = []
    final = open_engine(library, TAXONOMY, tmp_path / "cache", preview=shown.append)
    try:
        (early,) = shown  # handed over before the full index was returned
        assert early.opened.action == "preview" and early.size == SAMPLE
        sample = {paper.id for paper in library.papers[:: PAPERS // SAMPLE]}
        result = early.search(SearchRequest(query="", limit=100))
        assert {hit.paper.id for hit in result.hits} == sample
        assert all(hit.paper == library.by_id()[hit.paper.id] for hit in result.hits)
        assert final.size == PAPERS
        one_shot = open_engine(library, TAXONOMY, tmp_path / "one-shot")  # no preview asked
        assert _answers(final) == _answers(one_shot)
        one_shot.close()
    finally:
        final.close()
        for engine in shown:
            engine.close()


@pytest.mark.parametrize("next_open", ["rebuild", "up to date", "library-free"])
def test_the_preview_folder_stays_while_held_and_goes_at_the_next_open(
    tmp_path: Path, previewed: None, next_open: str
) -> None:
    library = file_library(tmp_path, per_file=20)  # real files: the library-free open
    shown: list[SearchEngine[Any]] = []
    open_engine(library, TAXONOMY, tmp_path / "cache", preview=shown.append).close()
    folder = library_dir(tmp_path / "cache", library)
    assert len(list(folder.glob("preview-*"))) == 1  # the app still searches it
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    assert len(list(folder.glob("preview-*"))) == 1  # held: kept
    shown.pop().close()
    gc.collect()  # the closed index lets go of its hold (the app has exited)
    if next_open == "library-free":
        engine = open_current_engine(list(map(Path, library.files)), TAXONOMY, tmp_path / "cache")
        assert engine is not None
        engine.close()
    else:
        rebuild = next_open == "rebuild"
        open_engine(library, TAXONOMY, tmp_path / "cache", rebuild=rebuild).close()
    assert not list(folder.glob("preview-*"))


def test_a_preview_that_fails_to_be_served_does_not_fail_the_build(
    tmp_path: Path, previewed: None
) -> None:
    def broken(engine: SearchEngine[Any]) -> None:
        engine.close()
        raise RuntimeError("the app went away")

    engine = open_engine(make_library(PAPERS), TAXONOMY, tmp_path / "cache", preview=broken)
    assert engine.size == PAPERS
    engine.close()


def test_a_small_library_or_an_update_gets_no_preview(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[SearchEngine[Any]] = []
    open_engine(make_library(PAPERS), TAXONOMY, tmp_path / "small", preview=shown.append).close()
    assert not shown  # 60 papers are quick to build: nothing to preview
    monkeypatch.setattr(preview_module, "PREVIEW_MIN_PAPERS", 40)
    monkeypatch.setattr(preview_module, "PREVIEW_PAPERS", SAMPLE)
    library = make_library(PAPERS)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    again = open_engine(library, TAXONOMY, tmp_path / "cache", preview=shown.append)
    assert not shown and again.opened.action == "up to date"
    again.close()


def test_a_sample_is_written_uncompressed_and_answers_as_an_ordinary_index(
    tmp_path: Path, previewed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sample lives one build: its posting blocks skip zlib (a sooner first screen);
    what it answers is what an ordinary index of the same papers answers."""
    from index.models import Library

    monkeypatch.setattr(preview_module, "PREVIEW_PAPERS", 50)
    library = make_library(PAPERS)
    shown: list[SearchEngine[Any]] = []
    open_engine(library, TAXONOMY, tmp_path / "cache", preview=shown.append).close()
    (early,) = shown
    sample = Library(
        papers=tuple(hit.paper for hit in early.search(SearchRequest("", limit=100)).hits)
    )
    ordinary = open_engine(sample, TAXONOMY, tmp_path / "ordinary")
    try:
        assert early.size == ordinary.size == 50
        assert _answers(early) == _answers(ordinary)

        def postings_bytes(engine: SearchEngine[Any]) -> int:
            return sum(f.stat().st_size for f in engine.opened.path.glob("*.seg"))

        assert postings_bytes(early) > 1.1 * postings_bytes(ordinary)  # blocks kept whole
    finally:
        ordinary.close()
        early.close()


def test_an_early_sample_is_built_by_a_build_process_where_the_index_will_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`open_sample_engine`: the sample a load hands out before dedupe (the app serves it
    while the load goes on in its own process), held while open, swept after."""
    from index import open_sample_engine
    from index.models import Library

    library = file_library(tmp_path, per_file=10)
    sample = library.papers[::3]
    children: list[int] = []
    real = preview_module.build_in_child

    def spied(path: Path, papers: Any, progress: Any, procs: int, **kw: Any) -> Any:
        children.append(len(papers))
        return real(path, papers, progress, procs, **kw)

    monkeypatch.setattr(preview_module, "build_in_child", spied)
    files = list(map(Path, library.files))
    early = open_sample_engine(files, sample, TAXONOMY, tmp_path / "cache")
    assert early is not None and children == [len(sample)]
    folder = library_dir(tmp_path / "cache", library)
    ordinary = open_engine(Library(papers=sample), TAXONOMY, tmp_path / "ordinary")
    try:
        assert early.opened.path.parent == folder and early.opened.action == "preview"
        assert _answers(early) == _answers(ordinary)
        open_engine(library, TAXONOMY, tmp_path / "cache").close()
        assert early.opened.path.exists()  # held while the app searches it
    finally:
        ordinary.close()
        early.close()
    del early
    gc.collect()  # the closed index lets go of its hold (the app has exited)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    assert not list(folder.glob("preview-*"))


def test_an_early_sample_that_cannot_be_built_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from index import open_sample_engine
    from index.store.child import BuildFailed

    def failing(*args: Any, **kw: Any) -> Any:
        raise BuildFailed("the build process failed (exit 1): No space left on device")

    monkeypatch.setattr(preview_module, "build_in_child", failing)
    library = file_library(tmp_path, per_file=4)
    files = list(map(Path, library.files))
    assert open_sample_engine(files, library.papers, TAXONOMY, tmp_path / "cache") is None
