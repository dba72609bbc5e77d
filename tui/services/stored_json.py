"""The user's own JSON files, shared safely by any number of apps and commands.

Every change is an *operation* (add this tag to that paper, save this search, mark this
paper), never "write my copy of the whole file": under an exclusive lock on a sidecar file
(`.annotations.json.lock` beside the file; `filelock`: `fcntl.flock` on POSIX, `msvcrt` on
Windows, so the system releases it when a writer dies, even killed mid-change) the file is
read again as it is now, the operation applied to that, and the result replaced atomically
(index.atomic). Two apps and a script tagging at once each keep their tag. Readers take no
lock: the atomic replace shows them the old file or the new one, never half of one.

A running app calls `refresh` when its watcher saw the file change (size, mtime, inode),
and sees what others wrote; changes this session could not save yet (a full disk) stay
pending and are applied again on top, at the refresh and at the next save.

A file that does not read (not JSON, nested too deeply, the wrong shape) is the user's to
inspect: it is warned about and never written over, and the session keeps its changes in
memory. A file written by a newer paperscope (a higher `version`) is read when it has the
shape this code knows, but never rewritten: rewriting could drop what the newer format
means, so changes stay in this session with a one-line notice. Keys this code does not
know, in a file of its own version, are kept on every rewrite (operations edit the file's
own records in place).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from index.atomic import write_text_atomic

__all__ = [
    "LOCK_WAIT",
    "Operation",
    "StoredJson",
    "describe_os_error",
    "file_stamp",
    "read_json",
]

# Seconds a change waits for another writer's lock: a change holds it for milliseconds, so
# this long means a writer stopped (Ctrl-Z) while holding it.
LOCK_WAIT = 5.0

Operation = Callable[[Any], None]  # applies one change to the file's decoded JSON, in place
Stamp = tuple[int, int, int]  # (size, mtime_ns, inode): the file changed when this did


def describe_os_error(error: OSError) -> str:
    """A failed write in a user's words: "disk full", "read-only folder", ..."""
    if error.errno == errno.ENOSPC:
        return "disk full"
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"no permission to write in {error.filename or 'the folder'}"
    if error.errno == errno.EDQUOT:
        return "disk quota exceeded"
    return error.strerror or str(error)


