"""SVG snapshots of the main screens at fixed sizes, theme and data.

Each picture is of the real app on the bundled corpus, after every worker has finished and
with the per-search timing hidden, so it only changes when the rendering does. Update them
on purpose with `pytest --snapshot-update` and look at the report before committing.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, build, settle
from tests.tui.svg import keep_svg_spaces  # noqa: F401 - a fixture, used below

NARROW = (80, 24)
pytestmark = pytest.mark.usefixtures("keep_svg_spaces")


def _app(engine: SearchEngine) -> Any:
    app = build(engine, show_timings=False)
    app.theme = "textual-dark"
    return app


def _typing(query: str, *then: str) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if query:
            await pilot.press("slash", *query)
            await settle(pilot)
        if then:
            await pilot.press(*then)
            await settle(pilot)

    return run_before


async def _settled(pilot: Pilot[Any]) -> None:
    await settle(pilot)


def test_main_screen(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_settled)


def test_main_screen_with_a_query(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_typing("pipeline"))


def test_detail_view(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(
        _app(engine), terminal_size=WIDE, run_before=_typing("micro-batching", "enter", "enter")
    )


def test_style_picker(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(
        _app(engine), terminal_size=WIDE, run_before=_typing("dynapipe", "tab", "s")
    )


def test_style_picker_80x24_shows_the_preview(snap_compare: Any, engine: SearchEngine) -> None:
    """A short terminal: the list scrolls so the preview has room (it had none)."""
    assert snap_compare(
        _app(engine), terminal_size=NARROW, run_before=_typing("dynapipe", "tab", "s", "j")
    )


def test_no_results(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_typing("trainng xqzv"))


def test_narrow_80x24(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=NARROW, run_before=_typing("gpu"))


def test_help_screen(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_typing("", "f1"))


def test_no_results_80x24(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=NARROW, run_before=_typing("trainng xqzv"))


def test_compact_view(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_typing("", "v"))


def test_detail_shows_the_abstract_at_80x24(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(
        _app(engine), terminal_size=NARROW, run_before=_typing("dynapipe", "enter", "enter")
    )


def test_help_screen_80x24(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=NARROW, run_before=_typing("", "question_mark"))
