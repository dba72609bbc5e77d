"""The bundled corpus built into a folder and asked a few queries: what the fast and the
stock paths over Whoosh's internals must answer alike."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index import open_engine
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.models import SearchRequest

__all__ = ["bundled_answers"]


def bundled_answers(folder: Path, queries: Sequence[str]) -> list[tuple[int, list[str]]]:
    """Builds (or opens) the bundled corpus's index under `folder`; each query's total and
    ranked ids, typed as you type."""
    taxonomy = load_taxonomy()
    engine = open_engine(load_library(None, taxonomy), taxonomy, folder)
    try:
        found = []
        for text in queries:
            result = engine.search(SearchRequest(query=text, as_you_type=True))
            found.append((result.total, [hit.paper.id for hit in result.hits]))
        return found
    finally:
        engine.close()
