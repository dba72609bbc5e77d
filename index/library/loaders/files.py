"""Finding and reading input files without ever raising for the user's mistakes.

A path that does not exist, a folder with nothing paperscope can read, an empty file, a
binary file or text that is not UTF-8 are all things users do by accident; each becomes one
`LoadWarning` naming the file (and line), and everything else still loads.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index.models import LoadWarning

__all__ = ["SUPPORTED_SUFFIXES", "SIDECAR_SUFFIX", "discover", "read_text", "display_path"]

# File name endings paperscope reads; anything else in a folder is ignored silently.
SUPPORTED_SUFFIXES = (".txt", ".bib", ".bibtex", ".json", ".jsonl", ".ndjson", ".ris")
# `notes.meta.json` beside `notes.txt` carries curated facts about its paragraphs.
SIDECAR_SUFFIX = ".meta.json"
_MAX_BYTES = 50 * 1024 * 1024  # a bigger "abstract list" is surely the wrong file


def display_path(path: Path) -> str:
    """The path as the user wrote it, or as short as we can make it."""
    return str(path)


def _supported(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED_SUFFIXES and not path.name.startswith(".")


def discover(paths: Sequence[Path]) -> tuple[list[Path], list[LoadWarning]]:
    """Every readable file named by `paths`, folders walked recursively, in a stable order.

    A file named explicitly is read whatever its suffix (the user asked for it); a folder
    contributes only supported files. Duplicates (the same file reached twice) are read once.
    A `*.meta.json` sidecar beside a named `.txt` file is picked up with it.
    """
    found: list[Path] = []
    warnings: list[LoadWarning] = []
    seen: set[Path] = set()

    def add(path: Path) -> None:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            found.append(path)

    for path in paths:
        path = Path(path).expanduser()
        if path.is_dir():
            files = sorted(
                (p for p in path.rglob("*") if p.is_file() and _supported(p)
                 and not any(part.startswith(".") for part in p.relative_to(path).parts)),
                key=lambda p: p.relative_to(path).as_posix(),
            )
            if not files:
                warnings.append(LoadWarning(str(path), "folder holds no supported files "
                                            f"({', '.join(SUPPORTED_SUFFIXES)})"))
            for file in files:
                add(file)
        elif path.is_file():
            add(path)
            sidecar = path.with_name(path.stem + SIDECAR_SUFFIX)
            if path.suffix.lower() == ".txt" and sidecar.is_file():
                add(sidecar)
        elif path.exists():
            warnings.append(LoadWarning(str(path), "not a regular file; skipped"))
        else:
            warnings.append(LoadWarning(str(path), "no such file or folder"))
    return found, warnings


def read_text(path: Path, shown: str) -> tuple[str | None, list[LoadWarning]]:
    """The file's text, or None with a warning when there is nothing to read.

    Invalid UTF-8 is decoded with replacement characters (and one warning giving the line
    of the first bad byte) rather than refused: one stray Latin-1 byte should not cost the
    user the other 200 abstracts in the file.
    """
    try:
        size = path.stat().st_size
        if size > _MAX_BYTES:
            return None, [LoadWarning(shown, f"file is too large ({size} bytes); skipped")]
        data = path.read_bytes()
    except OSError as error:
        return None, [LoadWarning(shown, f"cannot read: {error.strerror or error}")]
    if not data.strip():
        return None, [LoadWarning(shown, "file is empty")]
    if b"\x00" in data[:8192]:
        return None, [LoadWarning(shown, "looks like a binary file, not text; skipped")]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        warning = LoadWarning(shown, "not valid UTF-8; undecodable bytes replaced with �", line)
        return data.decode("utf-8", errors="replace"), [warning]
