"""Pilot test of a big library's first start: a sample is searchable while the full index
is built (index.store.preview), then the full index takes over.

`index.open_engine` is replaced by one that hands the app an engine on a sample of the
bundled papers, reports progress, and returns the full engine only when the test lets it:
what a first build of 20,000 papers does over a minute, held still to look at.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

import index
import index.library.early_sample as early_sample
import index.library.pipeline as pipeline
from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.models import Library
from index.store import generations
from index.store.generations import IndexUnavailable
from tests.tui.app_pilot import WIDE, all_notices, highlighted, results_text, settle, shown
from tests.tui.screens.test_app_edges import status
from tui.app import FINISHING_INDEX, INDEX_FINISHED_ALONE, PaperscopeApp, make_app
from tui.services.config import AppSettings

SAMPLE = 10


def farewell(app: PaperscopeApp) -> str | None:
    """What quitting now would print once the app is gone (Textual's exit message)."""
    given: list[object] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(App, "exit", lambda self, result, code, message: given.append(message))
        app.exit()
    (message,) = given
    return None if message is None else str(message)


def _outside(library: Library, sample: Library) -> str:
    """A title word of a paper outside the sample that no sampled paper has anywhere."""
    texts = [f"{p.title} {p.abstract} {' '.join(p.authors)} {p.venue}" for p in sample.papers]
    sampled = " ".join(texts).lower()
    for paper in library.papers:
        for word in paper.title.split():
            word = word.strip(":,.()").lower()
            if len(word) > 6 and word.isalpha() and word[:5] not in sampled:
                return word
    raise AssertionError("every title word of the library occurs in the sample")


async def until(pilot: Any, condition: Any, seconds: float = 20.0) -> None:
    """Until `condition()` holds; no full settle (the build's worker is still running)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not there in time; status: {status(pilot.app)!r}"
        await pilot.pause(0.05)


async def test_a_sample_serves_search_read_and_copy_until_the_full_index_is_ready(
    tmp_path: Path,
    taxonomy: Taxonomy,
    clipboard: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    library = load_library(None, taxonomy)
    sample = Library(papers=library.papers[:: len(library.papers) // SAMPLE][:SAMPLE])
    preview = index.open_engine(sample, taxonomy, tmp_path / "preview-cache")
    writing, release = threading.Event(), threading.Event()
    real_open = index.open_engine

    def slow_first_build(library: Library, taxonomy: Taxonomy, cache_dir: Path, **kw: Any) -> Any:
        kw["progress"](0, len(library.papers))
        kw["preview"](preview)
        kw["progress"](len(library.papers) // 2, len(library.papers))
        assert writing.wait(30), "the test never let the build put every paper in"
        kw["progress"](len(library.papers), len(library.papers))  # then the index is written
        assert release.wait(30), "the test never let the build finish"
        return real_open(library, taxonomy, cache_dir)

    absent = _outside(library, sample)
    monkeypatch.setattr(index, "open_engine", slow_first_build)
    settings = AppSettings.from_environment()
    app = make_app(settings, library=library, taxonomy=taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: app.main_screen.result is not None)
        half = f"Indexing {100 * (len(library.papers) // 2) // len(library.papers)}%"
        await until(pilot, lambda: half in status(app))
        assert app.previewing and not app.index_finished.is_set()
        assert farewell(app) == FINISHING_INDEX  # quitting now: the build goes on, said so
        assert status(app).startswith(f"{half} · so far {SAMPLE} of {SAMPLE} papers")
        sampled = {paper.id for paper in sample.papers}
        assert {hit.paper.id for hit in shown(app).hits} == sampled
        # search, read and copy as usual, on the sample
        target = sample.papers[3]
        word = max(target.title.split(), key=len).strip(":,.").lower()
        await pilot.press("slash", *word, "enter")
        await until(pilot, lambda: shown(app).request.query == word)
        await until(pilot, lambda: target.id in {h.paper.id for h in shown(app).hits})
        assert {hit.paper.id for hit in shown(app).hits} <= sampled
        assert status(app).startswith(f"{half} · so far ")
        await pilot.press("c")  # the citation of the highlighted paper (enter moved there)
        await until(pilot, lambda: bool(clipboard))
        assert highlighted(app).title.split(":")[0] in clipboard[-1]
        # a paper outside the sample: no rows yet, and the pane says why
        await pilot.press("slash", "ctrl+u", *absent, "enter")
        await until(pilot, lambda: shown(app).request.query == absent)
        assert shown(app).total == 0
        assert "the full index is still being built" in results_text(app)
        # Every paper in: the commit and tables take a while, said as such (not "99%").
        writing.set()
        await until(pilot, lambda: status(app).startswith("Writing the index · so far 0 of"))
        assert app.previewing and farewell(app) == FINISHING_INDEX
        release.set()
        await until(pilot, lambda: not app.previewing)
        await settle(pilot)
        assert app.engine is not preview and preview in app._retired
        assert app.index_finished.is_set() and farewell(app) is None
        assert not status(app).startswith("Indexing")
        assert app.engine is not None
        assert shown(app).total == app.engine.search(shown(app).request).total
        assert shown(app).library_size == len(library.papers)
        await pilot.press("slash", "ctrl+u")
        await settle(pilot)
        assert shown(app).total == len(library.papers)


async def test_a_build_that_fails_after_the_sample_served_says_so_and_serves_nothing(
    tmp_path: Path, taxonomy: Taxonomy, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = load_library(None, taxonomy)
    sample = Library(papers=library.papers[:SAMPLE])
    preview = index.open_engine(sample, taxonomy, tmp_path / "preview-cache")
    served = threading.Event()

    def failing_build(library: Library, taxonomy: Taxonomy, cache_dir: Path, **kw: Any) -> Any:
        kw["preview"](preview)
        assert served.wait(30)
        raise IndexUnavailable("cannot build the index in /cache: No space left on device")

    monkeypatch.setattr(index, "open_engine", failing_build)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: app.main_screen.result is not None)
        assert status(app).startswith("Indexing")
        served.set()
        await until(pilot, lambda: "No space left" in status(app))
        await settle(pilot)
        assert app.engine is None and not app.previewing and preview in app._retired
        await pilot.press("slash", *"pipeline")
        await settle(pilot)
        assert "No space left" in status(app)  # nothing searches the sample any more


_WORDS = "zero alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima".split()


def _arxiv_records(folder: Path, count: int) -> None:
    """`count` distinct arXiv records about GPU kernels, and record 3 again in a .bib file
    with a BibTeX key of its own: dedupe merges the two, and the merged paper cites with
    that key (the real pattern of an arXiv dump beside a Better BibTeX export)."""
    lines = [
        json.dumps(
            {
                "id": f"2401.{n:05d}",
                "title": f"Kernel study {_WORDS[n]} on tensor cores",
                "authors": f"Ann Writer{n} and Bo Person{n}",
                "categories": "cs.DC",
                "abstract": f"We measure GPU kernels {n} "
                + " ".join(f"w{n * k % 997}" for k in range(40)),
                "update_date": "2024-01-05",
            }
        )
        for n in range(1, count + 1)
    ]
    folder.mkdir()
    (folder / "a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "b.bib").write_text(
        "@article{writer2024kernel,\n  title = {Kernel study charlie on tensor cores},\n"
        "  author = {Writer3, Ann},\n  year = {2024},\n  eprint = {2401.00003},\n"
        "  archiveprefix = {arXiv},\n}\n",
        encoding="utf-8",
    )


def held_dedupe(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The load's dedupe waits for the test: (set when it is reached, set to let it run)."""
    merging, release = threading.Event(), threading.Event()
    real_dedupe = pipeline.dedupe

    def held(*args: Any, **kwargs: Any) -> Any:
        merging.set()
        assert release.wait(30), "the test never let dedupe run"
        return real_dedupe(*args, **kwargs)

    monkeypatch.setattr(pipeline, "dedupe", held)
    return merging, release


async def test_a_first_start_serves_its_early_sample_and_copies_from_the_library(
    tmp_path: Path, clipboard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app reads the library itself (`load_corpus`): before duplicates are merged, a
    sample of the parsed records is searchable (index.library.early_sample); a key copied
    from it is the merged paper's, copied once the library is read."""
    monkeypatch.setattr(early_sample, "SAMPLE_MIN_PAPERS", 10)
    corpus = tmp_path / "library"
    _arxiv_records(corpus, len(_WORDS) - 1)
    merging, release = held_dedupe(monkeypatch)
    settings = AppSettings.from_environment()
    app = make_app(settings, corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: app.previewing and app.main_screen.result is not None)
        assert merging.is_set() and app.library is None
        assert status(app).startswith("Merging duplicates · so far 13 of 13 papers")
        await pilot.press("slash", *"charlie", "enter")
        await until(pilot, lambda: shown(app).request.query == "charlie")
        assert {hit.paper.id for hit in shown(app).hits} >= {"2401.00003", "writer2024kernel"}
        hits = [hit.paper.id for hit in shown(app).hits]
        await pilot.press(*["down"] * hits.index("2401.00003"))
        assert highlighted(app).id == "2401.00003"  # the arXiv record: no key of its own
        await pilot.press("y")  # its citation key: alone, `writer32024kernel`
        waiting = "Copying the citation key for 2401.00003 once the library is read…"
        await until(pilot, lambda: any(n.message == waiting for n in all_notices(app)))
        assert clipboard == []  # the key may change when the duplicates merge: it waits
        await pilot.press("m", "b")  # a mark may name a paper the sample does not hold
        await until(
            pilot, lambda: any("once the library is read;" in n.message for n in all_notices(app))
        )
        release.set()
        await until(pilot, lambda: not app.previewing)
        await settle(pilot)
        assert clipboard == ["writer2024kernel"]  # the merged paper's
        await pilot.press("b")
        await settle(pilot)
        assert len(clipboard) == 2 and "Kernel study charlie" in clipboard[-1]
        assert app.library is not None and len(app.library.papers) == 12
        assert shown(app).total == len(shown(app).hits) >= 1


def started_processes(monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    """(the build processes the app started ahead, the one each sample was built by)."""
    monkeypatch.setattr(pipeline, "SAMPLE_LIKELY_BYTES", 1)
    started: list[Any] = []
    used: list[Any] = []
    start, open_sample = index.start_sample_build, index.open_sample_engine

    def starting() -> Any:
        started.append(start())
        return started[-1]

    def opening(*args: Any) -> Any:
        used.append(args[-1])
        return open_sample(*args)

    monkeypatch.setattr(index, "start_sample_build", starting)
    monkeypatch.setattr(index, "open_sample_engine", opening)
    return started, used


async def test_the_sample_is_built_by_the_process_started_while_files_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(early_sample, "SAMPLE_MIN_PAPERS", 10)
    started, used = started_processes(monkeypatch)
    corpus = tmp_path / "library"
    _arxiv_records(corpus, 12)
    app = make_app(AppSettings.from_environment(), corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: app.index_finished.is_set() and not app.previewing)
        await settle(pilot)
    assert len(started) == 1 and started[0] is not None
    assert used == started
    assert started[0].encoded.is_set() and started[0]._child.returncode == 0


async def test_a_process_started_for_a_sample_that_never_came_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files big enough for a sample, too few papers for one."""
    started, used = started_processes(monkeypatch)
    corpus = tmp_path / "library"
    _arxiv_records(corpus, 6)
    app = make_app(AppSettings.from_environment(), corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, app.index_finished.is_set)
        await settle(pilot)
        assert shown(app).total == 6
    assert len(started) == 1 and used == []
    assert started[0]._child.returncode == 0  # stopped, not left waiting for papers


async def test_a_sample_with_no_folder_for_its_index_closes_its_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk or a read-only cache: no sample, the library as usual, no idle child."""
    monkeypatch.setattr(early_sample, "SAMPLE_MIN_PAPERS", 10)
    started, used = started_processes(monkeypatch)
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setattr(generations, "files_dir", lambda cache_dir, files: blocked / "x")
    corpus = tmp_path / "library"
    _arxiv_records(corpus, 12)
    app = make_app(AppSettings.from_environment(), corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        await until(pilot, lambda: app.library is not None)
        assert used == started and len(started) == 1
        await until(pilot, lambda: started[0]._child.returncode is not None)
    assert started[0]._child.returncode == 0
    assert not app.previewing


async def test_quitting_during_a_first_load_hands_the_start_to_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user quits while the library is read: the start is handed to a process of its
    own (index.store.finish_alone), said so, and it builds the index while this process's
    load is still held: the terminal would not have waited, and the next start is quick."""
    corpus = tmp_path / "library"
    _arxiv_records(corpus, 6)
    merging, release = held_dedupe(monkeypatch)
    settings = AppSettings.from_environment()
    app = make_app(settings, corpus=[corpus], load_corpus=True)
    try:
        async with app.run_test(size=WIDE) as pilot:
            await until(pilot, merging.is_set)
            await pilot.press("q")
        assert app.handed_off and not app.index_finished.is_set()
        assert farewell(app) == INDEX_FINISHED_ALONE
        deadline = time.monotonic() + 120
        engine = None
        while engine is None:  # published by the finisher; this load is still held
            assert time.monotonic() < deadline, "the handed-off start never built the index"
            engine = index.open_current_engine([corpus], app.taxonomy, settings.cache_dir)
            time.sleep(0.1)
        assert not release.is_set() and engine.size == 6  # the .bib record merged with its twin
        engine.close()
    finally:
        release.set()
        assert app.index_finished.wait(60)  # this process's load ends too (the CLI exits)
