"""Finding and reading input files without ever raising for the user's mistakes.

A path that does not exist, a folder with nothing paperscope can read, an empty file, a
binary file or text that is not UTF-8 are all things users do by accident; each becomes one
`LoadWarning` naming the file (and line), and everything else still loads. So do the things
a hostile or unlucky folder can hold: a subfolder the user cannot enter, a symlink loop, a
FIFO or device node (never opened: reading one would block forever), a file over the size
cap, a file that changes while it is read.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from index.models import LoadWarning

# (size, mtime_ns, SHA-256 of the bytes) of a file as it was read.
Stamp = tuple[int, int, str]

__all__ = [
    "SIDECAR_SUFFIX",
    "SUPPORTED_SUFFIXES",
    "Stamp",
    "discover",
    "read_text",
    "read_text_stamped",
]

# File name endings paperscope reads; anything else in a folder is ignored silently.
SUPPORTED_SUFFIXES = (".txt", ".bib", ".bibtex", ".json", ".jsonl", ".ndjson", ".ris")
# `notes.meta.json` beside `notes.txt` carries curated facts about its paragraphs.
SIDECAR_SUFFIX = ".meta.json"
# A folder holding this file is a Zotero data folder: its library is read, not its files.
ZOTERO_DATABASE = "zotero.sqlite"
# A folder where Zotero's database file should be: said as such, not "no supported files".
ZOTERO_FOLDER = "is a folder, not Zotero's database (a zotero.sqlite file); skipped"
_MAX_BYTES = 50 * 1024 * 1024  # a bigger "abstract list" is surely the wrong file


def _supported(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED_SUFFIXES and not path.name.startswith(".")


def _why(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "symlink loop"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return error.strerror or str(error)


def _walk(root: Path, warnings: list[LoadWarning]) -> list[Path]:
    """Supported regular files under `root`, skipping hidden names; unreadable folders warned.

    `os.walk` (not `Path.rglob`, which raises on the first unreadable folder) with
    symlinked folders not followed, so a link to an ancestor cannot loop. A Zotero data
    folder met on the way contributes its database alone: the PDFs and snapshots in its
    `storage/` are attachments, not abstract lists.
    """
    found: list[Path] = []

    def unreadable(error: OSError) -> None:
        where = error.filename or root
        warnings.append(LoadWarning(str(where), f"folder cannot be read ({_why(error)}); skipped"))

    for folder, subfolders, names in os.walk(root, onerror=unreadable, followlinks=False):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        if ZOTERO_DATABASE in subfolders:  # a Zotero data folder whose database is a folder
            warnings.append(LoadWarning(str(Path(folder) / ZOTERO_DATABASE), ZOTERO_FOLDER))
            subfolders[:] = []
            names = []
        if ZOTERO_DATABASE in names:
            subfolders[:] = []
            names = [ZOTERO_DATABASE]
        for name in names:
            path = Path(folder) / name
            if not _supported(path) and name != ZOTERO_DATABASE:
                continue
            try:
                regular = stat.S_ISREG(path.stat().st_mode)  # follows a link to a file
            except OSError as error:
                warnings.append(LoadWarning(str(path), f"cannot be read ({_why(error)}); skipped"))
                continue
            if regular:
                found.append(path)
            else:
                warnings.append(
                    LoadWarning(str(path), "not a regular file (a FIFO, socket or device); skipped")
                )
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def discover(paths: Sequence[Path]) -> tuple[list[Path], list[LoadWarning]]:
    """Every readable file named by `paths`, folders walked recursively, in a stable order.

    A file named explicitly is read whatever its suffix (the user asked for it); a folder
    contributes only supported files. A Zotero data folder (one holding `zotero.sqlite`),
    named or met in a walk, contributes its database and none of its other files.
    Duplicates (the same file reached twice) are read once. A `*.meta.json` sidecar beside
    a named `.txt` file is picked up with it.
    """
    found: list[Path] = []
    warnings: list[LoadWarning] = []
    seen: set[str] = set()

    def add(path: Path) -> None:
        try:
            key = os.path.realpath(path)
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop, before Python 3.13
            key = os.path.abspath(path)
        if key not in seen:
            seen.add(key)
            found.append(path)

    for path in paths:
        path = Path(path).expanduser()
        try:
            mode = path.stat().st_mode
        except OSError as error:
            if error.errno == errno.ENOENT and not path.is_symlink():
                warnings.append(LoadWarning(str(path), "no such file or folder"))
            else:
                warnings.append(LoadWarning(str(path), f"cannot be read ({_why(error)})"))
            continue
        if stat.S_ISDIR(mode) and path.name == ZOTERO_DATABASE:
            warnings.append(LoadWarning(str(path), ZOTERO_FOLDER))
        elif stat.S_ISDIR(mode):
            before = len(warnings)
            files = _walk(path, warnings)
            if not files and not any(w.message == ZOTERO_FOLDER for w in warnings[before:]):
                warnings.append(
                    LoadWarning(
                        str(path),
                        f"folder holds no supported files ({', '.join(SUPPORTED_SUFFIXES)})",
                    )
                )
            for file in files:
                add(file)
        elif stat.S_ISREG(mode):
            add(path)
            sidecar = path.with_name(path.stem + SIDECAR_SUFFIX)
            if path.suffix.lower() == ".txt" and sidecar.is_file():
                add(sidecar)
        else:
            warnings.append(
                LoadWarning(str(path), "not a regular file (a FIFO, socket or device); skipped")
            )
    return found, warnings


def read_bytes(path: Path, shown: str) -> tuple[bytes | None, list[LoadWarning]]:
    """The file's bytes from one open file, or None with a warning (see `read_stamped`)."""
    data, warnings, _ = read_stamped(path, shown)
    return data, warnings


