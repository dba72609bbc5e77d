"""Pilot tests for the rough edges found by using the app: facets, rows, empty states, keys."""

from __future__ import annotations

from typing import Any

import pytest

from index.search.engine import SearchEngine
from tests.tui.app_pilot import (
    WIDE,
    build,
    facet_node,
    results,
    results_text,
    screen_text,
    search,
    search_text,
    settle,
    shown,
    top_screen,
)
from tui.widgets.facet_panel import FacetPanel

NARROW = (80, 24)


async def test_the_facet_cursor_stays_on_its_value_across_rebuilds(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        first = facet_node(panel, "topic", "training")
        panel.focus()
        panel.cursor_line = first.line
        await pilot.press("enter")
        await settle(pilot)
        assert panel.cursor_node is not None and panel.cursor_node.data == ("topic", "training")
        await pilot.press("down")
        second = panel.cursor_node.data
        assert second is not None and second[0] == "topic" and second != first.data
        await pilot.press("enter")
        await settle(pilot)
        assert shown(app).request.topics == frozenset({"training", second[1]})
        assert panel.cursor_node.data == second


async def test_an_expanded_hardware_parent_stays_expanded(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        gpu = facet_node(panel, "hardware", "gpu")
        assert not gpu.is_expanded
        gpu.expand()
        await search(pilot, "training")
        assert facet_node(panel, "hardware", "gpu").is_expanded
        facet_node(panel, "hardware", "gpu").collapse()
        await search(pilot, " pipeline")
        assert not facet_node(panel, "hardware", "gpu").is_expanded


@pytest.mark.parametrize("size", [NARROW, WIDE])
async def test_facet_labels_keep_a_space_and_right_align_counts(
    engine: SearchEngine, size: tuple[int, int]
) -> None:
    app = build(engine)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        region = panel.scrollable_content_region
        screen = screen_text(app).splitlines()[region.y : region.bottom]
        lines = [line[region.x : region.right] for line in screen if "○ " in line]
        topic = next(c for c in shown(app).facets["topic"] if c.value == "training")
        row = next(line for line in lines if "Training" in line)
        assert row.rstrip().endswith(f" {topic.count}"), row
        counts_end = {len(line.rstrip()) for line in lines[:5]}
        assert len(counts_end) == 1, f"counts are right-aligned: {lines[:5]}"
        assert all(line.rstrip()[-1].isdigit() for line in lines), "no count is hidden"


async def test_a_result_row_aligns_its_lines_and_keeps_spaces_around_a_highlight() -> None:
    from rich.segment import Segment as RichSegment
    from textual.app import App, ComposeResult

    from index.models import Hit, Label, Paper, Segment, Snippet
    from tui.widgets.results_list import ResultsList

    paper = Paper(
        id="pipefill",
        title="PipeFill: Using GPUs During Bubbles",
        authors=("Daiyaan Arfeen",),
        year=2024,
        venue="MLSys",
        abstract="x",
        topics=(Label("training", "r"),),
    )
    hit = Hit(
        paper,
        1.0,
        title=Snippet(
            (Segment("PipeFill: Using "), Segment("GPUs", True), Segment(" During Bubbles"))
        ),
        snippet=Snippet((Segment("…can use "), Segment("GPUs", True), Segment(" in training"))),
    )

    class Harness(App[None]):
        def compose(self) -> ComposeResult:
            yield ResultsList(lambda facet, value: value.capitalize(), id="results")

    app = Harness()
    async with app.run_test(size=(60, 8)) as pilot:
        widget = app.query_one(ResultsList)
        widget.show_hits((hit,))
        await pilot.pause()
        lines = [widget.render_line(y) for y in range(4)]
        assert [line.text.rstrip() for line in lines] == [
            "▌  PipeFill: Using GPUs During Bubbles",  # the cursor's bar on every line of the card
            "▌  pipefill · Daiyaan Arfeen · 2024 · MLSys",  # no citation key: the id
            "▌   Training",
            "▌  …can use GPUs in training",
        ]
        # Screenshots keep the spaces around the highlighted word (tests/tui/svg.py).
        from tests.tui.svg import split_edge_spaces

        for line in lines:
            for segment in split_edge_spaces(line):
                assert isinstance(segment, RichSegment)
                text = segment.text
                assert text.strip(" ") in ("", text), repr(text)


async def test_no_results_say_what_was_tried_and_the_correction_names_the_remapped_key(
    engine: SearchEngine,
) -> None:
    """Nothing even fuzzily: the pane says what was tried, and no correction that would
    find nothing again is offered; a typo's correction names the user's key for it."""
    from textual.widgets import Static

    from tui.services.config import AppSettings, Config, save_config

    settings = AppSettings.from_environment()
    save_config(settings.config_path, Config(keymap={"accept_correction": "ctrl+g"}))
    app = build(engine, show_timings=False)
    async with app.run_test(size=NARROW) as pilot:
        await search(pilot, "trainng xqzvw")
        result = shown(app)
        assert result.total == 0 and result.correction is None
        assert "Fuzzy words found nothing either (trainng~ xqzvw~)." in results_text(app)
        status = str(app.main_screen.query_one("#status", Static).content)
        assert status.startswith("0 of 47 papers")
        await pilot.press("ctrl+u")
        await search(pilot, "trainng")
        status = str(app.main_screen.query_one("#status", Static).content)
        assert "ctrl+g: 'training'?" in status
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert shown(app).request.query == "training"


async def test_the_empty_detail_pane_explains_itself_without_empty_headings(
    engine: SearchEngine,
) -> None:
    from tui.widgets.detail_pane import DetailPane

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "xqzvwk")
        assert shown(app).total == 0
        text = screen_text(app)
        assert "No paper selected." in text and "Highlight a result" in text
        assert "Citation" not in text and "Linked versions" not in text
        await pilot.press(
            "backspace", "backspace", "backspace", "backspace", "backspace", "backspace"
        )
        await settle(pilot)
        assert app.main_screen.query_one(DetailPane).detail is not None
        assert app.main_screen.query_one("#detail-citation-title").display
        assert "No paper selected." not in screen_text(app)


async def test_escape_steps_back_and_an_empty_search_bar_returns_to_the_results(
    engine: SearchEngine,
) -> None:
    from tui.widgets.detail_pane import DetailPane
    from tui.widgets.search_bar import SearchBar

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "pipeline")
        bar = app.main_screen.query_one(SearchBar)
        await pilot.press("enter", "tab")  # to the results, then into the pane beside them
        await settle(pilot)
        assert app.main_screen.query_one(DetailPane).has_focus_within
        await pilot.press("escape")
        assert results(app).has_focus
        await pilot.press("escape")
        assert bar.has_focus and bar.value == "pipeline"
        await pilot.press("escape")
        await settle(pilot)
        assert bar.has_focus and bar.value == ""
        await pilot.press("escape")
        assert results(app).has_focus, "esc on an empty bar steps back to the results"


