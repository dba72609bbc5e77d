"""What many test modules share: the bundled facet vocabulary and the bundled corpus.

Both are frozen (`Taxonomy`, `Library`), so one copy per test process serves every module;
a module that needs another library (generated, hand-made) defines its own `library`.
"""

from __future__ import annotations

import pytest

from index.facets.taxonomy import Taxonomy, load_taxonomy
from index.library.load import load_library
from index.models import Library


@pytest.fixture(scope="session")
def taxonomy() -> Taxonomy:
    """The bundled facet vocabulary."""
    return load_taxonomy()


@pytest.fixture(scope="session")
def library(taxonomy: Taxonomy) -> Library:
    """The bundled corpus, loaded afresh (no cache)."""
    return load_library(None, taxonomy)
