"""What an index depends on, and where it lives: its manifest and its folder.

An index is current while everything its manifest records is unchanged: the schema, the
taxonomy, the loader code and each source file as it was read (size, mtime and a digest
of the bytes parsed). `current.json` in the library's folder names the generation served
and holds its manifest (index.store.generations).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from index.library.cache import code_fingerprint
from index.models import Library, LoadWarning, Paper
from index.schema.fields import SCHEMA_VERSION

__all__ = [
    "built_by_this_code",
    "changed_files",
    "file_stats",
    "files_dir",
    "library_dir",
    "manifest_for",
    "read_current",
    "recorded_warnings",
    "taxonomy_fingerprint",
]


def taxonomy_fingerprint(taxonomy: Any) -> str:
    """The taxonomy's own fingerprint when it has one, else a digest of its values."""
    fingerprint = getattr(taxonomy, "fingerprint", None)
    if isinstance(fingerprint, str) and fingerprint:
        return fingerprint
    values = (getattr(taxonomy, "topics", ()), getattr(taxonomy, "hardware", ()))
    return hashlib.sha256(repr(values).encode()).hexdigest()[:16]


def file_stats(files: Sequence[str]) -> dict[str, list[int]]:
    stats: dict[str, list[int]] = {}
    for name in files:
        try:
            st = os.stat(name)
            stats[name] = [st.st_size, st.st_mtime_ns]
        except OSError:
            stats[name] = [-1, -1]
    return stats


def _papers_digest(papers: Sequence[Paper]) -> str:
    """Identity of a library that was not read from files (tests, scripts)."""
    digest = hashlib.sha256()
    for paper in papers:
        digest.update(repr(paper).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:24]


def _read_stats(library: Library) -> dict[str, list[Any]]:
    """Each file as it was read (size, mtime, digest of the bytes parsed), not as it is now.

    A file changed after it was read but before its index was built would otherwise be
    recorded with its new stats, and its new words served as "up to date" but never found.
    Files without a stamp (a library made in code, an unreadable file) are stat'ed.
    """
    stats: dict[str, list[Any]] = dict(file_stats(library.files))
    if len(library.stamps) == len(library.files):
        for name, stamp in zip(library.files, library.stamps):
            if stamp is not None:
                stats[name] = list(stamp)
    return stats


def built_by_this_code(manifest: dict[str, Any], taxonomy: Any) -> bool:
    """Whether an index with this manifest was built by this schema, taxonomy and loader
    code: what an open without the library (which reads the manifest, not the files'
    papers) must check first."""
    return (
        manifest.get("schema") == SCHEMA_VERSION
        and manifest.get("taxonomy") == taxonomy_fingerprint(taxonomy)
        and manifest.get("library_code") == code_fingerprint()
    )


def manifest_for(library: Library, taxonomy: Any) -> dict[str, Any]:
    """Everything the index depends on: if any of it changes, the index is stale."""
    return {
        "schema": SCHEMA_VERSION,
        "taxonomy": taxonomy_fingerprint(taxonomy),
        "files": _read_stats(library),
        "content": None if library.files else _papers_digest(library.papers),
        "papers": len(library.papers),
        # The papers carry what only the loaded library answers (the source's notes, which
        # the saved paper keys do not hold: index.search.paper_keys), so a search needs it.
        "needs_library": any(p.source_notes for p in library.papers),
        # What a library-free open (`open_if_current`) serves in place of the loaded
        # library: its load problems, and the loader code that read the files.
        "warnings": [[w.path, w.line, w.message] for w in library.warnings],
        "library_code": code_fingerprint(),
    }


def library_dir(cache_dir: Path, library: Library) -> Path:
    """The folder of this library's index: one per set of source files."""
    if library.files:
        return files_dir(cache_dir, library.files)
    names = "content:" + _papers_digest(library.papers)
    return Path(cache_dir) / f"library-{hashlib.sha256(names.encode()).hexdigest()[:16]}"


def files_dir(cache_dir: Path, files: Sequence[str]) -> Path:
    names = "\n".join(sorted(os.path.abspath(name) for name in files))
    return Path(cache_dir) / f"library-{hashlib.sha256(names.encode()).hexdigest()[:16]}"


def read_current(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / "current.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "dir" in data else None


def changed_files(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    before, after = old.get("files", {}), new.get("files", {})
    return {name for name in set(before) | set(after) if before.get(name) != after.get(name)}


def recorded_warnings(rows: Any) -> tuple[LoadWarning, ...]:
    """The manifest's load problems; a row that is not [path, line, message] is skipped."""
    out = []
    for row in rows if isinstance(rows, list) else ():
        if isinstance(row, list) and len(row) == 3:
            path, line, message = row
            if isinstance(path, str) and isinstance(message, str):
                out.append(LoadWarning(path, message, line if isinstance(line, int) else None))
    return tuple(out)
