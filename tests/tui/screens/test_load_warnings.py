"""The app tells how many problems the library's files had, and lists them on request."""

from __future__ import annotations

from index.models import Library, LoadWarning, replace
from index.search.engine import SearchEngine
from index.text_safety import for_terminal
from tests.torture.hostile import EVIL_NAME, forbidden
from tests.tui.app_pilot import WIDE, all_notices, screen_text, settle
from tui.app import make_app
from tui.screens.warnings_dialog import LoadWarningsDialog
from tui.services.config import AppSettings


async def test_the_count_is_shown_and_the_palette_lists_every_problem(engine: SearchEngine) -> None:
    warnings = tuple(LoadWarning("refs.bib", f"problem [bold]{n}[/bold]", n) for n in range(1, 30))
    warnings += (LoadWarning(EVIL_NAME, "malformed BibTeX entry skipped", 30),)
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
        assert "refs.bib:29: problem [bold]29[/bold]" in text  # literal, never markup
        # A file name with escape sequences and bidi controls reaches the screen defused.
        assert for_terminal(EVIL_NAME) + ":30: malformed" in text
        assert forbidden(text) == [] and forbidden(screen_text(app)) == []
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LoadWarningsDialog)
