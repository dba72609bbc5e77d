"""A 100 KB paste, then ctrl+u and a word typed at once: the word is what is searched.

In a real terminal the paste and the keys after it arrive in one read, all queued before the
app handles any; the search bar's ctrl+u then ran after the word had been typed and left the
bar empty (tests/torture/test_tmux_paste.py sees it in tmux)."""

from __future__ import annotations

from pathlib import Path

from textual import events

from index.models import Paper, Source
from tests.tui.app_pilot import WIDE, app_with, settle
from tui.widgets.search_bar import SearchBar

PASTE = " ".join(["pipeline", "alpha", "kernel", "beta"] * 2_500)[:100_000]


async def test_keys_typed_right_after_a_big_paste_are_kept(tmp_path: Path) -> None:
    papers = [
        Paper(id=f"k{n}", title=f"Kernel paper {n}", abstract="kernel", sources=(Source("x.bib"),))
        for n in range(3)
    ] + [Paper(id="p", title="Pipeline paper", abstract="pipeline", sources=(Source("x.bib"),))]
    app = app_with(tmp_path, papers)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        app.post_message(events.Paste(PASTE))
        app.post_message(events.Key("ctrl+u", None))
        for character in "kernel":
            app.post_message(events.Key(character, character))
        await settle(pilot)
        assert app.main_screen.query_one(SearchBar).value == "kernel"
        result = app.main_screen.result
        assert result is not None and result.request.query == "kernel"
        assert result.total == 3
