"""Pilot tests for the user's layer in the app: tags, status, saved searches, notes, files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from index.search.engine import SearchEngine
from tests.tui.app_pilot import (
    WIDE,
    all_notices,
    build,
    facet_node,
    highlighted,
    results,
    screen_text,
    search,
    settle,
    shown,
)
from tui.screens import layer_actions
from tui.services.annotations import Annotations
from tui.services.saved_searches import SavedSearches
from tui.widgets.detail_pane import DetailPane
from tui.widgets.facet_panel import FacetPanel


def data_dir() -> Path:
    return Path(os.environ["PAPERSCOPE_DATA_DIR"])


def counts(app: Any, facet: str) -> dict[str, int]:
    result = app.main_screen.result
    return {c.value: c.count for c in result.facets.get(facet, ())}


def notices(app: Any) -> list[str]:
    return [str(n.message) for n in all_notices(app)]


def detail_text(app: Any) -> str:
    from tests.tui.app_pilot import plain
    from tui.widgets.detail_pane import detail_body

    detail = app.main_screen.query_one(DetailPane).detail
    assert detail is not None
    return " ".join(plain(detail_body(detail, lambda facet, value: value), 400).split())


async def test_tagging_the_highlighted_paper_with_completion(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "dynapipe")
        await pilot.press("enter")  # to the results
        await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*"toread +gpu-work", "enter")
        await settle(pilot)
        assert notices(app)[-1] == "Tags on the paper: +toread +gpu-work"
        paper = results(app).highlighted
        assert paper is not None and paper.id == "dynapipe"
        stored = Annotations(data_dir() / "annotations.json")
        assert stored.tags_of(paper) == ("toread", "gpu-work")
        assert counts(app, "tag") == {"toread": 1, "gpu-work": 1}
        assert "tags: toread, gpu-work" in detail_text(app)
        # The query field finds it, and completion offers the tag in use.
        await pilot.press("slash", *" tag:toread")
        await settle(pilot)
        assert [h.paper.id for h in results(app).hits] == ["dynapipe"]
        app.main_screen.action_focus_results()
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("-", "g")
        await settle(pilot)  # the suggestion is looked up in a worker
        await pilot.press("right", "enter")  # right accepts the suggestion
        await settle(pilot)
        assert Annotations(data_dir() / "annotations.json").tags_of(paper) == ("toread",)


async def test_the_status_picker_sets_a_status_that_is_a_facet(engine: SearchEngine) -> None:
    from tui.screens.library_dialogs import StatusPicker

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "slapo")
        await pilot.press("enter")
        await settle(pilot)
        assert "status" not in shown(app).facets  # nobody set one yet
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, StatusPicker)
        assert "Now: unread" in screen_text(app)
        await pilot.press("2")  # to-read, by its number
        await settle(pilot)
        assert not isinstance(app.screen, StatusPicker)
        assert counts(app, "status")["to-read"] == 1
        assert notices(app)[-1] == "The paper: to-read"
        # The cursor starts on the current status; j and enter pick the next one.
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("j", "j", "enter")
        await settle(pilot)
        assert counts(app, "status")["read"] == 1
        paper = highlighted(app)
        assert Annotations(data_dir() / "annotations.json").status_of(paper) == "read"
        assert "status: read" in detail_text(app)
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("4")  # read again: the notice says nothing changed
        await settle(pilot)
        assert notices(app)[-1] == "The paper: read (no change)"


async def test_the_status_picker_clears_or_cancels_on_marked_papers(engine: SearchEngine) -> None:
    from tui.screens.library_dialogs import StatusPicker

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "training")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("m", "j", "m")
        await settle(pilot)
        marked = app.papers.by_id(app.marks.ids)
        await pilot.press("R", "3")  # reading, on both marked papers
        await settle(pilot)
        stored = Annotations(data_dir() / "annotations.json")
        assert [stored.status_of(p) for p in marked] == ["reading", "reading"]
        assert notices(app)[-1] == "2 marked papers: reading"
        await pilot.press("R")
        await pilot.pause()
        assert "Reading status for 2 marked papers" in screen_text(app)
        await pilot.press("escape")  # changes nothing
        await pilot.pause()
        assert not isinstance(app.screen, StatusPicker)
        stored = Annotations(data_dir() / "annotations.json")
        assert [stored.status_of(p) for p in marked] == ["reading", "reading"]
        await pilot.press("R", "c")
        await settle(pilot)
        stored = Annotations(data_dir() / "annotations.json")
        assert [stored.status_of(p) for p in marked] == ["unread", "unread"]
        assert notices(app)[-1] == "2 marked papers: no status (counts as unread)"
        assert "status" not in shown(app).facets  # no status is set any more


async def test_marked_papers_are_tagged_together(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "training")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("m", "j", "m")
        await settle(pilot)
        marked = list(app.marks.ids)
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*"batch", "enter")
        await settle(pilot)
        layer = Annotations(data_dir() / "annotations.json").layer(app.papers.by_id(marked))
        assert layer["tag"] == {"batch": frozenset(marked)}


async def test_save_recall_by_number_and_from_the_saved_section(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "cache")
        await pilot.press("enter")
        await settle(pilot)
        cache_total = shown(app).total
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("ctrl+u", *"kv", "enter")
        await settle(pilot)
        assert SavedSearches(data_dir() / "saved_searches.json").names == ("kv",)
        panel = app.main_screen.query_one(FacetPanel)
        node = facet_node(panel, "saved", "kv")
        assert app.main_screen.with_saved({})["saved"][0].count == cache_total
        # Another query, then `1` brings the saved one back.
        await pilot.press("slash", "ctrl+u", *"pipeline")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert app.main_screen.request.query == "cache"
        assert shown(app).total == cache_total
        # And from the facet panel's Saved section.
        await pilot.press("slash", "ctrl+u", *"gpu", "enter")
        await settle(pilot)
        panel.focus()
        panel.cursor_line = facet_node(panel, "saved", "kv").line
        await pilot.press("enter")
        await settle(pilot)
        assert app.main_screen.request.query == "cache"
        assert node is not None


async def test_saved_searches_rename_and_delete_in_the_dialog(engine: SearchEngine) -> None:
    store = SavedSearches(data_dir() / "saved_searches.json")
    from index.models import SearchRequest

    store.save("first", SearchRequest("cache"))
    store.save("second", SearchRequest("gpu"))
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        # the app starts on the results (/ types): the keys below reach them
        await pilot.press("W")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("ctrl+u", *"renamed", "enter")
        await settle(pilot)
        assert SavedSearches(data_dir() / "saved_searches.json").names == ("renamed", "second")
        await pilot.press("W")
        await pilot.pause()
        await pilot.press("j", "j", "k", "d")  # j/k move as in every list: to the second
        await settle(pilot)
        assert SavedSearches(data_dir() / "saved_searches.json").names == ("renamed",)


async def test_note_opens_in_the_editor_and_is_searchable(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[list[str]] = []

    def fake_editor(app: Any, command: list[str], path: Path) -> None:
        ran.append([*command, str(path)])
        path.write_text("# note\n\nZebrafish experiments to redo.\n", encoding="utf-8")

    monkeypatch.setenv("VISUAL", "myeditor --wait")
    monkeypatch.setattr(layer_actions, "launch_editor", fake_editor)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "dynapipe")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        note = data_dir() / "notes" / "dynapipe.md"
        assert ran == [["myeditor", "--wait", str(note)]]
        assert "Zebrafish experiments" in detail_text(app)
        await pilot.press("slash", "ctrl+u", *"zebrafish")
        await settle(pilot)
        assert [h.paper.id for h in results(app).hits] == ["dynapipe"]
        await pilot.press("ctrl+u", *"note:zebrafish")
        await settle(pilot)
        assert [h.paper.id for h in results(app).hits] == ["dynapipe"]


async def test_opening_a_file_says_what_happened(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clipboard: list[str]
) -> None:
    from index.models import Library, Paper

    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    library = Library(
        papers=(
            Paper(
                id="with-file",
                title="Attached paper",
                abstract="words",
                attachments=(str(pdf), str(tmp_path / "gone.pdf")),
            ),
        )
    )
    from tui.app import make_app
    from tui.services.config import AppSettings

    monkeypatch.setattr(layer_actions, "system_opener", lambda: None)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=engine.taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)  # the app starts on the results, the paper in the side pane
        assert "(missing)" in detail_text(app) and str(pdf) in detail_text(app)
        await pilot.press("O")
        await settle(pilot)
        assert clipboard[-1] == str(pdf)
        notices = [n.message for n in all_notices(app)]
        assert any("No program here opens files" in m and str(pdf) in m for m in notices)


async def test_the_detail_lists_the_files_of_a_ris_record(
    engine: SearchEngine, tmp_path: Path
) -> None:
    from index.library.load import load_library
    from tui.app import make_app
    from tui.services.config import AppSettings

    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "a.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "export.ris").write_text(
        "TY  - JOUR\nTI  - Attached paper\nAU  - Doe, Jane\nPY  - 2021\n"
        "AB  - An abstract long enough to be one.\n"
        "L1  - files/a.pdf\nL4  - file:///nowhere/fig.png\nER  - \n"
    )
    library = load_library([tmp_path / "export.ris"], engine.taxonomy)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=engine.taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        text = detail_text(app)
        assert f"{tmp_path}/files/a.pdf" in text and "/nowhere/fig.png (missing)" in text
        assert f"{tmp_path}/files/a.pdf (missing)" not in text


async def test_the_palette_offers_each_status_by_name(engine: SearchEngine) -> None:
    from tui.commands import COMMANDS, _available

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "slapo")
        app.main_screen.action_focus_results()
        names = [name for name, _, action in COMMANDS if _available(app, app.main_screen, action)]
        assert {"Tags", "Status: reading", "Save search", "Note", "Open file"} <= set(names)
        await app.main_screen.run_action("set_reading_status('reading')")
        await settle(pilot)
        paper = highlighted(app)
        assert Annotations(data_dir() / "annotations.json").status_of(paper) == "reading"


async def test_a_note_written_outside_the_app_is_shown_and_found(engine: SearchEngine) -> None:
    import time as clock

    app = build(engine)
    app.watch_interval = 0.1
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "slapo")
        await pilot.press("enter")
        await settle(pilot)
        notes = data_dir() / "notes"
        notes.mkdir(parents=True, exist_ok=True)
        (notes / "slapo.md").write_text("Compare with the wombat scheduler.\n", encoding="utf-8")
        deadline = clock.monotonic() + 10
        while "wombat" not in detail_text(app):
            assert clock.monotonic() < deadline, "the note was not picked up"
            await pilot.pause(0.1)
            await settle(pilot)
        await pilot.press("slash", "ctrl+u", *"wombat")
        await settle(pilot)
        assert [h.paper.id for h in results(app).hits] == ["slapo"]


async def test_tags_and_status_from_the_full_screen_detail(engine: SearchEngine) -> None:
    from tui.screens.detail import DetailScreen
    from tui.screens.library_dialogs import StatusPicker

    app = build(engine)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await search(pilot, "dynapipe")
        await pilot.press("enter", "enter")  # the results, then the paper full screen
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*"Later", "enter")  # kept as "later"
        await settle(pilot)
        assert notices(app)[-1] == "Tags on the paper: +later"
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, StatusPicker)
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        paper = app.screen.current_paper
        assert paper is not None and paper.id == "dynapipe"
        stored = Annotations(data_dir() / "annotations.json")
        assert stored.tags_of(paper) == ("later",) and stored.status_of(paper) == "read"
        assert notices(app)[-1] == "The paper: read"
        from tests.tui.app_pilot import plain
        from tui.widgets.detail_pane import detail_body

        shown = app.screen.query_one(DetailPane).detail  # the detail on show has the new tag
        assert shown is not None
        text = " ".join(plain(detail_body(shown, lambda facet, value: value), 400).split())
        assert "tags: later" in text and "status: read" in text
