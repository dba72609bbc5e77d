"""Pilot test of a first start's rows at once: the records as read, before the index.

The load is held at dedupe (after the files are read): the app already shows the first
page from the records (index.library.first_rows), the status saying what is not ready,
and answers a typed search from them, labelled; when the index is ready it takes over
and the highlighted paper stays highlighted.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import index
from index.library.first_rows import PLAIN_NOTICE
from tests.tui.app_pilot import WIDE, highlighted, results, settle, shown
from tests.tui.screens.test_app_edges import status
from tests.tui.screens.test_app_preview import _arxiv_records, held_dedupe, until
from tui.app import make_app
from tui.services.config import AppSettings
from tui.widgets.detail_pane import DetailPane
from tui.widgets.facet_panel import FacetPanel


async def test_the_first_page_shows_from_the_files_as_read_and_the_index_takes_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "library"
    _arxiv_records(corpus, 12)  # 12 arXiv records and one of them again in a .bib
    merging, release = held_dedupe(monkeypatch)
    app = make_app(AppSettings.from_environment(), corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: app.main_screen.result is not None)
        assert merging.is_set() and app.engine is None and app.library is None
        assert shown(app).total == 13 and len(results(app)._hits) == 13  # nothing merged yet
        assert status(app).startswith("Merging duplicates · so far 13 of 13 papers")
        assert not app.main_screen.query_one(FacetPanel)._facets  # no counts: not tagged
        # The pane reads the highlighted record, its citation once the library is read.
        pane = app.main_screen.query_one(DetailPane)
        await until(pilot, lambda: pane.detail is not None)
        assert pane.detail is not None and pane.detail.paper.id == highlighted(app).id
        assert "once the library is read" in pane.detail.citation
        assert not pane.detail.tagged  # "Topics: once the library is tagged", not "none"
        # A search meanwhile: plain words over every record, and said so.
        await pilot.press("slash", *"charlie", "enter")
        await until(pilot, lambda: shown(app).request.query == "charlie")
        assert {hit.paper.id for hit in shown(app).hits} == {"2401.00003", "writer2024kernel"}
        assert shown(app).notice == PLAIN_NOTICE
        await pilot.press("slash", "ctrl+u", "enter")
        await until(pilot, lambda: shown(app).request.query == "")
        await pilot.press("down", "down")
        chosen = highlighted(app).id
        release.set()
        await until(pilot, app.index_finished.is_set)
        await settle(pilot)
        assert app.engine is not None and not app.main_screen._records
        assert shown(app).total == 12 and shown(app).notice is None  # merged, indexed
        assert not status(app).startswith("Merging")
        assert highlighted(app).id == chosen  # the cursor stayed on the same paper
        assert app.main_screen.query_one(FacetPanel)._facets  # the counts are there now


async def test_the_merged_library_is_shown_while_its_index_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "library"
    _arxiv_records(corpus, 12)
    building, release = threading.Event(), threading.Event()
    real_open = index.open_engine

    def held_build(*args: Any, **kwargs: Any) -> Any:
        building.set()
        assert release.wait(30), "the test never let the build run"
        return real_open(*args, **kwargs)

    monkeypatch.setattr(index, "open_engine", held_build)
    app = make_app(AppSettings.from_environment(), corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: building.is_set() and app.library is not None)
        await until(pilot, lambda: app.main_screen.result is not None)
        await until(pilot, lambda: shown(app).total == 12)  # merged: the twin is one paper
        assert app.engine is None and app.library is not None
        ids = {paper.id for paper in app.library.papers}
        assert {hit.paper.id for hit in shown(app).hits} == ids  # the final ids
        await pilot.press("down")
        chosen = highlighted(app).id
        release.set()
        await until(pilot, app.index_finished.is_set)
        await settle(pilot)
        assert app.engine is not None and highlighted(app).id == chosen
