"""`q` during a big first build gives the terminal back at once and loses nothing.

A large library's index is built by a build process of its own (index.store.child), fed
the papers as it indexes them. The app quitting once that process has every paper leaves
it to finish and publish alone (`LeaveBuilds`); quitting while it is still fed hands the
start to a process of its own (`index.store.finish_alone`) instead of spooling the rest
from the exiting app (3.9 s at 20,000 papers): the app's process ends, its build process
sees its input cut and publishes nothing, and the finisher builds under the build lock.
Either way the terminal is told, and the next start opens an index equal to a one-shot
build's. Here a small library is built the way a big one is (`PARALLEL_MIN_PAPERS`
lowered), and the build is caught at the chosen point every time: its output held back
once it has every paper, or its feed held after a few papers.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest

import index
from index.library import dedupe
from index.library.load import load_library
from index.models import Paper
from index.store import child, writer
from index.store.generations import open_index
from index.store.manifest import library_dir, read_current
from tests.index.store.test_child import by_paper
from tests.tui.app_pilot import WIDE
from tests.tui.screens.test_app_preview import farewell
from tui.app import INDEX_FINISHED_ALONE, make_app
from tui.services.config import AppSettings


def _records(folder: Path, count: int) -> None:
    """`count` distinct arXiv records in one JSON Lines file."""
    folder.mkdir()
    lines = (
        json.dumps(
            {
                "id": f"2402.{n:05d}",
                "title": f"Paging study number {n} of attention kernels",
                "authors": f"Ann Writer{n} and Bo Person{n}",
                "abstract": f"Measured {n} " + " ".join(f"w{n * k % 991}" for k in range(30)),
            }
        )
        for n in range(count)
    )
    (folder / "papers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _published(corpus: Path, app_taxonomy: object, cache: Path) -> dict[str, list[object]]:
    """The index a start would open now (waiting for it to be published), by paper."""
    folder = library_dir(cache, load_library([corpus], app_taxonomy))  # type: ignore[arg-type]
    deadline = time.monotonic() + 120
    while (current := read_current(folder)) is None:
        assert time.monotonic() < deadline, "no index was published"
        time.sleep(0.1)
    return by_paper(folder / current["dir"])


def _one_shot(corpus: Path, taxonomy: object, where: Path) -> dict[str, list[object]]:
    """The index a start that was never quit builds."""
    opened = open_index(load_library([corpus], taxonomy), taxonomy, where)  # type: ignore[arg-type]
    opened.index.close()
    return by_paper(opened.path)


async def test_quitting_once_the_build_has_every_paper_leaves_it_to_finish_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 20)
    held = threading.Event()  # the app heard every paper is in; it hears nothing after

    def up_to_every_paper(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
        for raw in stream:  # read on (the child never blocks), passed on until then
            if not held.is_set():
                lines.put(raw)
            kind, _, counts = raw.decode("utf-8", "replace").partition(" ")
            if kind == "progress" and len(set(counts.split())) == 1:
                held.set()

    monkeypatch.setattr(child, "_read_lines", up_to_every_paper)
    corpus = tmp_path / "library"
    _records(corpus, 60)
    settings = AppSettings.from_environment()
    app = make_app(settings, corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        deadline = time.monotonic() + 60
        while not (held.is_set() and app.papers_in_writer):
            assert time.monotonic() < deadline, "the build never had every paper"
            await pilot.pause(0.05)
        assert not app.index_finished.is_set()
        assert farewell(app) == INDEX_FINISHED_ALONE  # quitting now: finished alone
        await pilot.press("q")
    # Left, not handed off: the app's build worker stopped waiting at once.
    assert not app.handed_off
    assert app.index_finished.wait(10)
    assert app.load_error is None
    engine = None
    deadline = time.monotonic() + 120
    while engine is None:  # the build process publishes on its own
        assert time.monotonic() < deadline, "the build left alone never published"
        engine = index.open_current_engine([corpus], app.taxonomy, settings.cache_dir)
        time.sleep(0.1)
    assert engine.size == 60
    engine.close()
    published = _published(corpus, app.taxonomy, settings.cache_dir)
    monkeypatch.undo()  # the one-shot build as a start builds it, nothing held
    assert published == _one_shot(corpus, app.taxonomy, tmp_path / "one-shot")


async def test_quitting_while_the_build_is_fed_hands_the_start_off_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's feed is held after 10 papers; once the app is gone the feed is cut, as
    the app's process ending cuts it: the build process publishes nothing, and the
    finisher builds the whole index once the build lock is free."""
    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 20)
    feeding, cut = threading.Event(), threading.Event()

    def cut_mid_feed(
        pipe: IO[bytes],
        job: str,
        papers: list[Paper],
        encoded: threading.Event,
        detached: threading.Event,
        spool: Path | None,
    ) -> None:
        try:
            with pipe:
                pipe.write(job.encode("utf-8") + b"\n")
                pipe.write(next(child.paper_frames(papers[:10])))
                pipe.flush()
                feeding.set()
                assert cut.wait(60), "the test never cut the feed"
        except OSError:
            pass
        finally:
            encoded.set()

    monkeypatch.setattr(child, "_feed", cut_mid_feed)
    corpus = tmp_path / "library"
    _records(corpus, 60)
    settings = AppSettings.from_environment()
    app = make_app(settings, corpus=[corpus], load_corpus=True)
    try:
        async with app.run_test(size=WIDE) as pilot:
            deadline = time.monotonic() + 60
            while not feeding.is_set():
                assert time.monotonic() < deadline, "the build was never fed"
                await pilot.pause(0.05)
            assert not app.papers_in_writer and not app.index_finished.is_set()
            await pilot.press("q")
        assert app.handed_off and not app.leave_builds.is_set()
        assert farewell(app) == INDEX_FINISHED_ALONE
    finally:
        cut.set()  # the app's process is gone: its build process's input ends
    assert app.index_finished.wait(60)  # its build failed; the lock is free
    published = _published(corpus, app.taxonomy, settings.cache_dir)
    assert len(published) == 60
    monkeypatch.undo()
    assert published == _one_shot(corpus, app.taxonomy, tmp_path / "one-shot")


