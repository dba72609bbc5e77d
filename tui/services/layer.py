"""The user's layer for the search engine: tags, statuses and notes as plain values.

The engine (index/) never reads the user's files; this is where they become the
`UserLayer` it is given, for the app and the command line alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from index.models import Paper
from index.search.user_layer import UserLayer
from tui.services.notes import read_notes, read_notes_named

if TYPE_CHECKING:  # only its type: asking for `notes_dir` must not import the identities
    from index.search.engine import SearchEngine
    from index.search.key_lookup import KeyLookup
    from index.search.paper_keys import PaperKeys
    from tui.services.annotations import Annotations

__all__ = [
    "build_user_layer",
    "build_user_layer_from_keys",
    "build_user_layer_from_lookup",
    "notes_dir",
    "user_layer_without_library",
]


def notes_dir(data_dir: Path) -> Path:
    """Where the notes live: `<data dir>/notes`."""
    return Path(data_dir) / "notes"


def build_user_layer(
    annotations: Annotations, papers: Sequence[Paper], notes: Path | None
) -> UserLayer:
    """Tags and statuses of `papers`, and the text of their notes under `notes`."""
    return UserLayer(
        facets=annotations.layer(papers),
        notes=read_notes(notes, papers) if notes is not None else {},
    )


def build_user_layer_from_keys(
    annotations: Annotations, keys: Sequence[PaperKeys], notes: Path | None
) -> UserLayer:
    """`build_user_layer` from the index's saved keys, for an engine without the library."""
    return UserLayer(
        facets=annotations.layer_of((k.id, k.identities) for k in keys),
        notes=read_notes(notes, keys) if notes is not None else {},
    )


def build_user_layer_from_lookup(
    annotations: Annotations, lookup: KeyLookup, notes: Path | None
) -> UserLayer:
    """`build_user_layer_from_keys` with the papers found by the index's table of
    identities and note names (index.search.key_lookup), not every paper's keys read."""
    return UserLayer(
        facets=annotations.layer_found(lookup.papers_with),
        notes=read_notes_named(notes, lookup.papers_named) if notes is not None else {},
    )


def user_layer_without_library(
    engine: SearchEngine, annotations: Annotations, notes: Path
) -> UserLayer | None:
    """The layer for an engine opened without its library, from what its build saved:
    the table of identities and note names, else every paper's keys (an index saved before
    the table); None when neither can be read (the library must be loaded)."""
    lookup = engine.key_lookup
    if lookup is not None:
        return build_user_layer_from_lookup(annotations, lookup, notes)
    keys = engine.paper_keys
    if keys is not None:
        return build_user_layer_from_keys(annotations, keys, notes)
    return None
