"""The facet panel redraws new counts without reflowing the screen, and still scrolls right
when a rebuild changes how many lines it has."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from index.models import FacetCount
from tests.tui.app_pilot import screen_text
from tui.messages import FacetToggled
from tui.widgets.facet_panel import MORE, NONE, FacetPanel


class PanelApp(App[None]):
    """The panel alone, at a fixed size, as its column gives it one in the app."""

    CSS = "FacetPanel { height: 14; width: 30; scrollbar-gutter: stable; }"

    def compose(self) -> ComposeResult:
        yield FacetPanel(id="facets")


def topics(*counts: int) -> dict[str, tuple[FacetCount, ...]]:
    """A topic section with one value per count."""
    return {
        "topic": tuple(
            FacetCount("topic", f"t{i}", f"Topic {i}", count) for i, count in enumerate(counts)
        )
    }


async def test_new_counts_on_as_many_lines_are_drawn_without_a_reflow(reflows: list[int]) -> None:
    app: Any = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(FacetPanel)
        panel.show_facets(topics(5, 3, 1))
        await pilot.pause()
        before = len(reflows)
        panel.show_facets(topics(4, 2, 0))
        await pilot.pause()
        assert len(reflows) == before
        drawn = screen_text(app).splitlines()[1:4]  # under the "Topics" heading
        assert [line.split()[1:] for line in drawn] == [
            ["○", "Topic", "0", "4"],
            ["○", "Topic", "1", "2"],
            ["○", "Topic", "2", "0"],
        ]


async def test_a_rebuild_with_more_lines_than_fit_can_be_scrolled_to_its_end(
    reflows: list[int],
) -> None:
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(FacetPanel)
        panel.show_facets(topics(1, 1))
        await pilot.pause()
        assert panel.max_scroll_y == 0
        before = len(reflows)
        panel.show_facets(topics(*range(30, 0, -1)))
        await pilot.pause()
        assert len(reflows) > before  # the new line count asks for a layout
        # Topics and its 30 values, Hardware folded to one line (no value at all: nothing
        # in this library), and the sections always listed (year ... author), each empty
        # one saying so on a line of its own.
        assert panel.virtual_size.height == 38
        assert panel.max_scroll_y == 38 - panel.scrollable_content_region.height
        panel.focus()
        await pilot.press("end")
        await pilot.pause()
        assert panel.cursor_node is not None and panel.cursor_node.data == ("author", NONE)
        assert panel.scroll_y == panel.max_scroll_y


async def test_an_open_section_without_values_says_so_and_enter_there_does_nothing() -> None:
    app: Any = PanelApp()
    posted: list[object] = []
    async with app.run_test(message_hook=posted.append) as pilot:
        panel = app.query_one(FacetPanel)
        panel.show_facets(topics(2, 1))
        await pilot.pause()
        lines = screen_text(app).splitlines()
        year = next(i for i, line in enumerate(lines) if "Year" in line)
        assert lines[year + 1].strip(" └") == "(none)", lines[year : year + 2]
        panel.focus()

        async def enter_on(data: tuple[str, str]) -> list[object]:
            node = next(n for n in panel._walk() if n.data == data)
            panel.cursor_line = node.line
            posted.clear()
            await pilot.press("enter")
            await pilot.pause()
            return [m for m in posted if isinstance(m, FacetToggled)]

        assert await enter_on(("topic", "t0"))  # a value toggles (the hook sees it)
        assert not await enter_on(("year", NONE))
        hint = panel.cursor_hint()
        assert hint is not None and hint.plain == "Year: none among the papers that match"
        # A section with values lists them, not the line.
        panel.show_facets({**topics(2, 1), "year": (FacetCount("year", "2024", "2024", 3),)})
        await pilot.pause()
        assert not any(n.data == ("year", NONE) for n in panel._walk())


async def test_a_long_span_of_years_lists_the_newest_and_more() -> None:
    # A lab's library spans seventy years: listed whole, Venue and Author were screens away.
    # The panel (14 lines here) lists as many of the newest as leave Author's heading and
    # first line in view, and "more…" for the rest.
    app: Any = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(FacetPanel)
        years = tuple(FacetCount("year", str(y), str(y), 1) for y in range(2001, 2021))
        author = (FacetCount("author", "Ada Lovelace", "Ada Lovelace", 20),)
        panel.show_facets(
            {"year": (*years, FacetCount("year", "0", "no year", 2)), "author": author}
        )
        await pilot.pause()

        def dated() -> list[str]:
            return [
                n.data[1]
                for n in panel._walk()
                if n.data
                and n.data[0] == "year"
                and n.data[1]
                and n.data[1].isdigit()
                and n.data[1] != "0"
            ]

        first = sorted(dated())
        assert 3 <= len(first) < 8
        assert first == [str(y) for y in range(2021 - len(first), 2021)]  # the newest
        assert any(n.data == ("year", "0") for n in panel._walk())  # "no year" stays listed
        ada = next(n for n in panel._walk() if n.data == ("author", "Ada Lovelace"))
        assert ada.line < panel.scrollable_content_region.height
        more = next(n for n in panel._walk() if n.data == ("year", MORE))
        assert f"more… ({20 - len(first)})" in str(more.label)
        panel.focus()
        panel.cursor_line = more.line
        await pilot.press("enter")
        await pilot.pause()
        assert len(dated()) == len(first) + 8
