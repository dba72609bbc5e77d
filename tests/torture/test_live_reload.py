"""Live reload of a watched .bib, as a start would read it (issue 46).

A half-written entry at the end of the file was reported by `paperscope check`, while the
running app's "Load problems" said there were none; deleting one entry of a big file was
reported as every other paper changed, and cost as much as a first build.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from index import open_current_engine, open_engine
from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.store import generations, updates
from tests.tui.app_pilot import WIDE, screen_text, settle
from tests.tui.screens.test_app_reload import BIB, entry, ids, notices, start, wait_for

HALF = "@article{half,\n  title = {A half-written"


async def test_a_half_written_last_entry_is_listed_in_load_problems(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert not app.load_warnings
        with bib.open("a", encoding="utf-8") as handle:
            handle.write(HALF)
        await wait_for(pilot, lambda: bool(app.load_warnings))
        (problem,) = app.load_warnings
        assert problem.line == 15 and "malformed BibTeX entry" in problem.message
        assert any("refs.bib:15: malformed" in n for n in notices(app)), notices(app)
        assert ids(app) == {"alpha", "beta"}  # the papers read before are kept
        await app.run_action("show_load_warnings")
        await settle(pilot)
        # The dialog names the file by its full path: where the line wraps depends on the
        # test's temporary folder, so the box's sides are read as spaces.
        shown = " ".join(screen_text(app).replace("│", " ").split())
        assert "refs.bib:15: malformed BibTeX entry" in shown, shown
        await pilot.press("escape")
        with bib.open("a", encoding="utf-8") as handle:  # the entry is finished
            handle.write("},\n  year = {2022}\n}\n")
        await wait_for(pilot, lambda: "half" in ids(app))
        assert not app.load_warnings


FIVE = "".join(entry(key, f"{key.title()} Engines") for key in ("a1", "b2", "c3", "d4", "e5"))
WITHOUT_C3 = FIVE.replace(entry("c3", "C3 Engines"), "")


async def test_deleting_a_middle_entry_is_one_removed_none_changed(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entries after it move up the file: no changed papers for that, and the index
    update (made for a library of any size here) rewrites none of them."""
    monkeypatch.setattr(generations, "INCREMENTAL_MIN_PAPERS", 1)
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 0.5)
    bib = tmp_path / "refs.bib"
    bib.write_text(FIVE, encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        bib.write_text(WITHOUT_C3, encoding="utf-8")
        await wait_for(pilot, lambda: "c3" not in ids(app))
        assert "refs.bib: +0, -1 papers" in notices(app), notices(app)
        assert app.engine is not None and app.engine.opened.action == "removed 1 paper"
        e5 = app.engine.paper("e5")
        assert e5 is not None and e5.sources[0].line == 22  # moved up from 29


def test_papers_read_from_an_updated_index_are_where_the_file_has_them(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the library (a command on a current index) each paper comes from its stored
    JSON, written before the deletion moved it: its line is the file's now."""
    monkeypatch.setattr(generations, "INCREMENTAL_MIN_PAPERS", 1)
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 0.5)
    bib = tmp_path / "refs.bib"
    bib.write_text(FIVE, encoding="utf-8")
    cache = tmp_path / "cache"
    open_engine(load_library([bib], taxonomy), taxonomy, cache).close()
    bib.write_text(WITHOUT_C3, encoding="utf-8")
    library = load_library([bib], taxonomy)
    updated = open_engine(library, taxonomy, cache)
    assert updated.opened.action == "removed 1 paper"
    updated.close()
    engine = open_current_engine([bib], taxonomy, cache)
    assert engine is not None
    try:
        from_index = engine.papers(["a1", "b2", "d4", "e5"])
    finally:
        engine.close()
    stored = {paper.id: paper.sources for paper in from_index}
    assert stored == {paper.id: paper.sources for paper in library.papers}
    # The records name the same lines (show --json prints them).
    records = {paper.id: [r.source for r in paper.records] for paper in from_index}
    assert records == {paper.id: [r.source for r in paper.records] for paper in library.papers}
    assert records["e5"][0] is not None and records["e5"][0].line == 22
