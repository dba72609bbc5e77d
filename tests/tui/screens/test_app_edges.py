"""Pilot tests for the last rough edges: pane widths, the marked paper's title, the facet
toggle's own module, and a phrase being typed without a warning per keystroke."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import OptionList, Static

import tui.widgets.status_line as status_module
from index.models import SearchRequest
from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, build, results_text, screen_text, search, settle
from tui.view.filters import toggle_value, without_selection
from tui.widgets.detail_pane import DetailPane

NARROW = (80, 24)


def status(app: Any) -> str:
    return str(app.main_screen.query_one("#status", Static).content)


@pytest.mark.parametrize("width", [100, 120, 149, 160, 200])
async def test_the_results_get_the_most_room(engine: SearchEngine, width: int) -> None:
    app = build(engine)
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        screen = app.main_screen
        widths = {
            name: screen.query_one(f"#{name}").outer_size.width
            for name in ("facets", "results-column", "detail")
        }
        if width < 110:
            assert widths["detail"] == 0 or not screen.query_one("#detail").display
        else:
            assert widths["results-column"] > max(widths["facets"], widths["detail"]), widths
        assert widths["results-column"] >= 50, widths


async def test_the_detail_pane_says_when_the_paper_is_marked(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "tab")  # to the results, then into the side pane
        await settle(pilot)
        pane = app.main_screen.query_one(DetailPane)
        assert pane.border_title == "Paper"
        await pilot.press("m")
        await settle(pilot)
        assert "marked" in str(pane.border_title) and pane.has_class("-marked")
        assert "● marked" in screen_text(app)
        await pilot.press("m")
        assert pane.border_title == "Paper"


async def test_the_full_screen_detail_says_when_the_paper_is_marked(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert app.screen.id == "detail-screen"
        pane = app.screen.query_one(DetailPane)
        assert pane.border_title == "Paper"
        await pilot.press("m")
        assert "● marked" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert "●" in results_text(app), "the results underneath show the mark too"
        await pilot.press("enter")
        await settle(pilot)
        assert "● marked" in str(app.screen.query_one(DetailPane).border_title)


async def test_the_style_list_starts_with_its_first_style(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("tab", "s")
        await settle(pilot)
        styles = app.screen.query_one("#style-list", OptionList)
        assert styles.styles.border_top[0] in ("", "none")
        assert styles.region.height == styles.option_count, "no blank row above or below"


def test_a_click_folds_typed_values_of_the_same_facet_into_the_selection() -> None:
    request = SearchRequest(query="kv cache topic:training hw:gpu", topics=frozenset({"inference"}))
    toggled = toggle_value(request, "topic", "compilers")
    assert toggled.query == "kv cache hw:gpu"
    assert toggled.topics == {"training", "inference", "compilers"}
    assert toggle_value(toggled, "topic", "training").topics == {"inference", "compilers"}
    assert toggle_value(request, "year", "2024").years == {2024}
    assert toggle_value(request, "year", "2024").query == request.query, "no typed year: text stays"
    cleared = without_selection(toggled)
    assert cleared.query == toggled.query and not cleared.filter_count


async def test_typing_a_phrase_shows_no_warning_while_typing(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(status_module, "NOTICE_PAUSE", 60)  # the user never pauses here
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        for key in '"mixture of ex':
            await pilot.press(key)
            await settle(pilot)
            assert "quote" not in status(app).lower() and "parse" not in status(app).lower()
        text = results_text(app)  # the last word is a prefix: the paper shows already
        assert "Mixture-of-Experts" in text and "Did you mean" not in text
        await pilot.press(*'perts"')
        await settle(pilot)
        assert "quote" not in status(app).lower() and "Mixture" in results_text(app)


async def test_a_pause_in_typing_brings_the_notice(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(status_module, "NOTICE_PAUSE", 0.2)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, '"mixture of ex')
        await pilot.pause(0.5)
        assert "Open quote: searched as a phrase, its last word as a prefix" in status(app)
        await search(pilot, " ")  # a trailing space: no word being typed any more
        await pilot.pause(0.5)
        assert "Unclosed quote" in status(app)


async def test_enter_shows_the_notice_at_once(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(status_module, "NOTICE_PAUSE", 60)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "foo AND")
        assert "parse" not in status(app)
        await pilot.press("enter")
        await settle(pilot)
        assert "Could not parse the query" in status(app)
        await pilot.press("j")  # moving the cursor keeps the notice (no new query)
        await settle(pilot)
        assert "Could not parse the query" in status(app)


async def test_widening_the_terminal_fills_the_detail_pane(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter")  # to the results; narrow, so the pane stays empty
        await settle(pilot)
        await pilot.resize_terminal(*WIDE)
        await settle(pilot)
        detail = app.main_screen.query_one(DetailPane).detail
        assert detail is not None and detail.paper.id == "dynapipe"