def read_stamped(path: Path, shown: str) -> tuple[bytes | None, list[LoadWarning], Stamp | None]:
    """The file's bytes from one open file, or None with a warning.

    Opened without blocking and checked to be a regular file *after* opening (a file
    swapped for a FIFO since `discover` cannot hang the load), read no further than the
    size cap, and read again once if it changed while being read. The stamp is the size
    and mtime from that same open file and a digest of exactly the bytes returned.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        return None, [LoadWarning(shown, f"cannot read: {_why(error)}")], None
    try:
        for _attempt in range(2):
            before = os.fstat(fd)
            if not stat.S_ISREG(before.st_mode):
                return None, [LoadWarning(shown, "not a regular file; skipped")], None
            if before.st_size > _MAX_BYTES:
                return (
                    None,
                    [
                        LoadWarning(
                            shown,
                            f"file is too large ({before.st_size:,} bytes; "
                            f"the limit is {_MAX_BYTES:,}); skipped",
                        )
                    ],
                    None,
                )
            os.lseek(fd, 0, os.SEEK_SET)
            chunks, total = [], 0
            while total <= _MAX_BYTES:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
            if total > _MAX_BYTES:
                return (
                    None,
                    [
                        LoadWarning(
                            shown,
                            f"file grew past the size limit ({_MAX_BYTES:,} "
                            "bytes) while being read; skipped",
                        )
                    ],
                    None,
                )
            after = os.fstat(fd)
            data = b"".join(chunks)
            stamp = (len(data), after.st_mtime_ns, hashlib.sha256(data).hexdigest())
            if (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns):
                return data, [], stamp
        # Still changing: what was read is used, stamped so the next start reads it again.
        return (
            data,
            [
                LoadWarning(
                    shown, "file changed while being read; what was read is used, reload to be sure"
                )
            ],
            (-1, -1, ""),
        )
    except OSError as error:
        return None, [LoadWarning(shown, f"cannot read: {_why(error)}")], None
    finally:
        os.close(fd)


def read_text(path: Path, shown: str) -> tuple[str | None, list[LoadWarning]]:
    """The file's text, or None with a warning when there is nothing to read.

    Invalid UTF-8 is decoded with replacement characters (and one warning giving the line
    of the first bad byte) rather than refused: one stray Latin-1 byte should not cost the
    user the other 200 abstracts in the file. UTF-16 and UTF-32 with a byte-order mark
    (what some Windows tools write) are decoded as such.
    """
    text, warnings, _ = read_text_stamped(path, shown)
    return text, warnings


def read_text_stamped(path: Path, shown: str) -> tuple[str | None, list[LoadWarning], Stamp | None]:
    """`read_text`, with the stamp of the read (see `read_stamped`)."""
    data, warnings, stamp = read_stamped(path, shown)
    text, more = _decode(data, shown) if data is not None else (None, [])
    return text, warnings + more, stamp


def _decode(data: bytes, shown: str) -> tuple[str | None, list[LoadWarning]]:
    """The bytes as text; UTF-16/32 by their byte-order mark, UTF-8 otherwise."""
    warnings: list[LoadWarning] = []
    for bom, codec in (
        (b"\xff\xfe\x00\x00", "utf-32-le"),
        (b"\x00\x00\xfe\xff", "utf-32-be"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\xfe\xff", "utf-16-be"),
    ):
        if data.startswith(bom):
            text = data[len(bom) :].decode(codec, errors="replace")
            return (text if text.strip() else None), warnings + (
                [] if text.strip() else [LoadWarning(shown, "file is empty")]
            )
    if not data.strip():
        return None, warnings + [LoadWarning(shown, "file is empty")]
    if b"\x00" in data[:8192]:
        return None, warnings + [LoadWarning(shown, "looks like a binary file, not text; skipped")]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), warnings
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        warning = LoadWarning(shown, "not valid UTF-8; undecodable bytes replaced with �", line)
        return data.decode("utf-8", errors="replace"), warnings + [warning]