def file_stamp(path: Path) -> Stamp | None:
    """Size, modification time and inode of `path`; None when it cannot be seen."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


@dataclass(frozen=True)
class _Read:
    """One reading of a user file."""

    data: Any  # the decoded value; None when missing or unusable
    problem: str | None = None  # why it is unusable, naming the file and the cause
    newer: int | None = None  # its format version, when newer than this code writes
    stamp: Stamp | None = None  # what was read (None: no file)


def _decode(path: Path, text: str) -> tuple[Any, str | None]:
    """The JSON value of `text`, or None and the cause in words.

    A file nested ~1,000 deep makes the decoder raise `RecursionError`: the corpus loaders'
    guard (index.library.loaders.guards) turns that, and anything else the decoder may
    raise, into one line, as it does for a corpus file.
    """
    from index.library.loaders.guards import guarded_parse

    def parse() -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            return error  # returned, not raised: the guard would lose its line number

    data, problems = guarded_parse(parse, str(path), None)
    if problems:
        return None, str(problems[0]).removesuffix("; skipped")
    if isinstance(data, json.JSONDecodeError):
        return None, f"{path}:{data.lineno}: not valid JSON ({data.msg})"
    if _deeper_than(data, _MAX_DEPTH):
        # Python 3.13's decoder reads what 3.10-3.12's stopped at: the same file, the same
        # line on every Python (and no value this deep for the code that reads it).
        return None, f"{path}: nested too deeply to read (more than about 900 levels)"
    return data, None


_MAX_DEPTH = 900  # about where the decoder of Python 3.10-3.12 stops (RecursionError)


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` deep in `value` (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return False


def _load(path: Path, valid: Callable[[Any], bool], expected: str, version: int | None) -> _Read:
    """`path` read, decoded and checked; its stamp is the one of the bytes read."""
    try:
        # Non-blocking: a FIFO put in the file's place must not hang the app's UI thread.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return _Read(None)
    except OSError as error:
        return _Read(None, f"{path}: cannot read ({error.strerror or error})")
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
        if not stat.S_ISREG(st.st_mode):
            return _Read(None, f"{path}: not a regular file", stamp=stamp)
        try:
            raw = handle.read()
        except OSError as error:
            return _Read(None, f"{path}: cannot read ({error.strerror or error})", stamp=stamp)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return _Read(None, f"{path}: cannot read ({error})", stamp=stamp)
    data, problem = _decode(path, text)
    if problem is not None:
        return _Read(None, problem, stamp=stamp)
    newer = None
    if version is not None and isinstance(data, dict):
        found = data.get("version")
        if isinstance(found, int) and not isinstance(found, bool) and found > version:
            newer = found
    if not valid(data):
        if newer is not None:
            why = f"{path}: written by a newer paperscope (format version {newer})"
        else:
            why = f"{path}: expected {expected}"
        return _Read(None, why, newer, stamp)
    return _Read(data, None, newer, stamp)


def read_json(
    path: Path, valid: Callable[[Any], bool], expected: str, empty: Any
) -> tuple[Any, str | None]:
    """The JSON value in `path` when `valid` accepts it, else `empty` and why not.

    Args:
        valid: says whether the decoded value has the shape the caller stores.
        expected: that shape in words, for the warning ("a JSON list of strings").
        empty: what a missing or unusable file stands for.
    """
    read = _load(path, valid, expected, None)
    if read.problem is not None:
        return empty, f"{read.problem}; starting empty"
    return (empty if read.data is None else read.data), None


class StoredJson:
    """A JSON file of the user's data, changed by operations under a lock (module doc).

    Subclasses say what the file holds (`expected`, `_valid`, `_empty`, `version` for a
    versioned object) and keep their view of it in `_adopt`; each change builds an
    `Operation` and passes it to `_change`.

    Args:
        path: the JSON file; `None` keeps the data in memory only.
    """

    what = "data"  # for messages: "could not save marks: disk full"
    expected = "JSON"  # the shape in words, for warnings
    version: int | None = None  # the format version written; None: a plain list, unversioned

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.warning: str | None = None  # why the file is not used as it is on disk
        self.save_error: str | None = None  # why the last save failed; None once one works
        self._lock = threading.RLock()  # the UI thread changes, a worker reads
        self._pending: list[Operation] = []  # changes not yet on disk
        self._stamp: Stamp | None = None  # the file as last read or written
        self._data: Any = self._empty()
        if path is not None:
            read = self._read()
            self._stamp = read.stamp
            if read.problem is not None:
                self.warning = f"{read.problem}; starting empty"
            elif read.data is not None:
                self._data = read.data
            if read.newer is not None and read.problem is None:
                self.warning = self._newer_notice(read.newer)
        self._adopt(self._data)

    # -- what subclasses say ---------------------------------------------------------------

    def _empty(self) -> Any:
        """The value a missing file stands for."""
        raise NotImplementedError

    def _valid(self, data: Any) -> bool:
        """Whether decoded JSON has the shape this class stores."""
        raise NotImplementedError

    def _adopt(self, data: Any) -> None:
        """Take `data` (valid, possibly just changed) as the current value."""
        raise NotImplementedError

    # -- reading ---------------------------------------------------------------------------

    def _read(self) -> _Read:
        assert self.path is not None
        return _load(self.path, self._valid, self.expected, self.version)

    def _newer_notice(self, version: int) -> str:
        return (
            f"{self.path}: written by a newer paperscope (format version {version}); "
            "shown, but left as it is: changes here are kept for this session only"
        )

    def refresh(self) -> bool:
        """Read the file again if it changed since this session last read or wrote it.

        Returns True when the data changed (views should follow). A file that became
        unreadable leaves the session's data as it was, with `warning` saying why.
        """
        if self.path is None or file_stamp(self.path) == self._stamp:
            return False
        read = self._read()
        with self._lock:
            self._stamp = read.stamp
            if read.problem is not None:
                self.warning = f"{read.problem}; kept as it was"
                return False
            self.warning = self._newer_notice(read.newer) if read.newer is not None else None
            data = self._empty() if read.data is None else read.data
            for operation in self._pending:
                operation(data)
            try:
                same = data == self._data
            except RecursionError:  # unknown keys nested deep enough to stop the comparison
                same = False
            if same:
                return False
            self._data = data
            self._adopt(data)
            return True

    # -- changing --------------------------------------------------------------------------

    def _change(self, operation: Operation) -> bool:
        """Apply `operation` here at once and to the file as it is now; False (and
        `save_error` set) when it could not be saved: it is then kept for the session and
        tried again with the next change."""
        with self._lock:
            self._pending.append(operation)
            if self.path is not None and self._flush():
                return True  # the session now holds the file as written
            # In memory only (no file, or the save failed): this session still sees it.
            operation(self._data)
            self._adopt(self._data)
            if self.path is None:
                self._pending.clear()
                return True
            return False

    def _flush(self) -> bool:
        """The pending operations applied to the file under its lock (module doc)."""
        assert self.path is not None
        # Here, not at the top: filelock imports asyncio (~70 ms), and most commands only read.
        from filelock import FileLock, Timeout

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(_lock_path(self.path), timeout=LOCK_WAIT):
                read = self._read()
                failure = self._unwritable(read)
                if failure is not None:
                    self.save_error = f"could not save {self.what}: {failure}"
                    return False
                data = self._empty() if read.data is None else read.data
                for operation in self._pending:
                    operation(data)
                if self.version is not None:
                    data["version"] = self.version
                text = json.dumps(data, ensure_ascii=False, indent=1)
                write_text_atomic(self.path, text)
                self._stamp = file_stamp(self.path)
        except Timeout:
            self.save_error = (
                f"could not save {self.what}: another paperscope kept {self.path.name} "
                f"locked for {LOCK_WAIT:.0f} s (kept for this session; saved with the next "
                "change)"
            )
            return False
        except RecursionError:
            self.save_error = f"could not save {self.what}: {self.path} is nested too deeply"
            return False
        except OSError as error:
            if error.filename == _lock_path(self.path):  # say the folder, as for the file
                error.filename = str(self.path.parent)
            self.save_error = f"could not save {self.what}: {describe_os_error(error)}"
            return False
        self._pending.clear()
        self._data = data
        self._adopt(data)
        self.save_error = None
        return True

    def _unwritable(self, read: _Read) -> str | None:
        """Why the file as read must not be written over, or None."""
        if read.newer is not None:
            return (
                f"{self.path} was written by a newer paperscope (format version "
                f"{read.newer}) and is left as it is (kept for this session only)"
            )
        if read.problem is not None:
            cause = read.problem.removeprefix(f"{self.path}: ").removeprefix(f"{self.path}:")
            return f"{self.path} is damaged and is left as it was (kept for this session only): {cause}"
        return None


def _lock_path(path: Path) -> str:
    """The lock file beside the file itself (a symlinked file is locked where it lives,
    as index.atomic replaces it there): `.annotations.json.lock`."""
    real = Path(os.path.realpath(path))
    return str(real.parent / f".{real.name}.lock")
