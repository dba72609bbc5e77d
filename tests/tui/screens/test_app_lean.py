"""Pilot test of a big library's first start: a lean index of every paper answers searches
while the full index is built (index.store.lean), the records as read retire, the status
says the index is being completed, a phrase is answered exactly (no notice), then the
full index takes over and the label goes.

`index.open_engine` is replaced by one that hands the app a real lean engine of the
bundled papers, reports progress, and returns the full engine only when the test lets it:
what a first build of 20,000 papers does over a minute, held still to look at.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import index
from index.facets.taxonomy import Taxonomy
from index.library.first_rows import ReadRecords
from index.library.load import load_library
from index.models import Library
from index.search.engine import SearchEngine
from index.store import lean as lean_store
from tests.tui.app_pilot import WIDE, highlighted, results_text, settle, shown
from tests.tui.screens.test_app_edges import status
from tests.tui.screens.test_app_preview import until
from tui.app import make_app
from tui.messages import RecordsRead
from tui.services.config import AppSettings
from tui.widgets.detail_pane import DetailPane

LABEL = "until the index is complete"


async def test_the_lean_index_serves_every_paper_labelled_until_the_full_one_takes_over(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = load_library(None, taxonomy)
    size = len(library.papers)
    real_open = index.open_engine
    shown_first: list[SearchEngine[Any]] = []
    with monkeypatch.context() as patch:  # a real first start's lean index, built here
        patch.setattr(lean_store, "LEAN_MIN_PAPERS", 10)
        real_open(library, taxonomy, tmp_path / "lean-cache", preview=shown_first.append).close()
    (lean,) = shown_first
    release = threading.Event()

    records = ReadRecords.of_library(library.papers)
    read = threading.Event()

    def slow_first_build(library: Library, taxonomy: Taxonomy, cache_dir: Path, **kw: Any) -> Any:
        app.main_screen.post_message(RecordsRead(records))  # the first rows, as read
        kw["progress"](size // 4, size)  # the lean build, a quarter done
        assert read.wait(30), "the test never looked at the records"
        kw["progress"](size, size)  # the lean index's papers are in
        kw["preview"](lean)
        kw["progress"](size // 2, size)  # the full build, half-way
        assert release.wait(30), "the test never let the build finish"
        return real_open(library, taxonomy, cache_dir)

    monkeypatch.setattr(index, "open_engine", slow_first_build)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        screen = app.main_screen
        # before the lean index: the records as read answer, and say how far the build is
        await until(pilot, lambda: screen.result is not None and screen._records is records)
        quarter = f"Indexing {100 * (size // 4) // size}% · so far"
        await until(pilot, lambda: status(app).startswith(quarter))
        await pilot.press("slash", *"memory cach")
        await until(pilot, lambda: shown(app).request.query == "memory cach")
        as_read = shown(app).total
        assert as_read == records.search(shown(app).request).total  # words as written only
        read.set()
        await until(pilot, lambda: app.previewing and screen._records is None)
        # a plain word being typed: answered by the lean index, every paper, exactly
        request = shown(app).request
        await until(pilot, lambda: shown(app).total == lean.search(request).total)
        assert screen.engine_for(request) is lean and app.papers.records is None
        assert shown(app).total == lean.search(request).total > as_read
        assert LABEL not in status(app)
        half = f"Completing the index {100 * (size // 2) // size}% · {shown(app).total:,} of"
        await until(pilot, lambda: status(app).startswith(half))
        assert "so far" not in status(app)
        # the build process kept every paper for the full build: quitting now leaves it
        # to finish alone (tui.first_start.leave_first_start), nothing handed off again
        assert app.papers_in_writer
        # the detail pane shows the lean engine's paper (the library's own)
        await pilot.press("enter")
        pane = screen.query_one(DetailPane)
        paper = highlighted(app)
        await until(pilot, lambda: pane.detail is not None and pane.detail.paper.id == paper.id)
        assert pane.detail is not None and pane.detail.paper == lean.paper(paper.id)
        await pilot.press("slash", "ctrl+u", *"memory cache ")
        await until(pilot, lambda: shown(app).request.query == "memory cache ")
        await pilot.press("ctrl+u", *"zzqqxx")  # nothing found: no "sample" said
        await until(pilot, lambda: shown(app).request.query == "zzqqxx")
        await until(pilot, lambda: "No paper matches" in results_text(app))
        assert shown(app).total == 0 and "sample" not in results_text(app)
        # a phrase: the full index's papers, nothing to say of it
        await pilot.press("ctrl+u", *'"memory bandwidth" ')
        await until(pilot, lambda: shown(app).request.query == '"memory bandwidth" ')
        assert shown(app).total == lean.search(shown(app).request).total
        assert shown(app).notice is None and "until the index" not in status(app)
        assert status(app).startswith("Completing the index")
        # a typed filter: the facet counts are the lean index's own, exact
        await pilot.press("ctrl+u", *"topic:training ")
        await until(pilot, lambda: shown(app).request.query == "topic:training ")
        lean_facets = shown(app).facets
        assert lean_facets and LABEL not in status(app)
        release.set()
        await until(pilot, lambda: not app.previewing)
        await settle(pilot)
        assert app.engine is not lean and lean in app._retired
        assert not status(app).startswith("Indexing")
        assert app.engine is not None and not app.engine.lean
        assert shown(app).facets == lean_facets  # the same counts from the full index
        await pilot.press("ctrl+u", *"memory pipe")
        await until(pilot, lambda: shown(app).request.query == "memory pipe")
        await settle(pilot)
        assert LABEL not in status(app)
        assert shown(app).total == app.engine.search(shown(app).request).total > 0
