"""The keyboard model: single keys from the first screen, sort, compact view, facets by
keys, marks, and the status line telling the truth."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from index.search.engine import SearchEngine
from tests.tui.app_pilot import (
    WIDE,
    all_notices,
    build,
    facet_node,
    highlighted_option,
    plain,
    results,
    search,
    search_text,
    settle,
    shown,
)
from tui.screens.dialogs import ConfirmDialog, HelpScreen, StylePicker
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList


def status(app: Any) -> str:
    return str(app.main_screen.query_one("#status", Static).content)


async def test_single_keys_work_from_the_first_screen(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.focused, ResultsList)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = plain(app.screen.query_one("#help-body Static", Static).content, width=80)
        assert "\nResults\n" in help_text and "[copy_citation]" not in help_text
        await pilot.press("escape", "s")
        await settle(pilot)
        assert isinstance(app.screen, StylePicker)
        first = highlighted_option(app).id
        await pilot.press("j")  # the cursor moves, as in the results
        assert highlighted_option(app).id != first
        await pilot.press("k")
        assert highlighted_option(app).id == first
        await pilot.press("escape", "f")
        assert isinstance(app.focused, FacetPanel)
        await pilot.press("r", "slash", *"gpu")
        await settle(pilot)
        assert shown(app).request.query == "gpu"
        await pilot.press("enter")
        assert isinstance(app.focused, ResultsList)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_the_help_lists_keys_by_context_and_the_facet_ids(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=(120, 80)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        text = plain(app.screen.query_one("#help-body Static", Static).content, width=120)
        for heading in ("Everywhere", "Results", "Search bar", "Filters", "Reading a paper"):
            assert heading in text
        assert "hw:aws-trainium" in text and "topic:training" in text


async def test_sort_key_cycles_the_orders_and_the_border_says_which(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        column = app.main_screen.query_one("#results-column")
        assert "best match first" in str(column.border_title)
        await pilot.press("S")
        await settle(pilot)
        years = [hit.paper.year or 0 for hit in results(app).hits]
        assert "newest first" in str(column.border_title) and years == sorted(years, reverse=True)
        await pilot.press("S")
        await settle(pilot)
        dated = [hit.paper.year for hit in results(app).hits if hit.paper.year]
        assert "oldest first" in str(column.border_title) and dated == sorted(dated)
        await pilot.press("S", "S")
        await settle(pilot)
        assert shown(app).request.sort == "author"
        await app.main_screen.run_action("sort('title')")
        await settle(pilot)
        titles = [hit.paper.title.casefold() for hit in results(app).hits]
        assert titles == sorted(titles) and "by title" in str(column.border_title)


async def test_compact_view_shows_one_line_per_paper(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        listing = results(app)
        cards = listing.virtual_size.height
        await pilot.press("v")
        await pilot.pause()
        assert listing.compact and listing.virtual_size.height * 4 == cards
        first = listing.hits[0].paper
        line = listing.render_line(0).text
        assert first.title[:20] in line and str(first.year) in line
        assert line.startswith(f"▌  {first.id} ")  # no citation key: the id, in its column
        await pilot.press("j", "v")
        await pilot.pause()
        assert not listing.compact and listing.cursor == 1


async def test_the_highlight_covers_the_whole_card(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        listing = results(app)
        cursor = listing.get_component_rich_style("results-list--cursor").bgcolor
        for y in (0, 1, 3):  # the title line too, every cell (the label chips keep their colours)
            strip = listing.render_line(y)
            assert strip.text.startswith("▌")
            assert all(
                segment.style.bgcolor == cursor
                for segment in strip
                if segment.style and segment.text.strip()
            )


async def test_x_clears_typed_facet_filters_too(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "pipeline topic:training")
        await pilot.press("enter", "x")
        await settle(pilot)
        assert shown(app).request.query == "pipeline"
        assert search_text(app) == "pipeline"


async def test_an_unknown_typed_facet_value_is_named_with_a_suggestion(
    engine: SearchEngine,
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "hw:trainium")
        assert "hw:trainium is not a hardware id (did you mean hw:aws-trainium?)" in status(app)


async def test_status_numbers_are_for_people_and_timings_only_in_debug(
    engine: SearchEngine,
) -> None:
    app = build(engine, show_timings=None)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert status(app) == f"{engine.size:,} of {engine.size:,} papers"


async def test_facets_unfold_and_fold_by_keys_and_no_year_is_selectable(
    engine: SearchEngine,
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        panel.focus()
        gpu = facet_node(panel, "hardware", "gpu")
        panel.cursor_line = gpu.line
        assert not gpu.is_expanded
        await pilot.press("l")
        assert gpu.is_expanded
        await pilot.press("l")
        assert panel.cursor_node is not None and panel.cursor_node.parent is gpu
        await pilot.press("h")
        assert panel.cursor_node is gpu
        await pilot.press("left")
        assert not gpu.is_expanded
        panel.cursor_line = facet_node(panel, "year", "0").line
        await pilot.press("enter")
        await settle(pilot)
        result = shown(app)
        assert result.request.years == frozenset({0}) and result.total > 0
        assert all(hit.paper.year is None for hit in result.hits)


async def test_venues_have_more(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        before = sum(1 for node in panel._walk() if node.data and node.data[0] == "venue")
        more = facet_node(panel, "venue", "\x00more")
        panel.focus()
        panel.cursor_line = more.line
        await pilot.press("enter")
        await pilot.pause()
        after = sum(1 for node in panel._walk() if node.data and node.data[0] == "venue")
        assert after > before


async def test_marks_are_counted_filtered_and_cleared_after_asking(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        column = app.main_screen.query_one("#results-column")
        assert column.border_subtitle == "no marks"
        await pilot.press("m", "j", "j", "m")
        await settle(pilot)
        assert column.border_subtitle == "● 2 marked"
        await pilot.press("M")
        await settle(pilot)
        assert {hit.paper.id for hit in results(app).hits} == set(app.marks.ids)
        assert "marked only" in str(column.border_title) and status(app).startswith("2 marked of")
        await pilot.press("X")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert len(app.marks) == 2
        await pilot.press("X", "y")
        await settle(pilot)
        assert len(app.marks) == 0 and column.border_subtitle == "no marks"


async def test_a_theme_change_repaints_the_results_at_once(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        before = results(app).render_line(0)
        app.theme = "textual-light"
        await pilot.pause()
        after = results(app).render_line(0)
        assert [s.style for s in before] != [s.style for s in after]


async def test_keymap_mistakes_are_reported(engine: SearchEngine, isolated_dirs: Path) -> None:
    config = isolated_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'style = "APA"\n[keymap]\ncopy_citaton = "y"\ntoggle_mark = "c"\n', encoding="utf-8"
    )
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        warnings = [n.message for n in all_notices(app) if n.severity == "warning"]
        assert any(
            "unknown binding id 'copy_citaton'" in w and "copy_citation" in w for w in warnings
        )
        assert any("toggle_mark" in w and "copy_citation" in w for w in warnings)
        assert app.style == "apa"


async def test_a_screenshot_goes_to_a_folder_that_exists(
    engine: SearchEngine, isolated_dirs: Path
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        app.action_screenshot()
        await pilot.pause()
        saved = list((isolated_dirs / "data" / "screenshots").glob("*.svg"))
        assert len(saved) == 1
        assert any(str(saved[0]) in n.message for n in all_notices(app))


async def test_keys_typed_right_after_slash_and_enter_go_where_they_mean(
    engine: SearchEngine,
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"gpu", "enter", "j")  # no pause between them
        await settle(pilot)
        assert search_text(app) == "gpu"
        assert isinstance(app.focused, ResultsList) and results(app).cursor == 1
        await pilot.press("slash", *"a/b")  # in the bar "/" is text
        assert search_text(app) == "gpua/b"
