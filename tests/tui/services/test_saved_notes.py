"""Saved searches and notes as files: atomic, damaged files kept, names safe."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.models import Paper, SearchRequest
from tui.services.notes import (
    create_note,
    editor_command,
    fingerprint,
    note_name,
    read_notes,
)
from tui.services.saved_searches import SavedSearches


def test_saved_searches_roundtrip_rename_delete(tmp_path: Path) -> None:
    path = tmp_path / "saved_searches.json"
    store = SavedSearches(path)
    request = SearchRequest(
        "kv cache",
        topics=frozenset({"inference"}),
        tags=frozenset({"x"}),
        year_range=(2020, None),
        sort="year",
        limit=7,
        as_you_type=True,
    )
    assert store.save("Cache work", request)
    again = SavedSearches(path)
    loaded = again.get("cache WORK")
    assert loaded == SearchRequest(
        "kv cache",
        topics=frozenset({"inference"}),
        tags=frozenset({"x"}),
        year_range=(2020, None),
        sort="year",
    )
    again.save("other", SearchRequest("gpu"))
    with pytest.raises(ValueError, match="exists"):
        again.rename("other", "cache work")
    again.rename("Cache work", "kv")
    again.delete("other")
    assert SavedSearches(path).names == ("kv",)
    with pytest.raises(KeyError):
        again.delete("nope")


def test_damaged_saved_searches_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "saved_searches.json"
    path.write_text("{oops", encoding="utf-8")
    store = SavedSearches(path)
    assert store.warning and str(path) in store.warning
    assert store.save("x", SearchRequest("a")) is False
    assert store.get("x") == SearchRequest("a")
    assert path.read_text(encoding="utf-8") == "{oops"


def test_notes_are_named_by_citation_key_and_read(tmp_path: Path) -> None:
    keyed = Paper(id="smith2021", title="A  Title", citation_key="Smith:2021/x")
    plain = Paper(id="p2", title="Other")
    assert note_name(keyed) == "Smith_2021_x.md" and note_name(plain) == "p2.md"
    notes = tmp_path / "notes"
    path = create_note(notes, keyed)
    assert path.read_text(encoding="utf-8") == "# A Title\n\n"
    before = fingerprint(notes)
    path.write_text("# A Title\n\nzebrafish\n", encoding="utf-8")
    assert fingerprint(notes) != before
    assert read_notes(notes, [keyed, plain]) == {"smith2021": "# A Title\n\nzebrafish\n"}
    create_note(notes, keyed)  # an existing note is never replaced
    assert "zebrafish" in path.read_text(encoding="utf-8")


def test_editor_prefers_visual_then_editor_then_fallbacks() -> None:
    assert editor_command({"VISUAL": "code -w", "EDITOR": "vim"}) == ["code", "-w"]
    assert editor_command({"EDITOR": "vim"}) == ["vim"]
    assert editor_command({}, which=lambda name: name == "nano") == ["nano"]
    assert editor_command({}, which=lambda name: False) is None


@pytest.mark.parametrize("sort", ["relevance", "year", "year-asc", "title", "author"])
def test_a_saved_search_keeps_every_sort_order(tmp_path: Path, sort: str) -> None:
    store = SavedSearches(tmp_path / "saved.json")
    store.save("mine", SearchRequest("pipeline", sort=sort))  # type: ignore[arg-type]
    again = SavedSearches(tmp_path / "saved.json").get("mine")
    assert again is not None and again.sort == sort
