"""Pilot tests of the app on a current index opened without its library (tui.cli.run_app).

What the app would take from the loaded papers it takes from the index: the papers from
stored fields, the user's tags through the saved paper keys, the citation keys from the
saved base keys, the load problems from the manifest. By keys, as a user would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index import open_current_engine
from index.facets.taxonomy import Taxonomy
from tests.index.search.test_stored_papers import saved_key_reads
from tests.tui.app_pilot import WIDE, all_notices, search, settle, shown
from tests.tui.cli.test_run_app import RECORDS, write_corpus
from tests.tui.screens.test_app_reload import wait_for
from tui.app import PaperscopeApp, make_app
from tui.cli import main
from tui.services.config import AppSettings
from tui.services.papers import PaperData


def light_app(corpus: Path, taxonomy: Taxonomy) -> PaperscopeApp:
    """The app as `paperscope --corpus CORPUS` starts it on a current index."""
    assert main(["--corpus", str(corpus), "index"]) == 0
    settings = AppSettings.from_environment()
    engine = open_current_engine([corpus], taxonomy, settings.cache_dir)
    assert engine is not None, "the index just built is not current"
    app = make_app(settings, engine=engine, owns_engine=True, corpus=[corpus])
    app.watch_interval = 0.1
    return app


def notices(app: PaperscopeApp) -> list[str]:
    return [str(n.message) for n in all_notices(app)]


async def test_tags_keys_and_problems_work_without_the_library(
    tmp_path: Path, taxonomy: Taxonomy, clipboard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = light_app(write_corpus(tmp_path / "papers"), taxonomy)
    # Nothing here may decode every paper (at 100,000 papers: seconds and the memory saved).
    monkeypatch.setattr(PaperData, "_all_papers", lambda self: pytest.fail("papers decoded"))
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.library is None and shown(app).total == 3
        assert '1 problem in your files: ctrl+p, "Load problems" lists them' in notices(app)
        await search(pilot, "cache hierarchies")
        assert [hit.paper.id for hit in shown(app).hits] == ["2401.00002"]
        await pilot.press("enter")  # to the results
        await pilot.press("y")  # its citation key, unique in the whole library
        await settle(pilot)
        assert clipboard[-1] == "quill2024zymurgyb"
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*"toread", "enter")
        await settle(pilot)
        await pilot.press("slash", "ctrl+u", *"tag:toread")
        await settle(pilot)
        assert [hit.paper.id for hit in shown(app).hits] == ["2401.00002"]


async def test_a_changed_file_is_reloaded_and_described(tmp_path: Path, taxonomy: Taxonomy) -> None:
    corpus = write_corpus(tmp_path / "papers")
    app = light_app(corpus, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        record = {**RECORDS[0], "id": "2401.00003", "title": "Zest for Kernels"}
        with (corpus / "arxiv.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        await wait_for(pilot, lambda: app.library is not None)
        assert shown(app).total == 4
        assert "arxiv.jsonl: +1, -0 papers" in notices(app)


async def test_a_start_without_tags_or_notes_reads_no_saved_keys(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's layer needs no saved keys when the user has no tags or notes yet.

    (The detail's citation still reads them, in its worker, for the citation keys: left
    out here so that only the layer could read them.)
    """
    reads = saved_key_reads(monkeypatch)
    monkeypatch.setattr(PaperData, "_library_keys", lambda self: {})
    app = light_app(write_corpus(tmp_path / "papers"), taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "zymurgy")
        assert shown(app).total == 2
        assert reads == []
