"""Noticing that the library's sources changed: cheap stat polling, no watcher library.

A poll lists the inputs the way the loader would (`index.library.inputs.input_files`: files
named, folders walked, a Zotero database and its write-ahead log) and compares each one's
size, modification time and inode with the last poll. That costs a few `stat` calls a
second and catches every way an editor saves: in place, by an atomic rename (a new inode),
a file added to or removed from a watched folder. Nothing is read until something changed.

Zotero writes to its database all the time while it runs (sync times, settings, feeds),
so a changed Zotero database is reloaded only when its content fingerprint (what its
papers are made of, `index.library.loaders.zotero.fingerprint`) changed too: one private
copy and a few aggregate queries instead of reading and indexing the whole library again.

`describe_changes` says what a reload did, per source file, in the words of the notice:
"refs.bib: +3, -1 papers".
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from index.models import Library, Paper, Source, SourceRecord

__all__ = [
    "NO_PAPER_CHANGED",
    "Fingerprint",
    "ZoteroContent",
    "changed_files",
    "describe_changes",
    "sources_fingerprint",
]

Fingerprint = dict[str, tuple[int, int, int]]  # path -> (size, mtime_ns, inode)
NO_PAPER_CHANGED = "no paper changed"  # a source saved (or touched) with the same papers


def _companions(path: str) -> list[str]:
    """Files whose changes are `path`'s (a Zotero database's write-ahead log), as the
    loader names them."""
    from index.library.loaders import companions

    return [str(p) for p in companions(Path(path))]


def sources_fingerprint(corpus: Sequence[Path] | None, known: Iterable[str] = ()) -> Fingerprint:
    """Size, mtime and inode of every input `load_library(corpus)` would read (and `known`).

    `known` is the files the current library was read from, so a file that vanished
    (moved away, deleted mid-rename) shows up as a change too.
    """
    from index.library.inputs import input_files

    try:
        names = [str(p) for p in input_files(corpus)]
    except OSError:
        names = []
    out: Fingerprint = {}
    for name in dict.fromkeys([*names, *known]):
        for path in (name, *_companions(name)):
            try:
                st = os.stat(path)
            except OSError:
                if path == name:
                    out[path] = (-1, -1, -1)
                continue
            out[path] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def changed_files(before: Fingerprint, after: Fingerprint) -> set[str]:
    """The inputs added, removed or changed between two polls (journals, and Better
    BibTeX's database, as the Zotero database they belong to)."""
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    out = set()
    for name in changed:
        if os.path.basename(name).startswith("better-bibtex.sqlite"):
            name = os.path.join(os.path.dirname(name), "zotero.sqlite")  # its keys' library
        for suffix in ("-wal", "-journal"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        out.add(name)
    return out


class ZoteroContent:
    """The content fingerprints of the Zotero databases among the inputs, as last seen.

    Args:
        files: the files the current library was read from; the databases among them
            are fingerprinted now, so the first change is told from bookkeeping too.
    """

    def __init__(self, files: Iterable[str]) -> None:
        self._seen: dict[str, object] = {}
        for name in files:
            if _companions(name):
                self._seen[name] = self._fingerprint(name)

    @staticmethod
    def _fingerprint(name: str) -> object:
        from index.library.loaders.zotero import fingerprint

        return fingerprint(Path(name))

    def changed(self, names: Iterable[str]) -> set[str]:
        """`names` without the Zotero databases whose papers cannot have changed.

        A database that cannot be read now (None) counts as changed: the reload then
        says what is wrong with it.
        """
        out = set()
        for name in names:
            if not _companions(name):
                out.add(name)
                continue
            now = self._fingerprint(name)
            if now is None or now != self._seen.get(name):
                out.add(name)
            self._seen[name] = now
        return out


def _content(paper: Paper) -> Paper:
    """The paper but where it sits in its files: an entry deleted above one moves it down
    the file, and it is no changed paper for that (issue 46: "6314 changed"). Its source
    records say where they were read too (and their crossref parents)."""
    if all(s.line is None and s.paragraph is None for s in paper.sources) and not paper.records:
        return paper
    return replace(
        paper,
        sources=tuple(Source(s.path) for s in paper.sources),
        records=tuple(_unplaced(record) for record in paper.records),
    )


def _unplaced(record: SourceRecord) -> SourceRecord:
    """The record without the line it was read at, its parents' neither."""
    return replace(
        record,
        source=Source(record.source.path) if record.source is not None else None,
        parents=tuple(_unplaced(parent) for parent in record.parents),
    )


def _by_source(library: Library) -> dict[str, dict[str, Paper]]:
    out: dict[str, dict[str, Paper]] = {}
    for paper in library.papers:
        for source in paper.sources:
            out.setdefault(os.path.realpath(source.path), {})[paper.id] = paper
    return out


def describe_changes(old: Library, new: Library, files: Iterable[str]) -> list[str]:
    """One line per changed source: "refs.bib: +3, -1 papers" (or "1 changed")."""
    before, after = _by_source(old), _by_source(new)
    lines: list[str] = []
    for name in sorted({os.path.realpath(f) for f in files}):
        was, now = before.get(name, {}), after.get(name, {})
        added = len(set(now) - set(was))
        removed = len(set(was) - set(now))
        edited = sum(1 for key in set(now) & set(was) if _content(now[key]) != _content(was[key]))
        parts = []
        if added or removed:
            parts.append(f"+{added}, -{removed} papers")
        if edited:
            parts.append(f"{edited} changed")
        lines.append(f"{os.path.basename(name)}: " + ("; ".join(parts) or NO_PAPER_CHANGED))
    return lines
