"""Loaders: every supported file format -> `Paper` records plus one-line warnings.

`load_file` picks the loader from the file name (or, for a file the user named
explicitly with an unknown suffix, from its first character) and never raises for a
problem in the file: it returns what it could read and says what it could not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from index.loaders.bibtex import load_bibtex
from index.loaders.files import SIDECAR_SUFFIX, SUPPORTED_SUFFIXES, discover, read_text
from index.loaders.json_files import load_json, load_json_lines
from index.loaders.sidecar import SidecarRecord
from index.loaders.text import load_text
from index.loaders.zotero import is_zotero_database, load_zotero
from index.loaders.zotero_snapshot import companion_files
from index.models import LoadWarning, Paper

__all__ = ["FileResult", "load_file", "discover", "companions", "SUPPORTED_SUFFIXES",
           "SIDECAR_SUFFIX"]


@dataclass
class FileResult:
    """What one file gave: papers, sidecar records, warnings."""

    papers: list[Paper] = field(default_factory=list)
    sidecar: list[SidecarRecord] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)


def _kind(path: Path, text: str) -> str:
    name = path.name.lower()
    if name.endswith(SIDECAR_SUFFIX):
        return "sidecar"
    suffix = path.suffix.lower()
    if suffix in (".bib", ".bibtex"):
        return "bibtex"
    if suffix == ".json":
        return "json"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix == ".txt":
        return "text"
    start = text.lstrip()[:1]
    if start == "@":
        return "bibtex"
    if start in "[{":
        return "json" if start == "[" or "\n{" not in text.strip() else "jsonl"
    return "text"


def _is_database(path: Path) -> bool:
    """A Zotero database: `*.sqlite`, or a file of another suffix with SQLite's header."""
    suffix = path.suffix.lower()
    return suffix == ".sqlite" or (suffix not in SUPPORTED_SUFFIXES and is_zotero_database(path))


def companions(path: Path) -> list[Path]:
    """Files beside `path` that change what it holds (a database's write-ahead log).

    The library cache and the index fingerprint them with the file itself: Zotero's new
    items sit in `zotero.sqlite-wal` for a while and leave `zotero.sqlite` untouched.
    """
    return companion_files(path) if _is_database(path) else []


def load_file(path: Path, shown: str) -> FileResult:
    """Everything one file holds.

    Args:
        path: the file to read.
        shown: how to name it in sources and warnings (the path as the user wrote it).
    """
    if _is_database(path):
        papers, warnings = load_zotero(path, shown)
        return FileResult(papers=papers, warnings=warnings)
    text, warnings = read_text(path, shown)
    result = FileResult(warnings=warnings)
    if text is None:
        return result
    kind = _kind(path, text)
    if kind in ("json", "sidecar"):
        papers, records, more = load_json(text, shown, sidecar=kind == "sidecar")
        result.sidecar.extend(records)
    elif kind == "jsonl":
        papers, more = load_json_lines(text, shown)
    elif kind == "bibtex":
        papers, more = load_bibtex(text, shown)
    else:
        papers, more = load_text(text, shown)
        if not papers and not more:
            more = [LoadWarning(shown, "no abstracts found (paragraphs must be separated "
                                "by a blank line)")]
    result.papers.extend(papers)
    result.warnings.extend(more)
    return result
