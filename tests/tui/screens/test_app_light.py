"""Pilot tests of the app on an index opened without its library (tui.cli.run_app): a
current one, and one outdated by edits to its files, whose papers are shown as they were
while the edited files are read again.

What the app would take from the loaded papers it takes from the index: the papers from
stored fields, the user's tags through the saved paper keys, the citation keys from the
saved base keys, the load problems from the manifest. By keys, as a user would.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from index import open_current_engine, open_engine, open_outdated_engine
from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.models import SearchRequest
from index.search.engine import SearchEngine
from tests.index.search.test_stored_papers import saved_key_reads
from tests.tui.app_pilot import WIDE, all_notices, screen_text, search, settle, shown
from tests.tui.cli.test_run_app import RECORDS, write_corpus
from tests.tui.screens.test_app_reload import wait_for
from tui.app import PaperscopeApp, make_app
from tui.cli import main
from tui.library_host import LibraryHost
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


def outdated_app(corpus: Path, taxonomy: Taxonomy) -> PaperscopeApp:
    """The app as `paperscope --corpus CORPUS` starts it after an edit to one of its files
    (tui.cli.run_app): on the index as last built, the changed files read in the app."""
    settings = AppSettings.from_environment()
    found = open_outdated_engine([corpus], taxonomy, settings.cache_dir)
    assert found is not None, "the edit did not leave the index outdated"
    engine, changed = found
    app = make_app(settings, engine=engine, owns_engine=True, corpus=[corpus], outdated=changed)
    app.watch_interval = 60.0  # only the start's own update may read the files
    return app


def gate_reloads(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Reloads wait until the returned event is set, so a test sees the state meanwhile."""
    gate = threading.Event()
    reload = LibraryHost._reload

    def gated(self: LibraryHost, *args: Any, **kwargs: Any) -> Any:
        assert gate.wait(20), "the test never let the reload go on"
        return reload(self, *args, **kwargs)

    monkeypatch.setattr(LibraryHost, "_reload", gated)
    return gate


def ranked(engine: SearchEngine, query: str) -> list[str]:
    return [hit.paper.id for hit in engine.search(SearchRequest(query=query, limit=50)).hits]


async def test_an_edited_file_shows_the_papers_as_they_were_then_reads_it(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = write_corpus(tmp_path / "papers")
    assert main(["--corpus", str(corpus), "index"]) == 0
    # One paper added, one removed, one edited.
    added = {**RECORDS[0], "id": "2401.00003", "title": "Zest for Kernels"}
    edited = {**RECORDS[0], "title": "Zymurgy of Sparse Kernels, Revised"}
    lines = "".join(json.dumps(record) + "\n" for record in (edited, added))
    (corpus / "arxiv.jsonl").write_text(lines, encoding="utf-8")
    gate = gate_reloads(monkeypatch)
    app = outdated_app(corpus, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.library is None and shown(app).total == 3  # at once, as last built
        assert "Reading arxiv.jsonl · 3 of 3 papers" in screen_text(app)
        await search(pilot, "zymurgy")  # searchable meanwhile
        assert shown(app).total == 2
        gate.set()
        await wait_for(pilot, lambda: app.library is not None)
        assert shown(app).total == 2 and "Reading" not in screen_text(app)
        assert "arxiv.jsonl: +1, -1 papers; 1 changed" in notices(app)
        # What a start that loaded the library first would serve.
        full, served = load_library([corpus], taxonomy), app.library
        assert served is not None and {p.id for p in served.papers} == {p.id for p in full.papers}
        fresh = open_engine(full, taxonomy, tmp_path / "fresh-cache")
        try:
            assert app.engine is not None
            for query in ("", "zymurgy", "zest", "kernels"):
                assert ranked(app.engine, query) == ranked(fresh, query)
        finally:
            fresh.close()


async def test_problems_of_a_file_edited_before_the_start_are_listed(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    """At start a new problem is the file as the user left it, not a save caught half-way:
    the rest of the file is served and the problem listed, as a full load would."""
    corpus = write_corpus(tmp_path / "papers")
    assert main(["--corpus", str(corpus), "index"]) == 0
    with (corpus / "refs.bib").open("a", encoding="utf-8") as handle:
        handle.write("@article{gamma,\n  title = {Gamma Rays},\n  year = {2022}\n}\n\n@misc{\n")
    app = outdated_app(corpus, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await wait_for(pilot, lambda: app.library is not None)
        full = load_library([corpus], taxonomy)
        assert len(full.warnings) == 2
        assert [str(w) for w in app.load_warnings] == [str(w) for w in full.warnings]
        assert shown(app).total == len(full.papers) == 4
        assert '2 problems in your files: ctrl+p, "Load problems" lists them' in notices(app)


async def test_a_touched_file_with_the_same_papers_says_nothing(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    corpus = write_corpus(tmp_path / "papers")
    assert main(["--corpus", str(corpus), "index"]) == 0
    os.utime(corpus / "arxiv.jsonl", ns=(1, 1))  # a sync tool's copy: same bytes, new mtime
    app = outdated_app(corpus, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await wait_for(pilot, lambda: app.library is not None)
        assert shown(app).total == 3
        assert [n for n in notices(app) if "arxiv" in n or "reloaded" in n] == []
