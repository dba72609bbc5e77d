"""A lean engine and the full engine of one library, as a big first start serves them.

`open_engine` with the lean threshold lowered: the lean index is handed to `preview`
(index.store.lean), then the ordinary full build returns; the tests compare the two.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import Library
from index.search.engine import SearchEngine
from index.store import lean as lean_store
from tests.fixtures.search.generate import TAXONOMY


def lean_and_full(
    library: Library, cache_dir: Path
) -> Iterator[tuple[SearchEngine[Any], SearchEngine[Any]]]:
    """(the lean engine a first start serves, the full engine it then opens); closed after."""
    patch = pytest.MonkeyPatch()
    patch.setattr(lean_store, "LEAN_MIN_PAPERS", 40)
    shown: list[SearchEngine[Any]] = []
    try:
        full = open_engine(library, TAXONOMY, cache_dir, preview=shown.append)
    finally:
        patch.undo()
    (lean,) = shown
    yield lean, full
    lean.close()
    full.close()
