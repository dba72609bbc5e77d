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

The file holds one line per paper (its id, then its sources as JSON), not one JSON
document: after an edit near the top of a 100,000-paper `.bib` it records ~100,000 papers
(4 MB), and a language server opening the updated index parsed it with one `json.loads`
that held the interpreter's lock for 0.3-0.5 s, every completion waiting (issue 48). Now
opening it splits the lines (a loop the lock is let go in) and a paper's sources are parsed
when a decode first asks for them (`StoredPositions`). A `positions.json` an older
paperscope wrote is still read, whole.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from index.atomic import write_text_atomic
from index.models import Paper, Source

__all__ = [
    "POSITIONS_FILE",
    "Positions",
    "StoredPositions",
    "placed",
    "read_positions",
    "updated_positions",
    "write_positions",
]

POSITIONS_FILE = "positions.lines"
_OLD_FILE = "positions.json"  # one JSON document (paperscope before issue 48's server)
logger = logging.getLogger(__name__)

Positions = Mapping[str, tuple[Source, ...]]


class StoredPositions(Mapping[str, tuple[Source, ...]]):
    """The recorded sources by paper id, each paper's parsed when first asked for.

    Args:
        paths: the files, by the number each row names them with.
        rows: paper id -> its sources as the file has them (a JSON list of
            [path number, line, paragraph]).
    """

    def __init__(self, paths: list[str], rows: dict[str, str]) -> None:
        self._paths = paths
        self._rows = rows
        self._parsed: dict[str, tuple[Source, ...]] = {}

    def __getitem__(self, paper_id: str) -> tuple[Source, ...]:
        found = self._parsed.get(paper_id)
        if found is None:
            row = self._rows[paper_id]
            try:
                paths = self._paths
                found = tuple(Source(paths[p], line, para) for p, line, para in json.loads(row))
            except (ValueError, TypeError, IndexError) as error:
                logger.warning("positions of %s unusable (%s); stored lines shown", paper_id, error)
                raise KeyError(paper_id) from None
            self._parsed[paper_id] = found  # concurrent decodes parse the same: benign
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


def read_positions(folder: Path) -> Positions:
    """The recorded sources by paper id; empty when none were recorded (or unreadable:
    the stored lines are then shown, off by what an edit moved)."""
    try:
        with open(Path(folder) / POSITIONS_FILE, encoding="utf-8") as handle:
            paths = json.loads(handle.readline())
            if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
                raise ValueError("its first line is no list of paths")
            rows: dict[str, str] = {}
            for line in handle:  # read in blocks: the lock is let go between lines
                name, tab, row = line.partition("\t")
                if not tab:
                    raise ValueError(f"a line without a tab: {line[:40]!r}")
                rows[name[1:-1] if "\\" not in name else json.loads(name)] = row
        return StoredPositions(paths, rows)
    except FileNotFoundError:
        return _read_old(folder)
    except (OSError, ValueError) as error:
        logger.warning("positions file unusable (%s); stored lines shown", error)
        return {}


def _read_old(folder: Path) -> Positions:
    """A `positions.json` an older paperscope wrote (one document, parsed whole)."""
    try:
        data = json.loads((Path(folder) / _OLD_FILE).read_text(encoding="utf-8"))
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


def write_positions(folder: Path, positions: Positions) -> None:
    """Saves `positions`: the paths on the first line (a file's thousands of papers share
    one), then a line per paper, its id as a JSON string (a tab inside it escaped) and its
    sources. An older file is removed: it would be read were this one lost."""
    paths: dict[str, int] = {}
    lines = []
    for paper_id, sources in positions.items():
        rows = [[paths.setdefault(s.path, len(paths)), s.line, s.paragraph] for s in sources]
        lines.append(f"{json.dumps(paper_id)}\t{json.dumps(rows, separators=(',', ':'))}\n")
    text = json.dumps(list(paths)) + "\n" + "".join(lines)
    write_text_atomic(Path(folder) / POSITIONS_FILE, text)
    (Path(folder) / _OLD_FILE).unlink(missing_ok=True)


def updated_positions(
    previous: Positions, kept: Iterable[Paper], rewritten: set[str], wanted: set[str]
) -> Positions:
    """The positions after an update: `kept` (papers of the changed files whose documents
    were not rewritten) as they are now; earlier records of papers neither rewritten nor
    gone stay true (a record that no longer parses is dropped: its stored line shows)."""
    now = {paper.id: paper.sources for paper in kept}
    out: dict[str, tuple[Source, ...]] = {}
    for paper_id in previous:
        if paper_id in wanted and paper_id not in rewritten and paper_id not in now:
            sources = previous.get(paper_id)
            if sources is not None:
                out[paper_id] = sources
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
