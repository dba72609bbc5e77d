"""The app tells how many problems the library's files had, and lists them on request."""

from __future__ import annotations

from index.models import Library, LoadWarning, replace
from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, all_notices, settle
from tui.app import make_app
from tui.screens.warnings_dialog import LoadWarningsDialog
from tui.services.config import AppSettings


async def test_the_count_is_shown_and_the_palette_lists_every_problem(engine: SearchEngine) -> None:
    warnings = tuple(LoadWarning("refs.bib", f"problem [bold]{n}[/bold]", n) for n in range(1, 31))
    library = (
        replace(engine.library, warnings=warnings)
        if hasattr(engine, "library")
        else Library(papers=(), warnings=warnings)
    )
    app = make_app(AppSettings.from_environment(), engine=engine, library=library)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        notices = [n.message for n in all_notices(app)]
        assert any(m.startswith("30 problems in your files") for m in notices)
        await app.run_action("show_load_warnings")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LoadWarningsDialog)
        text = str(dialog.query_one("#warnings-text").render())
        assert "refs.bib:30: problem [bold]30[/bold]" in text  # literal, never markup
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LoadWarningsDialog)
