"""A clean checksum check is remembered; any write to a file since means hashing again."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import SearchRequest
from index.store import integrity
from index.store.generations import open_index
from tests.fixtures.search.generate import TAXONOMY, make_library
from tests.index.store.test_store import file_library, indexed_for_updates


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The generations whose files were hashed, in order."""
    calls: list[Path] = []
    real = integrity.checksums

    def counted(path: Path, recorded: Any = None) -> dict[str, list[Any]]:
        calls.append(Path(path))
        return real(path, recorded)

    monkeypatch.setattr(integrity, "checksums", counted)
    return calls


def test_a_generation_is_hashed_when_published_and_not_at_each_open(
    tmp_path: Path, hashed: list[Path]
) -> None:
    library = make_library(30)
    built = open_index(library, TAXONOMY, tmp_path)  # hashed for current.json
    built.index.close()
    assert hashed == [built.path] and (built.path / integrity.VERIFIED_FILE).is_file()
    for _ in range(2):
        again = open_index(library, TAXONOMY, tmp_path)
        again.index.close()
        assert again.action == "up to date" and hashed == [built.path]  # not hashed again


def test_a_stale_stamp_means_hashing_once_more(tmp_path: Path, hashed: list[Path]) -> None:
    library = make_library(30)
    built = open_index(library, TAXONOMY, tmp_path)
    built.index.close()
    (built.path / integrity.VERIFIED_FILE).unlink()
    for _ in range(2):
        open_index(library, TAXONOMY, tmp_path).index.close()
    assert hashed == [built.path, built.path]


def test_an_update_in_place_hashes_only_the_files_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cache = indexed_for_updates(tmp_path, monkeypatch)
    folder = next(cache.glob("library-*"))
    before = json.loads((folder / "current.json").read_text(encoding="utf-8"))["checksums"]
    opened: list[Path] = []
    real_open = open

    def spied(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(Path(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(integrity, "open", spied, raising=False)
    changed = file_library(tmp_path, per_file=20, marker="quokkamark")
    Path(changed.files[0]).write_text("edited\n", encoding="utf-8")
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    after = json.loads((folder / "current.json").read_text(encoding="utf-8"))["checksums"]
    hashed = {path.name for path in opened}
    kept = {name for name in before if after.get(name) == before[name]}
    assert kept and hashed and not hashed & kept  # the untouched segment files: not read
    assert hashed == set(after) - kept
    monkeypatch.setattr(integrity, "open", real_open, raising=False)
    assert integrity.checksums(engine.opened.path) == after  # what hashing all would give
    engine.close()
    opened.clear()
    monkeypatch.setattr(integrity, "open", spied, raising=False)
    again = open_engine(changed, TAXONOMY, cache)
    assert again.opened.action == "up to date" and opened == []
    assert again.search(SearchRequest("quokkamark")).total > 0
    again.close()


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
