"""The search bar: typing never reflows the screen, and a long query still scrolls to show
the cursor."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from tests.tui.app_pilot import screen_text
from tui.widgets.search_bar import SearchBar


class BarApp(App[None]):
    """The bar alone, 24 cells wide, as narrow as a query outgrows it."""

    CSS = "SearchBar { width: 24; }"

    def compose(self) -> ComposeResult:
        yield SearchBar(lambda: (), lambda: None, id="search")


async def test_typing_scrolls_a_long_query_without_reflowing_the_screen(
    reflows: list[int],
) -> None:
    app: Any = BarApp()
    async with app.run_test(size=(40, 5)) as pilot:
        bar = app.query_one(SearchBar)
        bar.focus()
        await pilot.pause()
        before = len(reflows)
        await pilot.press(*"scheduling memory pipelines")
        await pilot.pause()
        assert len(reflows) == before
        assert bar.value == "scheduling memory pipelines"
        # The end of the text, where the cursor is, is what shows.
        assert bar.scroll_x > 0
        assert "pipelines" in screen_text(app) and "scheduling" not in screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        assert bar.scroll_x == 0 and "scheduling" in screen_text(app)
        await pilot.press("end", *["backspace"] * 17)
        await pilot.pause()
        assert bar.value == "scheduling"
        assert bar.scroll_x == 0 and "scheduling" in screen_text(app)
