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

import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["SnapshotError", "companion_files", "connect", "snapshot", "stat_fingerprint"]

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
    for source, copy, state in zip(sources, [target, *companion_files(target)], before):
        copy.unlink(missing_ok=True)
        if state is not None:
            shutil.copyfile(source, copy)  # plain reads: no SQLite lock is taken
    return [_state(path) for path in sources] == before


def connect(copy: Path) -> sqlite3.Connection:
    """A query-only connection to a private copy made by `snapshot`.

    The copy is opened read-write (it is ours) so SQLite can replay its WAL or roll back a
    hot journal; `query_only` makes sure this code never changes even the copy.
    """
    connection = sqlite3.connect(copy, isolation_level=None)
    connection.execute("PRAGMA query_only = ON")
    return connection
