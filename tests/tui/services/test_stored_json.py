"""The user's files shared by several writers: each change merged into the file as it is now,
another writer's changes seen on refresh, newer formats and deep nesting left alone."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import threading
from pathlib import Path

import pytest

from index.models import Paper, SearchRequest
from tui.services.annotations import Annotations
from tui.services.saved_searches import SavedSearches, request_from_dict
from tui.services.user_data import Marks, QueryHistory

A = Paper(id="a", title="Pipelines Revisited", year=2021, citation_key="a21")
B = Paper(id="b", title="Schedulers Revisited", year=2022, citation_key="b22")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_two_sessions_tagging_keep_both_tags_and_see_each_other(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    first, second = Annotations(path), Annotations(path)  # both read the file before either writes
    assert first.change_tags([A], add=["mine"])
    assert second.change_tags([B], add=["theirs"])
    assert second.set_status([A], "reading")
    assert first.change_tags([A], add=["more"], remove=["absent"])
    stored = Annotations(path)
    assert stored.tags_of(A) == ("mine", "more") and stored.tags_of(B) == ("theirs",)
    assert stored.status_of(A) == "reading"
    # A save takes in what others wrote; a refresh does so without a save of one's own.
    assert first.tags_of(B) == ("theirs",) and first.status_of(A) == "reading"
    second.change_tags([B], add=["late"])
    assert first.tags_of(B) == ("theirs",)
    assert first.refresh() is True
    assert first.tags_of(B) == ("theirs", "late")
    assert first.refresh() is False  # nothing changed since


def test_a_sessions_own_write_is_no_change_to_refresh(tmp_path: Path) -> None:
    marks = Marks(tmp_path / "marks.json")
    marks.toggle("a")
    assert marks.refresh() is False


def test_saved_searches_marks_and_history_merge_per_item(tmp_path: Path) -> None:
    one, two = SavedSearches(tmp_path / "s.json"), SavedSearches(tmp_path / "s.json")
    one.save("first", SearchRequest(query="pipelines"))
    two.save("second", SearchRequest(query="schedulers"))
    one.rename("first", "renamed")
    assert SavedSearches(tmp_path / "s.json").names == ("renamed", "second")
    two.refresh()
    two.delete("renamed")
    assert SavedSearches(tmp_path / "s.json").names == ("second",)

    left, right = Marks(tmp_path / "m.json"), Marks(tmp_path / "m.json")
    left.toggle("a")
    right.toggle("b")
    right.toggle("b")  # unmarked again: an unmark, not a flip of what the file holds
    right.toggle("c")
    assert Marks(tmp_path / "m.json").ids == ("a", "c")
    left.clear()  # the marks this session showed: "c" came from elsewhere, unseen
    assert Marks(tmp_path / "m.json").ids == ("c",)

    old, new = QueryHistory(tmp_path / "h.json"), QueryHistory(tmp_path / "h.json")
    old.add("x")
    new.add("y")
    old.add("x")
    assert QueryHistory(tmp_path / "h.json").entries == ("y", "x")


def test_many_threads_each_with_its_own_copy_lose_nothing(tmp_path: Path) -> None:
    """Every writer read the file before any wrote: only a merge under a lock keeps all."""
    path = tmp_path / "annotations.json"
    stores = [Annotations(path) for _ in range(8)]
    start = threading.Barrier(len(stores))

    def tag(number: int) -> None:
        start.wait()
        assert stores[number].change_tags([A], add=[f"t{number}"])

    threads = [threading.Thread(target=tag, args=(n,)) for n in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(Annotations(path).tags_of(A)) == [f"t{n}" for n in range(8)]


def test_unknown_keys_of_the_same_version_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    record = {"ids": ["key:a21"], "tags": ["old"], "colour": "red"}
    path.write_text(json.dumps({"version": 1, "papers": [record], "sync": {"at": 5}}))
    Annotations(path).change_tags([A], add=["new"])
    data = json.loads(path.read_text())
    assert data["sync"] == {"at": 5} and data["version"] == 1
    assert data["papers"][0]["colour"] == "red" and data["papers"][0]["tags"] == ["old", "new"]

    saved = tmp_path / "saved_searches.json"
    entry = {"name": "n", "request": {"query": "q"}, "pinned": True}
    saved.write_text(json.dumps({"version": 1, "searches": [entry], "extra": [1]}))
    SavedSearches(saved).save("n", SearchRequest(query="other"))
    data = json.loads(saved.read_text())
    assert data["extra"] == [1] and data["searches"][0]["pinned"] is True
    assert data["searches"][0]["request"]["query"] == "other"


def test_a_file_of_a_newer_version_is_shown_but_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "annotations.json"
    path.write_text(json.dumps({"version": 2, "papers": [{"ids": ["key:a21"], "tags": ["x"]}]}))
    before = digest(path)
    store = Annotations(path)
    assert store.tags_of(A) == ("x",)  # the shape this code knows: shown
    assert store.warning is not None and "newer paperscope (format version 2)" in store.warning
    assert store.change_tags([A], add=["y"]) is False
    assert store.save_error is not None and "format version 2" in store.save_error
    assert store.tags_of(A) == ("x", "y")  # kept for the session
    assert digest(path) == before
    # A newer file this code cannot read at all: said so, and never written either.
    path.write_text(json.dumps({"version": 3, "papers": {"by": "doi"}}))
    store = Annotations(path)
    assert store.warning is not None and "format version 3" in store.warning


def test_a_failed_save_stays_pending_and_survives_a_refresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "marks.json"
    mine, other = Marks(path), Marks(path)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tui.services.stored_json.write_text_atomic", full)
    assert mine.toggle("a") is True
    assert mine.save_error == "could not save marks: disk full"
    monkeypatch.undo()
    other.toggle("b")
    assert mine.refresh() is True
    assert mine.ids == ("b", "a")  # the other's mark, and this session's unsaved one
    mine.toggle("c")
    assert Marks(path).ids == ("b", "a", "c")


DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        (Annotations, "annotations.json"),
        (SavedSearches, "saved_searches.json"),
        (Marks, "marks.json"),
        (QueryHistory, "history.json"),
    ],
)
def test_a_file_nested_a_thousand_deep_is_one_line_and_never_written(
    tmp_path: Path, kind: type, name: str
) -> None:
    path = tmp_path / name
    path.write_text(DEEP)
    store = kind(path)
    assert (
        store.warning
        == f"{path}: nested too deeply to read (more than about 900 levels); starting empty"
    )
    assert store.refresh() is False  # unchanged since read
    path.write_text('{"papers": [], "x": ' + DEEP + "}")
    store.refresh()
    assert store.warning is not None and "nested too deeply" in store.warning
    before = digest(path)
    if isinstance(store, Annotations):
        store.change_tags([A], add=["x"])
    elif isinstance(store, SavedSearches):
        store.save("x", SearchRequest(query="x"))
    elif isinstance(store, Marks):
        store.toggle("x")
    else:
        store.add("x")
    assert store.save_error is not None and "damaged" in store.save_error
    assert "nested too deeply" in store.save_error and "\n" not in store.save_error
    assert digest(path) == before


def test_a_saved_search_with_nested_values_reads_as_plain_values() -> None:
    deep: object = "x"
    for _ in range(5000):  # built, not parsed: deeper than `str` can print
        deep = [deep]
    request = {
        "query": ["no"],
        "tags": [deep, "kept"],
        "years": [True, 2020],
        "year_range": [[1], 2],
    }
    got = request_from_dict(request)
    assert got.query == "" and got.tags == frozenset({"kept"})
    assert got.years == frozenset({2020}) and got.year_range is None


def test_a_folder_where_no_lock_can_be_made_is_a_notice_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def read_only(path: str, flags: int, *args: int) -> int:
        if str(path).endswith(".lock"):
            raise OSError(errno.EROFS, "Read-only file system", path)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    marks = Marks(tmp_path / "marks.json")
    assert marks.toggle("a") is True and "a" in marks
    assert marks.save_error == f"could not save marks: no permission to write in {tmp_path}"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_in_the_files_place_never_hangs_a_read_and_is_never_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "annotations.json"
    os.mkfifo(path)
    store = Annotations(path)  # would wait for a writer forever with a blocking open
    assert store.warning == f"{path}: not a regular file; starting empty"
    assert store.change_tags([A], add=["x"]) is False
    assert store.save_error is not None and "not a regular file" in store.save_error
    assert store.refresh() is False and store.tags_of(A) == ("x",)
