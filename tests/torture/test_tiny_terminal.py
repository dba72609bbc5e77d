"""A terminal resized below a usable size (1x1, 10x3) shows one line, "terminal too
small", and the app comes back whole when it grows again (issue 46: 1x1 killed the app
with an error from the layout: the detail pane's option list wrapped at width zero)."""

from __future__ import annotations

from pathlib import Path

from index.models import Paper, Source
from tests.tui.app_pilot import app_with, screen_text, search, settle
from tui.app import PaperscopeApp
from tui.screens.dialogs import HelpScreen
from tui.screens.too_small import TooSmallScreen

PAPER = Paper(
    id="quokka",
    title="Quokka pipelines",
    year=2020,
    abstract="Quokka pipelines scheduled on many devices. " * 20,
    sources=(Source("x.bib"),),
)
# Papers like it: the detail lists them, in the option list that broke the layout at 1x1.
SIMILAR = [
    Paper(
        id=f"wombat{n}",
        title=f"Wombat pipelines {n}",
        year=2021,
        abstract="Wombat and quokka pipelines scheduled on many devices. " * 10,
        sources=(Source("x.bib"),),
    )
    for n in range(3)
]


def assert_one_line(app: PaperscopeApp, width: int, height: int) -> None:
    assert app.is_running and app._exception is None
    assert isinstance(app.screen, TooSmallScreen)
    first, *rest = screen_text(app).splitlines()
    assert all(not line.strip() for line in rest)  # one line
    said = "Terminal too small: "
    assert first.startswith(said[: width - 1]), first  # cut to the width
    if width >= 30:
        assert first.startswith(f"{said}{width}x{height}"), first


async def test_too_small_then_usable_again_in_the_detail_and_a_dialog(tmp_path: Path) -> None:
    app = app_with(tmp_path, [PAPER, *SIMILAR])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        await pilot.press("enter")  # the detail, with its option lists
        await settle(pilot)
        assert "Wombat pipelines" in screen_text(app)  # the similar papers
        for width, height in [(1, 1), (10, 3), (30, 8)]:
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            assert_one_line(app, width, height)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert "Quokka pipelines" in screen_text(app)  # the detail as it was
        await pilot.press("f1")
        await settle(pilot)
        await pilot.resize_terminal(1, 1)
        await settle(pilot)
        assert_one_line(app, 1, 1)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")  # the help closes on the detail, which still works
        await pilot.press("escape")
        await settle(pilot)
        assert "Quokka pipelines" in screen_text(app)
        assert app._exception is None


async def test_started_in_a_1x1_terminal(tmp_path: Path) -> None:
    app = app_with(tmp_path, [PAPER])
    async with app.run_test(size=(1, 1)) as pilot:
        await settle(pilot)
        assert_one_line(app, 1, 1)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await search(pilot, "quokka")
        assert "Quokka pipelines" in screen_text(app)
        assert app._exception is None
