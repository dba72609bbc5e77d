"""The detail view's rows for the user's layer and the source's extras, as plain strings.

Tags, reading status, the note, the source's own tags and collections and the attached
files: computed in the detail worker (it checks whether each file exists), drawn by the
detail pane as literal text (never markup).
"""

from __future__ import annotations

import os
from pathlib import Path

from index.models import Paper
from tui.services.annotations import Annotations
from tui.services.notes import MAX_NOTE_BYTES, note_path

__all__ = ["NOTE_PREVIEW", "user_rows"]

NOTE_PREVIEW = 2000  # characters of the note shown in the detail


def user_rows(
    paper: Paper, annotations: Annotations, notes: Path | None
) -> tuple[tuple[str, str], ...]:
    """(heading, text) pairs: Yours, Note, Source tags, Collections, Files."""
    rows: list[tuple[str, str]] = []
    tags = annotations.tags_of(paper)
    status = annotations.status_of(paper)
    if tags or status != "unread":  # nothing set: no row (the keys are in the help)
        rows.append(
            ("Yours", f"status: {status}" + (f" · tags: {', '.join(tags)}" if tags else ""))
        )
    if notes is not None:
        path = note_path(notes, paper)
        try:
            with open(path, "rb") as handle:
                text = handle.read(MAX_NOTE_BYTES).decode("utf-8", errors="replace")
        except OSError:
            text = None
        if text is not None:
            shown = text.strip()
            if len(shown) > NOTE_PREVIEW:
                shown = shown[:NOTE_PREVIEW] + "…"
            rows.append(("Note", shown or "(empty)"))
    if paper.keywords:
        rows.append(("Source tags", ", ".join(paper.keywords)))
    if paper.collections:
        rows.append(("Collections", ", ".join(paper.collections)))
    if paper.source_notes:
        rows.append(("Source notes", "\n\n".join(paper.source_notes)))
    if paper.attachments:
        rows.append(
            (
                "Files",
                "\n".join(
                    path if os.path.exists(path) else f"{path}  (missing)"
                    for path in paper.attachments
                ),
            )
        )
    return tuple(rows)
