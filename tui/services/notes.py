"""The user's notes: one Markdown file per paper in `<data dir>/notes/<citation key>.md`.

Plain files, so the user can edit, grep, sync or version them with any tool; paperscope
reads them whenever they change (`fingerprint`) and hands their text to the search engine
as part of the user layer. The file is named by the paper's citation key (the handle a
writer knows it by), else its paperscope id.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from index.atomic import write_text_atomic
from index.models import Paper
from index.search.key_lookup import note_stem

__all__ = [
    "MAX_NOTE_BYTES",
    "create_note",
    "editor_command",
    "fingerprint",
    "note_name",
    "note_path",
    "read_notes",
    "read_notes_named",
]

# A note larger than this is not a note (a pasted PDF?): it is read only this far.
MAX_NOTE_BYTES = 1 << 20


class Keyed(Protocol):
    """What names a note: a `Paper`, or its saved keys."""

    @property
    def id(self) -> str: ...

    @property
    def citation_key(self) -> str | None: ...


def note_name(paper: Paper | Keyed) -> str:
    """The file name of the paper's note (`smith2021.md`); never a path outside the folder.

    Reads only the citation key and id, so a paper's saved keys
    (index.search.paper_keys.PaperKeys) name the same note as the paper.
    """
    return f"{note_stem(paper.citation_key, paper.id)}.md"


def note_path(notes_dir: Path, paper: Paper) -> Path:
    return Path(notes_dir) / note_name(paper)


def fingerprint(notes_dir: Path) -> tuple[tuple[str, int, int], ...]:
    """Name, size and modification time of every note: changes when any note does."""
    try:
        entries = list(os.scandir(notes_dir))
    except OSError:
        return ()
    out = []
    for entry in entries:
        if entry.name.endswith(".md") and entry.is_file():
            try:
                st = entry.stat()
            except OSError:
                continue
            out.append((entry.name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


def read_notes(notes_dir: Path, papers: Iterable[Paper | Keyed]) -> dict[str, str]:
    """Paper id -> its note's text, for every paper that has a readable note."""
    names = {entry[0] for entry in fingerprint(notes_dir)}
    if not names:
        return {}
    out: dict[str, str] = {}
    for paper in papers:
        name = note_name(paper)
        if name in names and (text := _read_note(Path(notes_dir) / name)) is not None:
            out[paper.id] = text
    return out


def read_notes_named(notes_dir: Path, papers_named: Callable[[str], list[str]]) -> dict[str, str]:
    """`read_notes` with each note's papers found by its name, not every paper named.

    `papers_named(stem)` gives the papers whose note is `<stem>.md`, as
    index.search.key_lookup does.
    """
    out: dict[str, str] = {}
    for name, _, _ in fingerprint(notes_dir):
        papers = papers_named(name.removesuffix(".md"))
        if papers and (text := _read_note(Path(notes_dir) / name)) is not None:
            out.update(dict.fromkeys(papers, text))
    return out


def _read_note(path: Path) -> str | None:
    """A note's text, as far as `MAX_NOTE_BYTES`; None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_NOTE_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace")


def create_note(notes_dir: Path, paper: Paper) -> Path:
    """The paper's note, created (atomically) with its title as a heading when missing.

    Raises:
        OSError: the notes folder cannot be written.
    """
    path = note_path(notes_dir, paper)
    if not path.exists():
        Path(notes_dir).mkdir(parents=True, exist_ok=True)
        heading = " ".join(paper.title.split())
        write_text_atomic(path, f"# {heading}\n\n")
    return path


def editor_command(
    environ: dict[str, str] | None = None, which: object = shutil.which
) -> Sequence[str] | None:
    """The editor to run: `$VISUAL`, then `$EDITOR`, then `vi` or `nano` if installed."""
    env = os.environ if environ is None else environ
    for variable in ("VISUAL", "EDITOR"):
        value = env.get(variable, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:
                words = [value]
            if words:
                return words
    for fallback in ("vi", "nano"):
        if which(fallback):  # type: ignore[operator]
            return [fallback]
    return None
