"""An engine on a handful of hand-made papers, built once per test module."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest

from index import open_engine
from index.facets.taxonomy import load_taxonomy
from index.models import Library, Paper
from index.search.engine import SearchEngine


def engine_on(papers: Sequence[Paper], name: str) -> Callable[..., Iterator[SearchEngine]]:
    """A module-scoped `engine` fixture over `papers` alone (`engine = engine_on(PAPERS, "x")`)."""

    @pytest.fixture(scope="module")
    def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
        folder = tmp_path_factory.mktemp(name)
        opened = open_engine(Library(papers=tuple(papers)), load_taxonomy(), folder / "cache")
        yield opened
        opened.close()

    return engine
