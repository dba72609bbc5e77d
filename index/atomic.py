"""Atomic file writes: a crash mid-write leaves the old file, never half a new one.

Writes land where the user means: `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are written
through the descriptor this process already has open (`>> log` appends, a pipe gets the
text), never through the file or pipe the name resolves to; a symlink is followed and its
*target* replaced (the link into a synced folder stays a link); a FIFO or character device
(`/dev/full`) is written directly, since renaming a file over it would replace the device
node; any other kind of file (a folder, a socket) is refused. A full disk or a read-only
folder raises `OSError` like any other failed write: the caller reports it, never "saved".
The temporary files a killed write leaves behind are named so `clean_stale_temps` can
find and remove them at the next start.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import sys
import time
from pathlib import Path

__all__ = [
    "STALE_AFTER",
    "clean_stale_temps",
    "open_descriptor",
    "write_bytes_atomic",
    "write_text_atomic",
]

# A temp file this old (seconds) belongs to no write still running: a write takes moments.
STALE_AFTER = 60.0
_TEMP = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")
_DESCRIPTOR = re.compile(r"/dev/(?:std(in|out|err)|fd/(\d+))|/proc/self/fd/(\d+)")
_STANDARD = {"in": 0, "out": 1, "err": 2}


def open_descriptor(path: Path | str) -> int | None:
    """The descriptor a name such as `/dev/stdout` or `/dev/fd/3` stands for, else None.

    Such a name is a link to whatever the descriptor is open on: resolving it and
    replacing the file found there would truncate a `>> log` and fail on a pipe (whose
    name, `pipe:[123]`, is no path), so these are written through the descriptor itself.
    """
    match = _DESCRIPTOR.fullmatch(str(path))
    if match is None:
        return None
    standard, fd, proc_fd = match.groups()
    return _STANDARD[standard] if standard else int(fd or proc_fd)


def write_text_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename.

    The file gets the permissions the user would expect of a plain write: a replaced file
    keeps its mode, a new one gets the usual 0o666 less the umask (an exported bibliography
    must be readable by the tools that read it, not private like a temporary file).

    Raises:
        OSError: the write failed (disk full, read-only folder, not a regular file); the
            previous file, if any, is unchanged.
    """
    write_bytes_atomic(path, text.encode(encoding))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """`write_text_atomic` for bytes: the same temporary file, rename and permissions.

    Raises:
        OSError: the write failed; the previous file, if any, is unchanged.
    """
    fd = open_descriptor(path)
    if fd is not None:
        _write_descriptor(fd, data)
        return
    path = Path(os.path.realpath(Path(path).expanduser()))  # a symlink's target is replaced
    try:
        info: os.stat_result | None = path.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            _write_direct(path, data)
            return
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise OSError(
            errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL,
            f"{kind}; refusing to replace it",
            str(path),
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    keep_mode = info.st_mode & 0o7777 if info is not None else None
    fd, tmp_name = _create_temp(path)
    try:
        if keep_mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, keep_mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        raise


def _write_descriptor(fd: int, data: bytes) -> None:
    """Write to an open descriptor, after what Python's own streams on it hold."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and stream.fileno() == fd:
                stream.flush()
        except (OSError, ValueError):  # a stream without a descriptor (a test's capture)
            continue
    _write_all(fd, data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _write_direct(path: Path, data: bytes) -> None:
    """Write to a device or FIFO in place (non-blocking open: a FIFO with no reader fails)."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        os.set_blocking(fd, True)
        _write_all(fd, data)
    finally:
        os.close(fd)


def _create_temp(path: Path) -> tuple[int, str]:
    """A new, uniquely named file beside `path`, created with mode 0o666 (less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            if not os.access(path.parent, os.W_OK):  # an immutable folder answers EEXIST
                break
            continue
    raise PermissionError(
        errno.EACCES, "cannot create a file in the folder (read-only?)", str(path.parent)
    )


def clean_stale_temps(folder: Path, *, older_than: float = STALE_AFTER) -> int:
    """Remove temporary files a killed `write_text_atomic` left in `folder`; returns how many.

    Only names this module creates (`.NAME.xxxxxxxx.tmp`), only regular files, and only
    ones older than `older_than` seconds, so another instance's write in progress is safe.
    """
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not _TEMP.match(entry.name):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and now - entry.stat().st_mtime > older_than:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed
