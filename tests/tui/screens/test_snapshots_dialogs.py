"""SVG snapshots of the modal dialogs, each opened by its key as a user would open it.

Same conditions as test_snapshots.py (bundled corpus, fixed size and theme, workers
settled). Toasts are cleared before the dialog opens: what is under test is the dialog. The
export dialog has its own tests with its owner.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.models import LoadWarning, replace
from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, build, settle
from tests.tui.svg import keep_svg_spaces  # noqa: F401 - a fixture, used below
from tui.app import make_app
from tui.services.config import AppSettings

NARROW = (80, 24)
pytestmark = pytest.mark.usefixtures("keep_svg_spaces")


def _app(engine: SearchEngine, **options: Any) -> Any:
    app = (
        make_app(AppSettings.from_environment(), engine=engine, show_timings=False, **options)
        if options
        else build(engine, show_timings=False)
    )
    app.theme = "textual-dark"
    return app


async def _without_toasts(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()
    await pilot.pause()


def _keys(*keys: str, query: str = "") -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if query:
            await pilot.press("slash", *query, "enter")
            await settle(pilot)
        for key in keys[:-1]:
            await pilot.press(key)
            await settle(pilot)
        # Before the dialog opens: the screen under it keeps the toasts it had.
        await _without_toasts(pilot)
        await pilot.press(keys[-1])
        await settle(pilot)

    return run_before


def test_tag_dialog(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_keys("t", query="dynapipe"))


def test_status_picker(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_keys("R", query="dynapipe"))


def test_status_picker_on_marked_papers_80x24(snap_compare: Any, engine: SearchEngine) -> None:
    keys = ("m", "j", "m", "R", "3", "j", "m", "R")  # two reading, one unread
    assert snap_compare(_app(engine), terminal_size=NARROW, run_before=_keys(*keys))


def test_save_search_dialog(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_keys("w", query="pipeline"))


def test_saved_searches_dialog(snap_compare: Any, engine: SearchEngine) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for query, name in (("pipeline", "pipelines"), ("hw:gpu quant*", "GPU quantization")):
            await pilot.press("slash", "ctrl+u", *query, "enter")
            await settle(pilot)
            await pilot.press("w", "ctrl+u", *name, "enter")
            await settle(pilot)
        await _without_toasts(pilot)
        await pilot.press("W")
        await settle(pilot)

    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=run_before)


def test_load_warnings_dialog(snap_compare: Any, engine: SearchEngine, taxonomy: Taxonomy) -> None:
    warnings = (
        LoadWarning("refs.bib", "entry without a key; skipped", 120),
        LoadWarning("refs.bib", "unknown macro \\foo kept as its name", 342),
        LoadWarning("reading.ris", "a record without a title; skipped", 18),
    )
    library = replace(load_library(None, taxonomy), warnings=warnings)

    async def run_before(pilot: Pilot[Any]) -> None:
        await _without_toasts(pilot)
        await pilot.app.run_action("show_load_warnings")
        await settle(pilot)

    app = _app(engine, library=library)
    assert snap_compare(app, terminal_size=WIDE, run_before=run_before)


def test_clear_marks_confirmation(snap_compare: Any, engine: SearchEngine) -> None:
    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=_keys("m", "j", "m", "X"))


def test_copy_fallback(snap_compare: Any, engine: SearchEngine) -> None:
    from tui.screens.dialogs import CopyFallback

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        paper = engine.paper("dynapipe")
        assert paper is not None
        message = (
            "No clipboard available (no clipboard tool; not in tmux; no terminal to send "
            "OSC 52 to); saved the citation to ~/.local/share/paperscope/last-copy.txt"
        )
        pilot.app.push_screen(CopyFallback(f"{paper.title}. {paper.venue}, {paper.year}.", message))
        await settle(pilot)

    assert snap_compare(_app(engine), terminal_size=WIDE, run_before=run_before)