@pytest.mark.parametrize(
    "keys",
    [["enter", "enter"], ["enter", "j"], ["enter", "slash", "x"], ["escape", "g", "p", "u"]],
)
async def test_keys_that_arrive_in_one_read_each_reach_where_the_one_before_moved_the_focus(
    engine: SearchEngine, keys: list[str]
) -> None:
    """A terminal (tmux on a busy machine) delivers "enter enter" in one read: both keys are
    queued before the first is handled, so the second must see the focus the first set."""
    from textual import events

    from tui.screens.detail import DetailScreen
    from tui.widgets.search_bar import SearchBar

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "pipeline")
        assert len(shown(app).hits) > 1
        for key in keys:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settle(pilot)
        bar = app.main_screen.query_one(SearchBar)
        if keys == ["enter", "enter"]:
            assert isinstance(top_screen(app), DetailScreen), "the second enter opens the paper"
        elif keys == ["enter", "j"]:
            assert results(app).has_focus and results(app).cursor == 1
            assert bar.value == "pipeline"
        elif keys[0] == "enter":  # enter to the results, / back to the bar, x typed there
            assert bar.has_focus and bar.value == "pipelinex"
        else:  # esc empties the bar (the screen's binding), then a new query is typed
            assert bar.has_focus and bar.value == "gpu"
            assert shown(app).request.query == "gpu"


