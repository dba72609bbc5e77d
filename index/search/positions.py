"""Where each paper now is in its file, for papers whose stored JSON was not rewritten.

Deleting one entry from a 6,315-entry .bib moved the line of every entry after it; the
line is part of each paper's `Source`, so the reload reported "6314 changed" and rewrote
every one of them in the index (31 s, against 5 s for an edit; issue 46). A paper's
index document does not depend on its line (index.schema.fields: the digest leaves the
positions out), so an in-place update rewrites only the papers whose content changed and
records here the current sources of the others of the changed files: a command that reads
papers from the index without the library (the engine's stored path) gets the line the
file has now, not the one from when the document was written. A full build starts a new
generation without this file: every stored paper is current there.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from index.atomic import write_text_atomic
from index.models import Paper, Source

__all__ = [
    "POSITIONS_FILE",
    "Positions",
    "placed",
    "read_positions",
    "updated_positions",
    "write_positions",
]

POSITIONS_FILE = "positions.json"
logger = logging.getLogger(__name__)

Positions = dict[str, tuple[Source, ...]]


def read_positions(folder: Path) -> Positions:
    """The recorded sources by paper id; empty when none were recorded (or unreadable:
    the stored lines are then shown, off by what an edit moved)."""
    try:
        data = json.loads((Path(folder) / POSITIONS_FILE).read_text(encoding="utf-8"))
        paths = data["paths"]
        return {
            paper_id: tuple(Source(paths[p], line, paragraph) for p, line, paragraph in rows)
            for paper_id, rows in data["papers"].items()
        }
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        logger.warning("positions file unusable (%s); stored lines shown", error)
        return {}


def write_positions(folder: Path, positions: Mapping[str, tuple[Source, ...]]) -> None:
    """Saves `positions`, each path once (a file's thousands of papers share it)."""
    paths: dict[str, int] = {}
    papers: dict[str, list[list[Any]]] = {}
    for paper_id, sources in positions.items():
        papers[paper_id] = [
            [paths.setdefault(s.path, len(paths)), s.line, s.paragraph] for s in sources
        ]
    text = json.dumps({"paths": list(paths), "papers": papers}, separators=(",", ":"))
    write_text_atomic(Path(folder) / POSITIONS_FILE, text)


def updated_positions(
    previous: Positions, kept: Iterable[Paper], rewritten: set[str], wanted: set[str]
) -> Positions:
    """The positions after an update: `kept` (papers of the changed files whose documents
    were not rewritten) as they are now; earlier records of papers neither rewritten nor
    gone stay true."""
    now = {paper.id: paper.sources for paper in kept}
    out = {
        paper_id: sources
        for paper_id, sources in previous.items()
        if paper_id in wanted and paper_id not in rewritten and paper_id not in now
    }
    out.update(now)
    return out


def placed(paper: Paper, positions: Positions) -> Paper:
    """`paper` as decoded from the index, with its sources where the files now have it.

    Its records (`Paper.records`) name the same places: each record whose source was one
    of the stored sources moves with it, so `show --json` and a definition lookup give the
    line the file has now, not the one from when the document was written.
    """
    sources = positions.get(paper.id)
    if sources is None or sources == paper.sources:
        return paper
    moved = dict(zip(paper.sources, sources)) if len(sources) == len(paper.sources) else {}
    records = tuple(
        replace(record, source=moved[record.source])
        if record.source is not None and record.source in moved
        else record
        for record in paper.records
    )
    return replace(paper, sources=sources, records=records)
