"""The status line lays the screen out again only when its height may change.

Every result and every step of a first start's progress rewrites it; a whole-screen layout
for each took the UI thread a few milliseconds, while a first load ran beside it in the
same process.
A notice can wrap to three rows, and then the screen must make room (and give it back).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from tui.widgets.status_line import StatusLine

LONG = "Could not parse the query: " + "an unclosed quote, " * 6 + "so it was searched as words."


class Line(App[None]):
    CSS = "StatusLine { height: auto; max-height: 3; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield StatusLine()


async def shown(pilot: Pilot[None], text: str) -> int:
    """Show `text`; the line's height once the app is idle."""
    line = pilot.app.query_one(StatusLine)
    line.show_message(text)
    await pilot.pause()
    return line.size.height


async def test_a_one_row_change_is_drawn_without_a_layout(reflows: list[int]) -> None:
    async with Line().run_test(size=(60, 10)) as pilot:
        assert await shown(pilot, "Indexing 5% · so far 10 of 1,000 papers") == 1
        before = len(reflows)
        for percent in range(10, 100, 10):
            assert await shown(pilot, f"Indexing {percent}% · so far 10 of 1,000 papers") == 1
        assert len(reflows) == before
        assert "Indexing 90%" in str(pilot.app.query_one(StatusLine).content)


async def test_a_wrapping_notice_takes_its_rows_and_gives_them_back(reflows: list[int]) -> None:
    async with Line().run_test(size=(60, 10)) as pilot:
        assert await shown(pilot, "12 of 47 papers") == 1
        assert await shown(pilot, LONG) == 3
        assert await shown(pilot, "13 of 47 papers") == 1
        assert await shown(pilot, "14 of 47 papers") == 1


async def test_a_narrower_terminal_lays_out_a_line_that_no_longer_fits() -> None:
    text = "Merging duplicates · so far 1,000 of 1,000 papers"  # 50 columns
    async with Line().run_test(size=(60, 10)) as pilot:
        assert await shown(pilot, text) == 1
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        assert await shown(pilot, text) == 2
