"""The facet masks the build saves: the engine opens with them, and they equal a fresh scan.

A saved file is used only when it was computed from exactly the open index (its segments
and their live documents); anything else (missing, stale after an update, damaged) means
the masks are computed from the index as before, with the same answers.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import SearchRequest
from index.search import bitsets, facet_build, facet_store
from index.search import engine as engine_module
from index.search.bitsets import FacetMasks
from index.search.facet_build import facet_masks
from index.store import generations as store
from index.store import updates
from index.store.generations import open_index
from tests.fixtures.search.generate import TAXONOMY, make_library
from tests.index.store.test_store import file_library

REQUESTS = [
    SearchRequest(""),
    SearchRequest("memory", sort="year"),
    SearchRequest("", sort="title", topics=frozenset({"training"})),
    SearchRequest("m", as_you_type=True, sort="author"),
    SearchRequest("", sort="year-asc", years=frozenset({2021, 2022})),
]


def _answers(engine: engine_module.SearchEngine) -> list[tuple[object, ...]]:
    return [
        (r.total, [h.paper.id for h in r.hits], sorted(r.facets.items()))
        for r in map(engine.search, REQUESTS)
    ]


def _fresh_state(engine: engine_module.SearchEngine) -> dict[str, object]:
    with engine._searcher() as searcher:
        return facet_masks(searcher.reader()).state()


def _cut(saved: dict[str, Any]) -> dict[str, Any]:
    ids = marshal.loads(saved["state"]["ids"])
    saved["state"]["ids"] = marshal.dumps(ids[:-1], 4)
    return saved


def _forbid_scans(monkeypatch: pytest.MonkeyPatch, *, update: bool = False) -> None:
    """No open computes the masks from the whole index (nor, with `update`, an update)."""

    def scan(reader: object) -> FacetMasks:
        raise AssertionError("the facet masks were computed from the whole index")

    monkeypatch.setattr(engine_module, "facet_masks", scan)
    if update:
        monkeypatch.setattr(facet_store, "computed_facets", scan)
        monkeypatch.setattr(facet_build, "computed_facets", scan)


def test_the_build_saves_what_opening_would_compute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = make_library(60)
    engine = open_engine(library, TAXONOMY, tmp_path)
    assert (engine.opened.path / facet_store.FACETS_FILE).is_file()
    assert engine.masks.state() == _fresh_state(engine)
    expected = _answers(engine)
    engine.close()
    with monkeypatch.context() as patched:
        _forbid_scans(patched)
        again = open_engine(library, TAXONOMY, tmp_path)
    assert again.opened.action == "up to date"
    assert _answers(again) == expected
    again.close()


def test_an_in_place_update_saves_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "INCREMENTAL_MIN_PAPERS", 10)
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 0.5)
    cache = tmp_path / "cache"
    open_engine(file_library(tmp_path, per_file=30), TAXONOMY, cache).close()
    changed = file_library(tmp_path, per_file=30, marker="wombatmarker")
    changed = type(changed)(papers=changed.papers[1:], files=changed.files)
    Path(changed.files[0]).write_text("changed\n", encoding="utf-8")
    with monkeypatch.context() as patched:
        _forbid_scans(patched, update=True)
        engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    assert engine.masks.state() == _fresh_state(engine)  # deletions and the new segment
    assert engine.search(SearchRequest("wombatmarker")).total > 0
    engine.close()


@pytest.mark.parametrize("damage", ["missing", "stale", "garbage", "truncated", "wrong shape"])
def test_a_file_that_does_not_fit_is_ignored_and_the_masks_computed(
    damage: str, tmp_path: Path
) -> None:
    library = make_library(40)
    opened = open_index(library, TAXONOMY, tmp_path)
    expected = _answers(engine_module.SearchEngine(opened, library, TAXONOMY))
    saved = opened.path / facet_store.FACETS_FILE
    data = saved.read_bytes()
    other = open_index(make_library(41), TAXONOMY, tmp_path / "other")
    changes: dict[str, Callable[[], object]] = {
        "missing": saved.unlink,
        "stale": lambda: saved.write_bytes((other.path / facet_store.FACETS_FILE).read_bytes()),
        "garbage": lambda: saved.write_bytes(b"\x00garbage"),
        "truncated": lambda: saved.write_bytes(data[: len(data) // 2]),
        # The right key, but a column cut short: never trusted.
        "wrong shape": lambda: saved.write_bytes(marshal.dumps(_cut(marshal.loads(data)), 4)),
    }
    changes[damage]()
    with opened.index.searcher() as searcher:
        assert facet_store.read_facet_masks(opened.path, searcher.reader()) is None
    engine = engine_module.SearchEngine(opened, library, TAXONOMY)
    assert _answers(engine) == expected
    engine.close()
    other.index.close()


def test_a_damaged_file_is_found_by_the_generation_checksums(tmp_path: Path) -> None:
    library = make_library(30)
    opened = open_index(library, TAXONOMY, tmp_path)
    opened.index.close()
    saved = opened.path / facet_store.FACETS_FILE
    data = bytearray(saved.read_bytes())
    data[len(data) // 2] ^= 0xFF
    saved.write_bytes(bytes(data))
    engine = open_engine(library, TAXONOMY, tmp_path)
    assert engine.opened.action == "rebuilt"
    assert engine.search(SearchRequest("")).total == 30
    engine.close()


def test_the_list_columns_are_decoded_on_first_use_and_equal_a_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big library's first page counts facets from the masks, not the columns: they are
    decoded when a narrow search or `preload` first needs them, once."""
    monkeypatch.setattr(bitsets, "EXACT_COUNT_LIMIT", 10)  # 60 papers count as many
    library = make_library(60)
    open_engine(library, TAXONOMY, tmp_path).close()
    decoded: list[int] = []
    decode = FacetMasks._decoded_lists

    def counted(self: FacetMasks) -> bitsets.ListColumns:
        decoded.append(1)
        return decode(self)

    monkeypatch.setattr(FacetMasks, "_decoded_lists", counted)
    engine = open_engine(library, TAXONOMY, tmp_path)
    assert engine.search(SearchRequest("")).total == 60
    assert decoded == []
    engine.preload()
    assert decoded == [1]
    assert engine.masks.lists == _fresh_state(engine)["lists"]
    engine.preload()
    assert engine.search(SearchRequest("memory")).total > 0
    assert decoded == [1]
    engine.close()