async def test_f1_opens_the_help_from_the_search_bar_where_question_mark_is_text(
    engine: SearchEngine,
) -> None:
    from tui.screens.dialogs import HelpScreen
    from tui.widgets.search_bar import SearchBar

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "F1 Help" in footer, footer
        await pilot.press("slash", "?")
        assert app.main_screen.query_one(SearchBar).value == "?"
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "Esc steps back one level" in screen_text(app)
        await pilot.press("f1")
        assert top_screen(app) is app.main_screen


async def test_the_first_index_build_shows_a_progress_bar(taxonomy: Any) -> None:
    import threading

    from textual.widgets import ProgressBar

    from index.library.load import load_library
    from tui.app import make_app
    from tui.services.config import AppSettings

    writing, release = threading.Event(), threading.Event()
    seen: list[tuple[float | None, float]] = []
    library = load_library(None, taxonomy)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=taxonomy)

    import index

    real_open = index.open_engine

    def slow_open(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        progress(10, 47)
        writing.wait(10)  # the UI must keep running while the build is held here
        progress(47, 47)  # every paper is in; the index is being written
        release.wait(10)
        return real_open(*args, progress=progress, **kwargs)

    index.open_engine = slow_open
    try:
        async with app.run_test(size=WIDE) as pilot:
            for _ in range(20):
                await pilot.pause(0.05)
                bar = app.main_screen.query_one("#index-progress", ProgressBar)
                if bar.display and bar.progress:
                    break
            seen.append((bar.total, bar.progress))
            assert bar.display and bar.region.height == 1
            assert "Building the search index" in results_text(app)
            await pilot.press("slash", "t", "r")  # typing still works during the build
            assert search_text(app) == "tr"
            assert "Indexing… 10 of 47 papers" in screen_text(app)
            writing.set()
            for _ in range(20):
                await pilot.pause(0.05)
                if bar.total is None:
                    break
            seen.append((bar.total, bar.progress))  # no count left: a bar that says "working"
            assert "Writing the index (47 papers)…" in screen_text(app)
            # An in-place update may index one paper: said in the singular.
            from tui.messages import IndexProgress

            for done, shown_text in (
                (0, "Indexing… 0 of 1 paper"),
                (1, "Writing the index (1 paper)…"),
            ):
                app.main_screen.post_message(IndexProgress(done, 1))
                await pilot.pause()
                assert shown_text in screen_text(app)
                assert "1 papers" not in screen_text(app)
            release.set()
            await settle(pilot)
            assert not bar.display and app.main_screen.result is not None
    finally:
        release.set()
        index.open_engine = real_open
    assert seen == [(47, 10), (None, 47)]


async def test_the_footer_offers_the_correction_and_clear_filters_only_when_they_apply(
    engine: SearchEngine,
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        footer = lambda: screen_text(app).splitlines()[-1]  # noqa: E731
        assert "Did you mean" not in footer() and "Clear filters" not in footer()
        await search(pilot, "trainng")
        assert "^y Did you mean" in footer()
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert "Did you mean" not in footer()
        panel = app.main_screen.query_one(FacetPanel)
        panel.focus()
        panel.cursor_line = facet_node(panel, "topic", "training").line
        await pilot.press("enter")
        await settle(pilot)
        assert "⏎ Select" in footer() and "x Clear filters" in footer()
        await pilot.press("x")
        await settle(pilot)
        assert shown(app).request.topics == frozenset()
        assert "Clear filters" not in footer()


async def test_moving_to_the_facets_lands_on_the_first_value(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("f")  # the results -> facet panel
        panel = app.main_screen.query_one(FacetPanel)
        assert panel.has_focus and panel.cursor_node is not None
        first = panel.cursor_node.data
        assert first is not None and first[0] == "topic" and first[1] is not None
        await pilot.press("enter")
        await settle(pilot)
        assert shown(app).request.topics == frozenset({first[1]})
