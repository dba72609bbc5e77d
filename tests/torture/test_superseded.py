"""A 100 KB paste, then the query the user meant: the paste's work is cancelled, and the
meant query's results come in a normal query's time."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from index.cancel import checkpoint
from index.models import Paper, Source
from index.search.prefixes import PrefixExpander
from tests.tui.app_pilot import WIDE, app_with, settle
from tui.app import PaperscopeApp
from tui.widgets.search_bar import SearchBar

PASTE = "a" * 100_000
SLOW_SECONDS = 30  # what the paste's expansion is made to cost: issue 14 measured 29 s


@pytest.fixture
def slow_paste(monkeypatch: pytest.MonkeyPatch) -> None:
    """The paste's prefix expansion made slow on purpose, checking for cancellation as the
    engine's own loops do. The caps make a real paste cheap, so without this the test
    could not tell a cancelled search from a finished one."""
    original = PrefixExpander.expand

    def slow(self: PrefixExpander, reader: Any, fieldname: str, prefix: str) -> Any:
        if prefix.startswith("aaaaaaaa"):
            deadline = time.monotonic() + SLOW_SECONDS
            while time.monotonic() < deadline:
                checkpoint()
                time.sleep(0.002)
        return original(self, reader, fieldname, prefix)

    monkeypatch.setattr(PrefixExpander, "expand", slow)


async def _answered(pilot: Pilot[Any], app: PaperscopeApp, bar: SearchBar, query: str) -> float:
    """Seconds from the query typed (the bar's value set) to its results on screen.

    Each query is new to the engine (nothing served from memory): a first search.
    """
    screen = app.main_screen
    started = time.monotonic()
    bar.value = query
    while screen.result is None or screen.result.request.query != query:
        await pilot.pause(0.005)
        assert time.monotonic() - started < 10, "the query never got its results"
    return time.monotonic() - started


async def test_a_paste_then_a_normal_query_gets_the_normal_results_in_normal_time(
    tmp_path: Path, slow_paste: None
) -> None:
    papers = [
        Paper(
            id=f"p{n}",
            title=f"Quokka paper {n}",
            abstract="quokka pipeline",
            sources=(Source("x.bib"),),
        )
        for n in range(5)
    ] + [Paper(id="w", title="Wombat paper", abstract="wombat", sources=(Source("x.bib"),))]
    app = app_with(tmp_path, papers)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        bar = app.main_screen.query_one(SearchBar)
        normal = min([await _answered(pilot, app, bar, q) for q in ("wombat", "pipeline", "paper")])
        bar.value = ""
        await settle(pilot)

        bar.post_message(events.Paste(PASTE))
        await pilot.pause(0.3)
        assert bar.value.startswith("aaaa") and len(bar.value) == len(PASTE)
        busy = [w for w in app.workers if w.group == "search" and w.is_running]
        assert busy, "the paste's search should still be running (made slow above)"
        after_paste = await _answered(pilot, app, bar, "quokka")
        result = app.main_screen.result
        assert result is not None and result.total == 5
        assert after_paste < 3 * normal + 0.25, (after_paste, normal)
        await settle(pilot)
        assert not [w for w in app.workers if w.is_running]  # the paste's work is over
