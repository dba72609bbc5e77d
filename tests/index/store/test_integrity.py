"""A clean checksum check is remembered; any write to a file since means hashing again."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import SearchRequest
from index.store import integrity
from index.store.generations import open_index
from tests.fixtures.search.generate import TAXONOMY, make_library


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The generations whose files were hashed, in order."""
    calls: list[Path] = []
    real = integrity.checksums

    def counted(path: Path) -> dict[str, list[Any]]:
        calls.append(Path(path))
        return real(path)

    monkeypatch.setattr(integrity, "checksums", counted)
    return calls


def test_an_unchanged_generation_is_hashed_once(tmp_path: Path, hashed: list[Path]) -> None:
    library = make_library(30)
    open_index(library, TAXONOMY, tmp_path).index.close()  # built: hashed for current.json
    hashed.clear()
    first = open_index(library, TAXONOMY, tmp_path)
    first.index.close()
    assert hashed == [first.path] and (first.path / integrity.VERIFIED_FILE).is_file()
    again = open_index(library, TAXONOMY, tmp_path)
    again.index.close()
    assert again.action == "up to date" and hashed == [first.path]  # not hashed again


def test_a_file_altered_with_its_mtime_put_back_is_still_found(tmp_path: Path) -> None:
    library = make_library(30)
    opened = open_index(library, TAXONOMY, tmp_path)
    opened.index.close()
    open_index(library, TAXONOMY, tmp_path).index.close()  # verified and remembered
    segment = max(opened.path.glob("*.seg"), key=lambda p: p.stat().st_size)
    before = segment.stat()
    with open(segment, "r+b") as handle:
        handle.seek(before.st_size // 2)
        byte = handle.read(1)
        handle.seek(before.st_size // 2)
        handle.write(bytes([byte[0] ^ 0xFF]))
    os.utime(segment, ns=(before.st_atime_ns, before.st_mtime_ns))  # ctime still moves
    engine = open_engine(library, TAXONOMY, tmp_path)
    assert engine.opened.action == "rebuilt"
    assert engine.search(SearchRequest("")).total == 30
    engine.close()


def test_the_stamp_is_no_part_of_the_checksums(tmp_path: Path) -> None:
    opened = open_index(make_library(20), TAXONOMY, tmp_path)
    opened.index.close()
    (opened.path / integrity.VERIFIED_FILE).write_text("anything", encoding="utf-8")
    assert integrity.VERIFIED_FILE not in integrity.checksums(opened.path)
    assert integrity.damage(opened.path, integrity.checksums(opened.path)) is None
