"""Loaders: every supported file format -> `Paper` records plus one-line warnings.

`load_file` picks the loader from the file name (or, for a file the user named
explicitly with an unknown suffix, from its first character) and never raises for a
problem in the file: it returns what it could read and says what it could not. Whatever
a hostile file makes a loader raise, and whatever is too big in one paper, is turned into
a warning by `index.library.loaders.guards`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from index.library.loaders.bibinherit import Record, SharedParents
from index.library.loaders.files import (
    SIDECAR_SUFFIX,
    SUPPORTED_SUFFIXES,
    Stamp,
    discover,
    read_text_stamped,
)
from index.library.loaders.zotero_snapshot import companion_files
from index.models import LoadWarning, Paper

if TYPE_CHECKING:
    from index.library.loaders.sidecar import SidecarRecord

# The format loaders are imported where a file is parsed, not here: finding a library's
# files (`discover`, `companions`) is all a search on a current index needs of this
# package (index.library.inputs), and importing every parser cost it ~50 ms.

__all__ = [
    "SIDECAR_SUFFIX",
    "SUPPORTED_SUFFIXES",
    "FileResult",
    "SharedParents",
    "companions",
    "discover",
    "load_file",
]


@dataclass
class FileResult:
    """What one file gave: papers, sidecar records, warnings, and what a BibTeX file shares.

    `strings` (the `@string` macros it defines) and `undefined` (those it uses without
    defining) let a load share macros between the files of one corpus; `keys`,
    `missing_parents` and `exported` do the same for `crossref`/`xdata` parents (see
    `index.library.bibshare`).
    """

    papers: list[Paper] = field(default_factory=list)
    sidecar: list[SidecarRecord] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    stamp: Stamp | None = None  # (size, mtime_ns, SHA-256) of the bytes these came from
    strings: dict[str, str] = field(default_factory=dict)
    undefined: frozenset[str] = frozenset()
    keys: frozenset[str] = frozenset()
    missing_parents: frozenset[str] = frozenset()
    exported: dict[str, Record] = field(default_factory=dict)


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
    from index.library.loaders.ris import looks_like_ris

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


def _is_database(path: Path) -> bool:
    """A Zotero database: `*.sqlite`, or a file of another suffix with SQLite's header."""
    suffix = path.suffix.lower()
    if suffix == ".sqlite":
        return True
    if suffix in SUPPORTED_SUFFIXES:
        return False
    from index.library.loaders.zotero import is_zotero_database

    return is_zotero_database(path)


def companions(path: Path) -> list[Path]:
    """Files beside `path` that change what it holds (a database's write-ahead log).

    The library cache and the index fingerprint them with the file itself: Zotero's new
    items sit in `zotero.sqlite-wal` for a while and leave `zotero.sqlite` untouched, and
    Better BibTeX's keys live in `better-bibtex.sqlite` beside it.
    """
    if not _is_database(path):  # a .bib or .ris: no import of Zotero's readers (~25 ms)
        return []
    from index.library.loaders.zotero_bbt import BBT_DATABASE, bbt_files

    if path.name.startswith(BBT_DATABASE):
        return []
    return companion_files(path) + bbt_files(path)


# What a loader returns: papers, sidecar records, warnings.
Parsed = tuple[list[Paper], list["SidecarRecord"], list[LoadWarning]]


def load_file(
    path: Path,
    shown: str,
    macros: Mapping[str, str] | None = None,
    shared: SharedParents | None = None,
) -> FileResult:
    """Everything one file holds.

    Args:
        path: the file to read.
        shown: how to name it in sources and warnings (the path as the user wrote it).
        macros: BibTeX `@string` macros from the other files of the load.
        shared: BibTeX `crossref`/`xdata` parents and children in the other files.
    """
    from index.library.loaders.guards import bound_paper, guarded_parse

    if _is_database(path):
        from index.library.loaders.zotero import load_zotero

        empty: tuple[list[Paper], list[LoadWarning]] = ([], [])
        (papers, warnings), failed = guarded_parse(lambda: load_zotero(path, shown), shown, empty)
        return FileResult(papers=papers, warnings=warnings + failed)
    text, warnings, stamp = read_text_stamped(path, shown)
    result = FileResult(warnings=warnings, stamp=stamp)
    if text is None:
        return result
    kind = _kind(path, text)
    nothing: Parsed = ([], [], [])
    parsed, failed = guarded_parse(
        lambda: _parse(kind, text, shown, (macros, shared), result), shown, nothing
    )
    papers, records, more = parsed
    result.sidecar.extend(records)
    more = more + failed
    result.papers.extend(bound_paper(paper, shown, more) for paper in papers)
    result.warnings.extend(more)
    return result


def _parse(
    kind: str,
    text: str,
    shown: str,
    context: tuple[Mapping[str, str] | None, SharedParents | None],
    result: FileResult,
) -> Parsed:
    """The loader for `kind`; may raise for a hostile file (`guarded_parse` catches it).

    `context` is what the other files of the load share with a BibTeX file (macros,
    parents); what this one shares with them goes on `result`.
    """
    from index.library.loaders.bibtex import parse_bibtex
    from index.library.loaders.json_files import load_json, load_json_lines
    from index.library.loaders.ris import load_ris
    from index.library.loaders.text import load_text

    if kind in ("json", "sidecar"):
        return load_json(text, shown, sidecar=kind == "sidecar")
    if kind == "jsonl":
        return _with_no_records(load_json_lines(text, shown))
    if kind == "ris":
        return _with_no_records(load_ris(text, shown))
    if kind == "bibtex":
        bib = parse_bibtex(text, shown, *context)
        result.strings, result.undefined = bib.strings, bib.undefined
        result.keys, result.missing_parents = bib.keys, bib.missing_parents
        result.exported = bib.exported
        return bib.papers, [], bib.warnings
    papers, more = load_text(text, shown)
    if not papers and not more:
        more = [
            LoadWarning(shown, "no abstracts found (paragraphs must be separated by a blank line)")
        ]
    return papers, [], more


def _with_no_records(
    loaded: tuple[list[Paper], list[LoadWarning]],
) -> tuple[list[Paper], list[SidecarRecord], list[LoadWarning]]:
    return loaded[0], [], loaded[1]