def test_the_titles_are_decoded_on_first_use_and_equal_a_scan(tmp_path: Path) -> None:
    """A first page sorted by relevance, year or title needs no titles; the sorts built on
    demand (oldest first, by author) and an update decode them, once."""
    library = make_library(50)
    open_engine(library, TAXONOMY, tmp_path).close()
    engine = open_engine(library, TAXONOMY, tmp_path)
    assert engine.search(SearchRequest("", sort="title")).total == 50
    assert engine.masks._titles is None  # still the saved bytes
    oldest = engine.search(SearchRequest("", sort="year-asc"))
    assert engine.masks._titles == _fresh_state(engine)["titles"]
    assert oldest.total == 50
    engine.close()


def _with_saved_file_changed(
    tmp_path: Path, change: Callable[[dict[str, Any]], None]
) -> tuple[Any, Any, list[tuple[object, ...]]]:
    """An index of 40 papers, its answers, then its saved facet file as `change` leaves it:
    (the opened index, the library, the answers before the change)."""
    library = make_library(40)
    opened = open_index(library, TAXONOMY, tmp_path)
    expected = _answers(engine_module.SearchEngine(opened, library, TAXONOMY))
    saved = opened.path / facet_store.FACETS_FILE
    whole = marshal.loads(saved.read_bytes())
    change(whole)
    saved.write_bytes(marshal.dumps(whole, 4))
    return opened, library, expected


def test_saved_titles_that_do_not_fit_are_read_from_the_index(tmp_path: Path) -> None:
    def one_title_short(whole: dict[str, Any]) -> None:
        titles = marshal.loads(whole["state"]["titles"])
        whole["state"]["titles"] = marshal.dumps(titles[:-1], 4)

    opened, library, expected = _with_saved_file_changed(tmp_path, one_title_short)
    engine = engine_module.SearchEngine(opened, library, TAXONOMY)
    assert _answers(engine) == expected  # the year-asc request reads the titles
    assert engine.masks.titles == _fresh_state(engine)["titles"]
    engine.close()


def test_saved_columns_that_do_not_fit_are_read_from_the_index(tmp_path: Path) -> None:
    def one_author_short(whole: dict[str, Any]) -> None:
        lists = marshal.loads(whole["state"]["lists"])
        lists["author"] = lists["author"][:-1]  # one document short
        whole["state"]["lists"] = marshal.dumps(lists, 4)

    opened, library, expected = _with_saved_file_changed(tmp_path, one_author_short)
    engine = engine_module.SearchEngine(opened, library, TAXONOMY)
    assert isinstance(engine.masks, FacetMasks)
    assert _answers(engine) == expected
    assert len(engine.masks.authors) == 40
    engine.close()


@pytest.mark.parametrize("version", [2, 3, 5, 6])
def test_a_file_of_a_previous_format_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    """Format 2 held the columns and titles inline, format 3 the titles, format 5 the ids,
    venues, years, sort orders and masks: an index built by an earlier release opens
    without computing its masks again."""

    def older(whole: dict[str, Any]) -> None:
        whole["format"] = version
        del whole["counts"]
        if version == 6:
            return
        state = whole["state"]
        for name in ("ids", "venues", "year_of", "order_title", "order_year"):
            state[name] = marshal.loads(state[name])
        state["masks"] = {facet: marshal.loads(part) for facet, part in state["masks"].items()}
        whole["state"]["titles"] = marshal.loads(whole["state"]["titles"])
        if version == 2:
            whole["state"]["lists"] = marshal.loads(whole["state"]["lists"])

    opened, library, expected = _with_saved_file_changed(tmp_path, older)
    with monkeypatch.context() as patched:
        _forbid_scans(patched)
        engine = engine_module.SearchEngine(opened, library, TAXONOMY)
    assert _answers(engine) == expected
    engine.close()


@pytest.mark.parametrize("damage", ["garbage", "other base", "other index"])
def test_changes_that_do_not_fit_are_ignored_and_the_masks_computed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """An update saves its facet changes beside the whole file; changes that are damaged,
    or written for another whole file or another state of the index, are never folded."""
    monkeypatch.setattr(store, "INCREMENTAL_MIN_PAPERS", 10)
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 0.5)
    cache = tmp_path / "cache"
    open_engine(file_library(tmp_path, per_file=30), TAXONOMY, cache).close()
    changed = file_library(tmp_path, per_file=30, marker="wombatmarker")
    Path(changed.files[0]).write_text("changed\n", encoding="utf-8")
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    path = engine.opened.path / facet_store.CHANGES_FILE
    saved = marshal.loads(path.read_bytes())
    assert saved["size"] > saved["base"][0][1]  # the new documents, past the whole file's
    if damage == "garbage":
        path.write_bytes(b"\x00garbage")
    else:
        name = "base" if damage == "other base" else "key"
        saved[name] = [[segment, *counts] for segment, *counts in saved[name][::-1]] + [["x", 1, 1]]
        path.write_bytes(marshal.dumps(saved, 4))
    with engine._searcher() as searcher:
        assert facet_store.read_facet_masks(engine.opened.path, searcher.reader()) is None
    engine.close()
