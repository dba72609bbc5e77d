"""`paperscope` with no command: on a current index the app starts without the library.

The papers then come from the index's stored fields, the citation keys from the base keys
the build saved, the user's tags from the saved paper keys and the load problems from the
manifest: each must equal what the app shows after loading the library.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import index.library.load
import index.library.parallel as parallel
import index.library.pipeline as pipeline
from index.citations import citation_keys
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from tests.tui.app_pilot import settle
from tui.app import PaperscopeApp
from tui.cli import main
from tui.services.papers import PaperData

BIB = """@article{alpha,
  title = {Alpha Engines},
  author = {Ada Lovelace},
  year = {2021},
  abstract = {About alpha engines and pipelines.}
}

@article{broken,
  title = {Never closed,
  year = 2020

"""
# Two papers whose keys collide (same first author, year and first title word): the
# library's keys are `quill2024zymurgya` and `...b`, which only the whole library decides.
RECORDS = [
    {
        "id": "2401.00001",
        "title": "Zymurgy of Sparse Kernels",
        "authors": "Ada Quill and Bo Reyes",
        "categories": "cs.DC",
        "abstract": "We study zymurgy of sparse kernels.",
        "update_date": "2024-01-05",
    },
    {
        "id": "2401.00002",
        "title": "Zymurgy of Cache Hierarchies",
        "authors": "Ada Quill",
        "categories": "cs.AR",
        "abstract": "Cache hierarchies under zymurgy.",
        "update_date": "2024-02-05",
    },
]


def write_corpus(folder: Path) -> Path:
    folder.mkdir()
    (folder / "refs.bib").write_text(BIB, encoding="utf-8")
    lines = "".join(json.dumps(record) + "\n" for record in RECORDS)
    (folder / "arxiv.jsonl").write_text(lines, encoding="utf-8")
    return folder


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[PaperscopeApp]:
    """The apps `paperscope` would run, kept instead of run (see `in_a_terminal`)."""
    apps: list[PaperscopeApp] = []

    def run(self: PaperscopeApp, *args: Any, **kwargs: Any) -> None:
        apps.append(self)

    monkeypatch.setattr(PaperscopeApp, "run", run)
    return apps


def start_app(
    corpus: Path, started: list[PaperscopeApp], monkeypatch: pytest.MonkeyPatch
) -> PaperscopeApp:
    """The app `paperscope --corpus CORPUS` would run in a terminal."""
    in_a_terminal(monkeypatch)
    assert main(["--corpus", str(corpus)]) == 0
    (app,) = started
    return app


def in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdin and stdout say they are a terminal (patched in the test's own phase: pytest
    swaps the captured streams between a fixture's setup and the test)."""
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)


def forbid_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the library was loaded")

    monkeypatch.setattr(index.library.load, "load_library", fail)


def test_a_current_index_starts_the_app_without_the_library_and_the_same(
    tmp_path: Path,
    started: list[PaperscopeApp],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    corpus = write_corpus(tmp_path / "papers")
    assert main(["--corpus", str(corpus), "index"]) == 0
    library = load_library([corpus], load_taxonomy())
    assert library.warnings  # the fixture has a broken entry
    forbid_loading(monkeypatch)
    # ...nor every paper decoded from the index to compute the citation keys.
    monkeypatch.setattr(PaperData, "_all_papers", lambda self: pytest.fail("papers decoded"))
    capsys.readouterr()
    app = start_app(corpus, started, monkeypatch)
    engine = app.engine
    assert engine is not None
    try:
        assert app.library is None
        assert engine.size == len(library.papers)
        assert [str(w) for w in app.load_warnings] == [str(w) for w in library.warnings]
        assert app.papers._citation_keys() == citation_keys(library.papers)
        assert app.papers._citation_keys()["2401.00002"] == "quill2024zymurgyb"
        assert capsys.readouterr().err == ""  # nothing was loaded, nothing re-reported
    finally:
        engine.close()


def test_an_edited_file_starts_the_app_on_the_index_as_it_was(
    tmp_path: Path, started: list[PaperscopeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shown at once as last built; the app reads the edited file (test_app_light)."""
    corpus = write_corpus(tmp_path / "papers")
    assert main(["--corpus", str(corpus), "index"]) == 0
    with (corpus / "arxiv.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({**RECORDS[0], "id": "2401.00003", "title": "Zest"}) + "\n")
    forbid_loading(monkeypatch)
    app = start_app(corpus, started, monkeypatch)
    engine = app.engine
    assert engine is not None
    try:
        assert app.library is None and engine.size == 3
        assert app._outdated == {str(corpus / "arxiv.jsonl")}
    finally:
        engine.close()


async def test_an_added_file_starts_the_app_which_reads_the_library(
    tmp_path: Path, started: list[PaperscopeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No index to serve: the app shows at once and reads the library in its worker."""
    corpus = write_corpus(tmp_path / "papers")
    assert main(["--corpus", str(corpus), "index"]) == 0
    record = {**RECORDS[0], "id": "2401.00003", "title": "Zest"}
    (corpus / "more.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    app = start_app(corpus, started, monkeypatch)
    assert app.library is None and app.engine is None  # nothing read before the app runs
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.library is not None and len(app.library.papers) == 4
        assert app.engine is not None and app.engine.size == 4
        assert [w.line for w in app.load_warnings] == [8]  # refs.bib's broken entry


async def test_a_first_start_on_big_files_starts_the_loads_workers_before_the_app(
    tmp_path: Path, started: list[PaperscopeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """They start while Textual is imported; the load uses them, then stops them."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)  # the fixture's files are "big"
    corpus = write_corpus(tmp_path / "papers")
    app = start_app(corpus, started, monkeypatch)
    pool = app.load_pool
    assert pool is not None and pool.started and pool._executor is not None
    workers = set(pool._executor._processes)
    assert len(workers) == pool.workers == 2  # started already, before any step
    made: list[object] = []
    monkeypatch.setattr(pipeline, "LoadPool", lambda *args: made.append(args))
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.library is not None and len(app.library.papers) == 3
    assert made == []  # the load made no pool of its own
    assert pool._executor is None  # and stopped the one it was given


def test_a_first_start_on_small_files_starts_no_workers_before_the_app(
    tmp_path: Path, started: list[PaperscopeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = start_app(write_corpus(tmp_path / "papers"), started, monkeypatch)
    assert app.load_corpus and app.load_pool is None


def first_start_printing(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """`paperscope --corpus CORPUS` on a first start, the app run headless until it is
    idle, then quit by `q`: (exit code, stderr)."""
    original = PaperscopeApp.run

    def run(self: PaperscopeApp, *args: Any, **kwargs: Any) -> Any:
        async def until_idle(pilot: Any) -> None:
            await settle(pilot)
            await pilot.press("q")

        return original(self, headless=True, auto_pilot=until_idle)

    monkeypatch.setattr(PaperscopeApp, "run", run)
    in_a_terminal(monkeypatch)
    capsys.readouterr()
    code = main(["--corpus", str(corpus)])
    return code, capsys.readouterr().err


def test_the_load_problems_of_a_first_start_are_printed_after_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = write_corpus(tmp_path / "papers")
    code, err = first_start_printing(corpus, monkeypatch, capsys)
    assert code == 0
    assert "refs.bib:8: malformed BibTeX entry skipped" in err
    # The next start serves the index, and says nothing of problems already reported.
    code, err = first_start_printing(corpus, monkeypatch, capsys)
    assert code == 0 and err == ""


def test_a_first_start_with_no_paper_says_so_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "papers"
    corpus.mkdir()
    (corpus / "empty.bib").write_text("% nothing here\n", encoding="utf-8")
    code, err = first_start_printing(corpus, monkeypatch, capsys)
    assert code == 2
    assert err == (
        f"paperscope: warning: {corpus / 'empty.bib'}: no BibTeX entries found\n"
        f"paperscope: no papers could be loaded from {corpus}\n"
    )


def test_a_path_with_no_file_says_so_without_starting_the_app(
    tmp_path: Path,
    started: list[PaperscopeApp],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    in_a_terminal(monkeypatch)
    missing = tmp_path / "typo.bib"
    assert main(["--corpus", str(missing)]) == 2
    assert started == []
    err = capsys.readouterr().err
    assert str(missing) in err and "no papers could be loaded" in err
