"""Loaders: every supported file format -> `Paper` records plus one-line warnings.

`load_file` picks the loader from the file name (or, for a file the user named
explicitly with an unknown suffix, from its first character) and never raises for a
problem in the file: it returns what it could read and says what it could not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from index.library.loaders.bibtex import parse_bibtex
from index.library.loaders.files import SIDECAR_SUFFIX, SUPPORTED_SUFFIXES, discover, read_text
from index.library.loaders.json_files import load_json, load_json_lines
from index.library.loaders.ris import load_ris, looks_like_ris
from index.library.loaders.sidecar import SidecarRecord
from index.library.loaders.text import load_text
from index.models import LoadWarning, Paper

__all__ = ["FileResult", "load_file", "discover", "SUPPORTED_SUFFIXES", "SIDECAR_SUFFIX"]


@dataclass
class FileResult:
    """What one file gave: papers, sidecar records, warnings, and a BibTeX file's macros.

    `strings` (the `@string` macros it defines) and `undefined` (those it uses without
    defining) let a load share macros between the files of one corpus.
    """

    papers: list[Paper] = field(default_factory=list)
    sidecar: list[SidecarRecord] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    strings: dict[str, str] = field(default_factory=dict)
    undefined: frozenset[str] = frozenset()


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
    if suffix == ".ris":
        return "ris"
    if looks_like_ris(text):  # an explicitly named file with RIS in it (`export.txt`)
        return "ris"
    if suffix == ".txt":
        return "text"
    start = text.lstrip()[:1]
    if start == "@":
        return "bibtex"
    if start in "[{":
        return "json" if start == "[" or "\n{" not in text.strip() else "jsonl"
    return "text"


def load_file(path: Path, shown: str, macros: Mapping[str, str] | None = None) -> FileResult:
    """Everything one file holds.

    Args:
        path: the file to read.
        shown: how to name it in sources and warnings (the path as the user wrote it).
        macros: BibTeX `@string` macros from the other files of the load.
    """
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
    elif kind == "ris":
        papers, more = load_ris(text, shown)
    elif kind == "bibtex":
        parsed = parse_bibtex(text, shown, macros)
        papers, more = parsed.papers, parsed.warnings
        result.strings, result.undefined = parsed.strings, parsed.undefined
    else:
        papers, more = load_text(text, shown)
        if not papers and not more:
            more = [LoadWarning(shown, "no abstracts found (paragraphs must be separated "
                                "by a blank line)")]
    result.papers.extend(papers)
    result.warnings.extend(more)
    return result
