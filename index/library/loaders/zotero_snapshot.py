"""A private, consistent copy of a live Zotero database, read without touching Zotero's files.

Zotero opens `zotero.sqlite` in exclusive locking mode, so while it runs any other
SQLite connection is refused ("database is locked"), and in WAL mode its newest writes
live only in `zotero.sqlite-wal` until a checkpoint. Plain file reads take no SQLite lock,
so the database and its write-ahead log are copied into a temporary folder and the copy is
opened instead: SQLite replays the copied log, and items Zotero has not checkpointed yet
are there. A copy made while Zotero was writing could be torn, so each file's size, mtime
and header bytes are compared before and after the copy, and the copy is retried.

Nothing here writes to, renames or locks Zotero's own files; the copy is deleted when the
`snapshot` block ends.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "SnapshotError",
    "companion_files",
    "connect",
    "copy_database",
    "snapshot",
    "stat_fingerprint",
]

# The files SQLite may need beside the database to see every committed change: the
# write-ahead log (WAL mode, Zotero's default) and a hot rollback journal (a filesystem
# where Zotero had to fall back to rollback mode). `-shm` is only an index of the WAL,
# rebuilt from it on open, and Zotero's exclusive mode keeps it in memory anyway.
_COMPANIONS = ("-wal", "-journal")
_ATTEMPTS = 5
_HEADER_BYTES = 100  # the SQLite header (change counter) / the WAL header (salts, checkpoint)

FileState = tuple[int, int, bytes]  # size, mtime in nanoseconds, leading bytes


class SnapshotError(Exception):
    """The database could not be copied consistently; the message says why, in one line."""


def companion_files(database: Path) -> list[Path]:
    """The files beside `database` whose changes change what it holds (present or not)."""
    return [database.with_name(database.name + suffix) for suffix in _COMPANIONS]


def _state(path: Path) -> FileState | None:
    """What says the file did not change while it was copied; None when it is absent."""
    try:
        stat = path.stat()
        with open(path, "rb") as handle:
            head = handle.read(_HEADER_BYTES)
    except FileNotFoundError:
        return None
    return (stat.st_size, stat.st_mtime_ns, head)


def stat_fingerprint(database: Path) -> tuple[tuple[int, int] | None, ...]:
    """Size and mtime of the database and its companions: cheap, no copy, no lock.

    Changes whenever Zotero writes anything (a sync timestamp too), so it says "maybe
    changed"; equal fingerprints mean nothing was written.
    """
    states = [_state(path) for path in [database, *companion_files(database)]]
    return tuple(None if state is None else state[:2] for state in states)


@contextmanager
def snapshot(database: Path) -> Iterator[Path]:
    """A consistent private copy of `database` (with its WAL), deleted afterwards.

    Raises:
        SnapshotError: the files cannot be read, or kept changing on every attempt.
    """
    folder = Path(tempfile.mkdtemp(prefix="paperscope-zotero-"))
    try:
        yield _copy(database, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _copy(database: Path, folder: Path) -> Path:
    target = folder / "zotero.sqlite"
    for attempt in range(_ATTEMPTS):
        try:
            if _copy_once(database, target):
                return target
        except FileNotFoundError:  # the WAL went away mid-copy (Zotero checkpointed): again
            pass
        except OSError as error:
            raise SnapshotError(f"cannot read: {error.strerror or error}") from None
        time.sleep(0.05 * 2**attempt)
    raise SnapshotError(
        f"Zotero kept writing to it during {_ATTEMPTS} attempts to copy it; try again in a moment"
    )


def _copy_once(database: Path, target: Path) -> bool:
    """Copy the database and its companions; True when none changed meanwhile."""
    sources = [database, *companion_files(database)]
    before = [_state(path) for path in sources]
    if before[0] is None:
        raise SnapshotError("no such file")
    for n, (source, copy, state) in enumerate(
        zip(sources, [target, *companion_files(target)], before)
    ):
        copy.unlink(missing_ok=True)
        if state is None:
            continue
        if n == 0:
            copy_database(source, copy)
        else:
            shutil.copyfile(source, copy)  # plain reads: no SQLite lock is taken
    return [_state(path) for path in sources] == before


# SQLite locks bytes from 1 GiB on (`PENDING_BYTE`); the page holding them is never used
# for data. On Windows those locks are mandatory: Zotero's exclusive lock makes reading
# them fail, so a database over 1 GiB could not be copied byte for byte.
LOCK_BYTE_OFFSET = 0x40000000
_CHUNK = 1 << 20


def _page_size(header: bytes) -> int:
    """The page size a SQLite header gives (1 means 65536); 65536 when it cannot say."""
    if len(header) < 18:
        return 65536
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 or size < 512 or size & (size - 1) else size


def copy_database(source: Path, target: Path, lock_offset: int = LOCK_BYTE_OFFSET) -> None:
    """Copy a SQLite database without reading its lock-byte page (zeros are written there).

    Everything else is copied as is, with plain reads: no SQLite lock is taken.
    """
    with open(source, "rb") as src, open(target, "wb") as dst:
        page = _page_size(src.read(100))
        src.seek(0)
        size = os.fstat(src.fileno()).st_size
        _copy_range(src, dst, min(size, lock_offset))
        if size <= lock_offset:
            return  # smaller than the locked region: copied whole
        skip = min(page, size - lock_offset)
        dst.write(bytes(skip))  # never read: on Windows those bytes are locked
        src.seek(lock_offset + skip)
        _copy_range(src, dst, None)


def _copy_range(src: BinaryIO, dst: BinaryIO, end: int | None) -> None:
    """Copy from the current position up to `end` (None: the end of the file)."""
    while end is None or src.tell() < end:
        want = _CHUNK if end is None else min(_CHUNK, end - src.tell())
        block = src.read(want)
        if not block:
            return
        dst.write(block)


def connect(copy: Path) -> sqlite3.Connection:
    """A query-only connection to a private copy made by `snapshot`.

    The copy is opened read-write (it is ours) so SQLite can replay its WAL or roll back a
    hot journal; `query_only` makes sure this code never changes even the copy.
    """
    connection = sqlite3.connect(copy, isolation_level=None)
    connection.execute("PRAGMA query_only = ON")
    return connection
