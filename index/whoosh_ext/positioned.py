"""Index files that know their own write position: no system call per `tell`.

Whoosh asks a file it writes for its position at every posting list and block, ~170
times per paper. On Python's `BufferedWriter` each `tell` is an `lseek`, and every system
call releases the GIL. In a process where another thread runs without pause (paperscope
builds in threads beside the app's UI: a small library's first build, a live reload's
in-place update, the sample index of a big first start), each release hands the GIL to
that thread, and taking it back waits out the interpreter's switch interval (5 ms): the
convoy effect. 300 papers built in a thread took 1.1 s beside an idle main thread and
23 s beside a spinning one (`benchmarks/thread_build.py`); beside a thread busy a third
of the time, as a UI is, the build only shares the interpreter fairly.

`PositionedStorage` is Whoosh's `FileStorage` whose new files count the bytes written
through them: the same bytes on disk, and `tell` is an attribute read. Reading is
Whoosh's own. On the stock path (index.whoosh_ext's guard) files are Whoosh's as they are.
"""

from __future__ import annotations

import io
import pickle
from typing import Any

from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import StructFile

import index.whoosh_ext as guard

__all__ = ["WRITE_BUFFER", "PositionedStorage"]

# Bytes buffered per file being written (Python's default is 8 KB). A segment is written
# through about a dozen files at once.
WRITE_BUFFER = 256 * 1024


class _PositionedFile(StructFile):
    """A `StructFile` being written that tracks its position instead of asking the OS."""

    def __init__(self, fileobj: Any, name: str | None = None, onclose: Any = None) -> None:
        super().__init__(fileobj, name=name, onclose=onclose)
        # `write_array` writes a real file with `array.tofile`, past `write`: through
        # `write`, every byte is counted.
        self.is_real = False
        self._position: int = fileobj.tell()

    def write(self, data: Any) -> int:
        written: int = self.file.write(data)
        self._position += written
        return written

    def write_pickle(self, obj: Any, protocol: int = -1) -> None:
        # Whoosh's own pickles straight into the file, past `write`: the same bytes here.
        self.write(pickle.dumps(obj, protocol))

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = 0) -> int:
        self._position = self.file.seek(offset, whence)
        return self._position


class PositionedStorage(FileStorage):
    """`FileStorage` whose created files track their own position (see the module doc)."""

    def create_file(self, name: str, excl: bool = False, mode: str = "wb", **kwargs: Any) -> Any:
        created = super().create_file(name, excl=excl, mode=mode, **kwargs)
        file = created.file
        # Only a file opened for writing alone: a read through a read-write file would move
        # its position past the count.
        if not guard.fast_paths_enabled() or not isinstance(file, io.BufferedWriter):
            return created
        # Nothing is written yet: the same file behind a larger buffer, so that a flush (a
        # system call, so a GIL release) comes every `WRITE_BUFFER` bytes, not every 8 KB.
        file = type(file)(file.detach(), buffer_size=WRITE_BUFFER)
        return _PositionedFile(file, name=created._name, onclose=created.onclose)
