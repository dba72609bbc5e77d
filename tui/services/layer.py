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
from tui.services.notes import read_notes

if TYPE_CHECKING:  # only its type: asking for `notes_dir` must not import the identities
    from index.search.paper_keys import PaperKeys
    from tui.services.annotations import Annotations

__all__ = ["build_user_layer", "build_user_layer_from_keys", "notes_dir"]


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
