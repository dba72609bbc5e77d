"""Atomic file writes: a crash mid-write leaves the old file, never half a new one."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_text_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename.

    The file gets the permissions the user would expect of a plain write: a replaced file
    keeps its mode, a new one gets the usual 0o666 less the umask (an exported bibliography
    must be readable by the tools that read it, not private like a temporary file).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        keep_mode: int | None = path.stat().st_mode & 0o7777
    except OSError:
        keep_mode = None
    fd, tmp_name = _create_temp(path)
    try:
        if keep_mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, keep_mode)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def _create_temp(path: Path) -> tuple[int, str]:
    """A new, uniquely named file beside `path`, created with mode 0o666 (less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, flags, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")