async def test_quitting_mid_merge_holds_the_merge_and_the_finisher_publishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A merge is pure Python for seconds at 20,000 papers: run on, it held the
    interpreter lock against the app's shutdown (1.0-1.67 s from `q` to the prompt).
    Here each merged paper spins for 50 ms; quitting mid-merge holds the merge until the
    app is gone (the command then ends the process; a test's app lets it go at unmount),
    and the finisher, a process of its own, publishes the one-shot build's index."""
    monkeypatch.setattr(dedupe, "_PAUSE_EVERY", 1)
    merged: list[int] = []
    real_merge = dedupe.merge_group

    def slow_merge(*args: Any, **kwargs: Any) -> Any:
        merged.append(1)
        spin_until = time.perf_counter() + 0.05
        while time.perf_counter() < spin_until:  # pure Python: the lock, switch by switch
            pass
        return real_merge(*args, **kwargs)

    monkeypatch.setattr(dedupe, "merge_group", slow_merge)
    corpus = tmp_path / "library"
    _records(corpus, 60)
    settings = AppSettings.from_environment()
    app = make_app(settings, corpus=[corpus], load_corpus=True)
    counts: dict[str, int] = {}  # merged papers when the load was held, and let go

    def counted(name: str) -> Any:
        real = getattr(app, name)

        def call() -> None:
            counts.setdefault(name, len(merged))
            real()

        return call

    for name in ("hold_load", "release_load"):
        monkeypatch.setattr(app, name, counted(name))
    switch = sys.getswitchinterval()
    async with app.run_test(size=WIDE) as pilot:
        deadline = time.monotonic() + 60
        while not merged:
            assert time.monotonic() < deadline, "the merge never started"
            await pilot.pause(0.01)
        await pilot.press("q")
    assert app.handed_off and farewell(app) == INDEX_FINISHED_ALONE
    # Held from the hand-off (the paper under way ended) until the app was gone.
    assert counts["hold_load"] < 60
    assert counts["release_load"] <= counts["hold_load"] + 1
    assert sys.getswitchinterval() == switch  # given back with the load
    assert app.index_finished.wait(60)  # let go, this process's load ends too
    published = _published(corpus, app.taxonomy, settings.cache_dir)
    monkeypatch.undo()
    assert published == _one_shot(corpus, app.taxonomy, tmp_path / "one-shot")
