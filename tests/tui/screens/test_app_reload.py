"""Pilot tests for live reload: a source rewritten, replaced atomically, or caught mid-save."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from tests.tui.app_pilot import WIDE, all_notices, results, settle, shown
from tui.app import PaperscopeApp, make_app
from tui.library_host import LibraryReloaded
from tui.services.config import AppSettings


def entry(key: str, title: str) -> str:
    return (
        f"@article{{{key},\n  title = {{{title}}},\n  author = {{Ada Lovelace}},\n"
        f"  year = {{2021}},\n  abstract = {{About {title.lower()} and pipelines.}}\n}}\n\n"
    )


BIB = entry("alpha", "Alpha Engines") + entry("beta", "Beta Machines")


def start(bib: Path, taxonomy: Taxonomy) -> PaperscopeApp:
    settings = AppSettings.from_environment()
    library = load_library([bib], taxonomy, cache_dir=settings.cache_dir / "library")
    app = make_app(settings, library=library, taxonomy=taxonomy, corpus=[bib])
    app.watch_interval = 0.1
    return app


async def wait_for(pilot: Any, condition: Any, seconds: float = 20.0) -> None:
    """Until `condition()` holds (the watcher polls in a thread), or fail."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the change was not picked up in time"
        await pilot.pause(0.1)
    await settle(pilot)


def ids(app: PaperscopeApp) -> set[str]:
    return {paper.id for paper in app.library.papers} if app.library else set()


def notices(app: PaperscopeApp) -> list[str]:
    return [str(n.message) for n in all_notices(app)]


async def test_a_rewritten_file_is_reloaded_and_the_highlight_stays(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        app.main_screen.action_focus_results()
        await pilot.press("j")  # highlight the second paper
        await settle(pilot)
        highlighted = results(app).highlighted
        assert highlighted is not None
        with bib.open("a", encoding="utf-8") as handle:  # edited in place
            handle.write(entry("gamma", "Gamma Rays") + entry("delta", "Delta Wings"))
        await wait_for(pilot, lambda: len(ids(app)) == 4)
        assert app.main_screen.result is not None and app.main_screen.result.total == 4
        now = results(app).highlighted
        assert now is not None and now.id == highlighted.id
        assert "refs.bib: +2, -0 papers" in notices(app)


async def test_an_atomic_replace_is_reloaded(tmp_path: Path, taxonomy: Taxonomy) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        temp = tmp_path / ".refs.bib.tmp"
        temp.write_text(
            entry("alpha", "Alpha Engines") + entry("eps", "Epsilon Nets"), encoding="utf-8"
        )
        os.replace(temp, bib)  # what Better BibTeX and most editors do
        await wait_for(pilot, lambda: "eps" in ids(app))
        assert ids(app) == {"alpha", "eps"}
        assert "refs.bib: +1, -1 papers" in notices(app)
        assert {h.paper.id for h in results(app).hits} == {"alpha", "eps"}


async def test_a_broken_mid_save_keeps_the_previous_papers(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        full = BIB + entry("gamma", "Gamma Rays")
        bib.write_text(full[: len(BIB) + 30], encoding="utf-8")  # cut off mid-entry
        await wait_for(
            pilot, lambda: any("keeping the papers read before" in n for n in notices(app))
        )
        assert ids(app) == {"alpha", "beta"}
        assert app.main_screen.result is not None and app.main_screen.result.total == 2
        bib.write_text(full, encoding="utf-8")  # the save completes
        await wait_for(pilot, lambda: "gamma" in ids(app))
        assert ids(app) == {"alpha", "beta", "gamma"}
        assert "refs.bib: +1, -0 papers" in notices(app)


async def test_a_note_edited_outside_is_picked_up(tmp_path: Path, taxonomy: Taxonomy) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        notes = Path(os.environ["PAPERSCOPE_DATA_DIR"]) / "notes"
        notes.mkdir(parents=True, exist_ok=True)
        (notes / "beta.md").write_text("okapi sightings\n", encoding="utf-8")
        engine = app.engine
        assert engine is not None
        from index.models import SearchRequest

        await wait_for(pilot, lambda: engine.search(SearchRequest("okapi")).total == 1)


async def test_a_zotero_item_added_in_the_write_ahead_log_is_picked_up(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    from tests.fixtures.zotero import ZoteroFixture

    zotero = ZoteroFixture(tmp_path / "Zotero", wal=True)
    zotero.item(
        "journalArticle",
        {"title": "First Zotero Paper", "date": "2020", "abstractNote": "About ferrets."},
        tags=["mammals"],
    )
    app = start(tmp_path / "Zotero", taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert len(ids(app)) == 1
        # Zotero writes while it runs: the new item sits in the -wal file.
        zotero.item(
            "journalArticle",
            {"title": "Second Zotero Paper", "date": "2021", "abstractNote": "About otters."},
            tags=["mammals"],
        )
        await wait_for(pilot, lambda: len(ids(app)) == 2)
        assert any(n.startswith("zotero.sqlite: +1, -0 papers") for n in notices(app))
        assert {c.value: c.count for c in shown(app).facets["keyword"]} == {"mammals": 2}
    zotero.close()


async def test_an_old_problem_moved_by_an_edit_does_not_block_the_reload(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    bib = tmp_path / "refs.bib"
    broken = "@article{bad,\n  title = {Never closed\n\n"
    bib.write_text(BIB + broken, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.library is not None and app.library.warnings  # the user's old problem
        bib.write_text(entry("gamma", "Gamma Rays") + BIB + broken, encoding="utf-8")
        await wait_for(pilot, lambda: "gamma" in ids(app))


async def test_a_reload_landing_as_the_app_quits_is_closed_not_served(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    # CI once failed with NoMatches('#index-progress') from a reload handled during exit.
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        served, library = app.engine, app.library
    assert library is not None
    closed: list[bool] = []

    class Reloaded:
        def close(self) -> None:
            closed.append(True)

    app.on_library_reloaded(LibraryReloaded(Reloaded(), library, ["refs.bib: +1, -0 papers"]))
    assert closed == [True] and app.engine is served
