"""Index files count their own write position: the same bytes, no `lseek` per `tell`.

`index.whoosh_ext.positioned` exists because every system call releases the GIL, and a
build in a thread then waits on any busy thread of the process once per call. What is
tested: the tracked position always equals the file's own, the bytes equal Whoosh's, a
whole build asks the operating system for a position once per file, and the stock path
(another Whoosh) leaves Whoosh's files as they are.
"""

from __future__ import annotations

import io
from array import array
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import whoosh.filedb.filestore as filestore
from whoosh.filedb.filestore import FileStorage

import index.whoosh_ext as guard
from index.whoosh_ext.positioned import PositionedStorage
from tests.index.whoosh_ext.bundled import bundled_answers


def _write_everything(file: Any, check: Callable[[], None]) -> None:
    """Every kind of write Whoosh makes, the position checked after each."""
    steps: list[Callable[[], object]] = [
        lambda: file.write(b"abc"),
        lambda: file.write_int(7),
        lambda: file.write_varint(300),
        lambda: file.write_array(array("i", [1, 2, 3])),
        lambda: file.write_pickle({"offset": 12, "names": ["a", "b"]}),
        lambda: file.write_string(b"segment"),
        lambda: file.write(b"x" * 300_000),  # past the write buffer
        lambda: file.seek(2),
        lambda: file.write(b"Z"),
        lambda: file.seek(0, 2),
        lambda: file.write_long(1 << 40),
    ]
    for step in steps:
        step()
        check()


def test_the_tracked_position_is_the_files_and_the_bytes_are_whooshs(tmp_path: Path) -> None:
    positioned = PositionedStorage(str(tmp_path / "positioned")).create()
    stock = FileStorage(str(tmp_path / "stock")).create()
    mine = positioned.create_file("data")
    theirs = stock.create_file("data")
    assert type(mine).__name__ == "_PositionedFile"

    def same_position() -> None:
        assert mine.tell() == mine.file.tell()  # the buffered file's own, buffer included

    _write_everything(mine, same_position)
    _write_everything(theirs, lambda: None)
    assert mine.tell() == theirs.tell()
    both_ways = positioned.create_file("both", mode="w+b")  # read and written: Whoosh's
    assert type(both_ways).__name__ == "StructFile"
    both_ways.close()
    mine.close()
    theirs.close()
    assert (tmp_path / "positioned" / "data").read_bytes() == (
        tmp_path / "stock" / "data"
    ).read_bytes()


class _CountingWriter(io.BufferedWriter):
    """A file Whoosh writes through, counting how often it is asked for its position."""

    asked = 0
    files = 0

    def tell(self) -> int:
        _CountingWriter.asked += 1
        return super().tell()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_CountingWriter]]:
    """Whoosh's storage opens the files it writes as `_CountingWriter`s."""

    def counting_open(path: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "wb":
            _CountingWriter.files += 1
            return _CountingWriter(io.FileIO(path, "w"))
        return open(path, mode, *args, **kwargs)

    _CountingWriter.asked = _CountingWriter.files = 0
    monkeypatch.setattr(filestore, "open", counting_open, raising=False)
    yield _CountingWriter


QUERIES = ("memory", "gpu kernel", "quantiz")


def test_a_build_asks_the_system_for_a_position_once_per_file(
    tmp_path: Path, counted: type[_CountingWriter], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = bundled_answers(tmp_path / "fast", QUERIES)
    assert counted.files > 5
    assert counted.asked <= counted.files  # once, when the file is wrapped

    counted.asked = counted.files = 0
    monkeypatch.setattr(guard, "FAST_PATHS", False)
    stock = bundled_answers(tmp_path / "stock", QUERIES)
    assert counted.asked > 20 * counted.files  # Whoosh's own files ask at every block
    assert stock == fast
    assert all(total > 0 for total, _ in fast)
