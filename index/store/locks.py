"""The locks on a library's index folder: one process builds at a time, and no
generation is deleted while any process has it open.

`build.lock` is held exclusively by whichever process builds (`build_lock`). Each
generation's in-use file (`IN_USE_FILE`) is held shared by every process that serves it
(`hold`); a publish deletes an old generation, or a sweep an old sample index, only when
it can take that lock exclusively (`in_use`). Without `fcntl` (Windows) nothing is
locked: two processes may then build at once, which is merely wasteful.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from whoosh.index import Index

from index.store import integrity

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["IN_USE_FILE", "Held", "build_lock", "hold", "hold_folder", "in_use", "sweep_previews"]

log = logging.getLogger("paperscope.index")

IN_USE_FILE = integrity.IN_USE_FILE


class Held:
    """The build lock as `build_lock` gives it: true when held.

    A build that finishes in a process of its own after this one exits (the app quit
    during a first build: `index.store.child`) inherits the lock's file descriptor, and
    with it the lock (a `flock` belongs to the open file, shared by every process that
    has it). `hand_over` then keeps this process from unlocking it on the way out: the
    lock goes when the build process closes its copy, so no other start builds meanwhile.
    """

    def __init__(self, handle: IO[str] | None, locked: bool) -> None:
        self._handle = handle
        self._locked = locked
        self.handed_over = False

    def __bool__(self) -> bool:
        return self._locked

    def fileno(self) -> int | None:
        """The lock file's descriptor for a build process to inherit (None: no locking)."""
        return self._handle.fileno() if self._handle is not None and self._locked else None

    def hand_over(self) -> None:
        """The lock now belongs to a build process that inherited it: never unlock it here."""
        self.handed_over = True


@contextmanager
def build_lock(folder: Path, wait: bool) -> Iterator[Held]:
    """Holds the folder's build lock; yields a false `Held` when `wait` is False and it
    is taken."""
    folder.mkdir(parents=True, exist_ok=True)
    if fcntl is None:  # pragma: no cover - Windows
        yield Held(None, True)
        return
    handle = open(folder / "build.lock", "a+")
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            if not wait:
                yield Held(None, False)
                return
            log.warning("another paperscope process is building this index; waiting for it")
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        held = Held(handle, True)
        try:
            yield held
        finally:
            if not held.handed_over:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    finally:
        handle.close()


def hold(ix: Index, path: Path) -> None:
    """Keep the generation at `path` from being deleted while `ix` is alive."""
    handle = hold_folder(path)
    if handle is not None:
        ix._paperscope_in_use = handle  # released with the index


def hold_folder(path: Path) -> IO[str] | None:
    """A shared lock on the folder's in-use file: no other process deletes it meanwhile."""
    if fcntl is None:  # pragma: no cover - Windows
        return None
    try:
        handle = open(path / IN_USE_FILE, "a+")
        fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return None  # being deleted right now: the caller's open already succeeded, so rare
    return handle


def sweep_previews(folder: Path) -> None:
    """Removes the sample indexes no process holds (`index.store.preview`): an app that
    served one holds it until it exits, so the publish after its build could not."""
    for preview in folder.glob("preview-*"):
        if not in_use(preview):
            shutil.rmtree(preview, ignore_errors=True)


def in_use(path: Path) -> bool:
    """True when some process holds the generation open (see `hold`)."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        with open(path / IN_USE_FILE, "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False
