"""`q` during a big first build gives the terminal back at once and loses nothing.

A large library's index is built by a build process of its own (index.store.child); the
app quitting leaves it to finish and publish alone (`LeaveBuilds`), says so on the
terminal, and the next start opens the index it wrote. Here a small library is built the
way a big one is (`PARALLEL_MIN_PAPERS` lowered), and the app's side never hears from the
build (its output held back), so the app is caught mid-build every time.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path
from typing import IO

import pytest

import index
from index.store import child, writer
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


async def test_quitting_mid_build_leaves_the_build_to_finish_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 20)
    held = threading.Event()  # the app never hears the build's progress while it runs
    real_read = child._read_lines

    def held_back(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
        held.set()
        real_read(stream, queue.Queue())  # read (the child never blocks), told nothing

    monkeypatch.setattr(child, "_read_lines", held_back)
    corpus = tmp_path / "library"
    _records(corpus, 60)
    settings = AppSettings.from_environment()
    app = make_app(settings, corpus=[corpus], load_corpus=True)
    async with app.run_test(size=WIDE) as pilot:
        deadline = time.monotonic() + 60
        while not held.is_set():
            assert time.monotonic() < deadline, "the build never started"
            await pilot.pause(0.05)
        assert not app.index_finished.is_set()
        assert farewell(app) == INDEX_FINISHED_ALONE  # quitting now: finished alone
        await pilot.press("q")
    # The app's build worker stopped waiting at once: nothing holds the process.
    assert app.index_finished.wait(10)
    assert app.load_error is None
    deadline = time.monotonic() + 120
    engine = None
    while engine is None:  # the build process publishes on its own
        assert time.monotonic() < deadline, "the build left alone never published"
        engine = index.open_current_engine([corpus], app.taxonomy, settings.cache_dir)
        time.sleep(0.1)
    assert engine.size == 60
    engine.close()
