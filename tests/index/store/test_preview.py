"""While a big library is read, an index of its early sample serves searches.

`index.store.preview`; the lean index of the whole library that serves next is tested in
tests/index/store/test_lean.py.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import SearchRequest
from index.search.engine import SearchEngine
from index.store import preview as preview_module
from index.store.generations import library_dir
from tests.fixtures.search.generate import TAXONOMY
from tests.index.store.test_store import file_library

QUERIES = ["", "pipeline", "memory train*", '"data parallel"', "topic:training"]


def _answers(engine: SearchEngine[Any]) -> list[tuple[object, ...]]:
    """What each query gives: the ranked ids, the total and the facet counts."""
    found: list[tuple[object, ...]] = []
    for query in QUERIES:
        result = engine.search(SearchRequest(query=query, limit=100))
        found.append((query, [h.paper.id for h in result.hits], result.total, result.facets))
    return found


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
