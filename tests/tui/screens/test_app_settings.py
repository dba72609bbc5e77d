"""The app and the user's files: a broken config, a remapped key, history, the style picker."""

from __future__ import annotations

from pathlib import Path

import pyperclip
import pytest
from textual.widgets import Static, TextArea

from index.citations import format_citation
from tests.tui.app_pilot import (
    WIDE,
    all_notices,
    build,
    highlighted_option,
    plain,
    results,
    search,
    settle,
)
from tui.screens.dialogs import HelpScreen
from tui.services.config import load_config
from tui.widgets.search_bar import SearchBar


def config_path(isolated_dirs: Path) -> Path:
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


async def test_corrupt_config_gives_defaults_a_warning_and_stays_untouched(
    engine, isolated_dirs: Path
) -> None:
    path = config_path(isolated_dirs)
    text = 'style = "ieee"\n[keymap\n'
    path.write_text(text, encoding="utf-8")
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.style == "apa"
        warnings = [n.message for n in all_notices(app) if n.severity == "warning"]
        assert any(str(path) in w and "line 2" in w for w in warnings), warnings
        # Picking a style does not overwrite the user's broken file.
        await pilot.press("enter", "s", "down", "enter")
        await settle(pilot)
        assert app.style != "apa"
    assert path.read_text(encoding="utf-8") == text


async def test_a_remapped_key_does_the_action_and_the_old_key_does_not(
    engine, clipboard: list[str], isolated_dirs: Path
) -> None:
    config_path(isolated_dirs).write_text('[keymap]\ncopy_citation = "z"\n', encoding="utf-8")
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "c")
        await settle(pilot)
        assert clipboard == []
        await pilot.press("z")
        await settle(pilot)
        assert clipboard == [format_citation([engine.paper("dynapipe")], "apa")]
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        help_text = plain(app.screen.query_one("#help-body Static", Static).content, width=200)
        assert "Query syntax" in help_text
        row = next(line for line in help_text.splitlines() if "Copy the paper's citation" in line)
        assert row.split()[0] == "z"
        assert (
            "[copy_citation]" not in help_text and "copy_citation" in help_text
        )  # ids listed once


async def test_history_persists_between_sessions(engine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter")
        await settle(pilot)
    again = build(engine)
    async with again.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "up")
        await settle(pilot)
        assert again.main_screen.query_one(SearchBar).value == "dynapipe"
        assert results(again).hits[0].paper.id == "dynapipe"
        await pilot.press("down")  # back to the (empty) draft
        assert again.main_screen.query_one(SearchBar).value == ""
        # Down again leaves the bar for the results, keeping the query like enter does.
        await search(pilot, "pipefill")
        await pilot.press("down")
        assert results(again).has_focus
        assert again.history.entries == ("dynapipe", "pipefill")


async def test_the_style_picker_previews_and_remembers(
    engine, isolated_dirs: Path, clipboard: list[str]
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "s")
        await pilot.pause()
        paper = engine.paper("dynapipe")
        for _ in range(10):
            if highlighted_option(app).id == "ieee":
                break
            await pilot.press("down")
        # The preview is rendered in a worker (pandoc may take a moment): wait for it.
        wanted = format_citation([paper], "ieee").strip()
        for _ in range(100):
            preview = str(app.screen.query_one("#style-preview").render())
            if preview.strip() == wanted:
                break
            await pilot.pause(0.05)
        assert preview.strip() == wanted
        await pilot.press("enter")
        await settle(pilot)
        assert app.style == "ieee"
        citation = str(app.screen.query_one("#detail-citation", Static).content)
        assert format_citation([paper], "ieee") in citation and "IEEE" in citation
        assert load_config(isolated_dirs / "config" / "config.toml")[0].style == "ieee"
        await pilot.press("c")
        await settle(pilot)
        assert clipboard == [format_citation([paper], "ieee")]


async def test_copy_without_any_clipboard_shows_the_text_and_the_saved_file(
    engine, monkeypatch: pytest.MonkeyPatch, isolated_dirs: Path
) -> None:
    def fail(text: str) -> None:
        raise pyperclip.PyperclipException("no copy mechanism")

    monkeypatch.setattr(pyperclip, "copy", fail)
    # The terminal clipboard refuses it too (as for a text over the OSC 52 size cap).
    monkeypatch.setattr("tui.services.clipboard.osc52_sequence", lambda text, tmux=False: None)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "c")
        await settle(pilot)
        expected = format_citation([engine.paper("dynapipe")], "apa")
        assert app.screen.query_one("#copy-text", TextArea).text == expected
        saved = isolated_dirs / "data" / "clipboard.txt"
        assert str(saved) in str(app.screen.query_one("#copy-message").render())
        assert saved.read_text(encoding="utf-8").strip() == expected.strip()


async def test_the_theme_comes_from_the_config_and_a_new_one_is_saved(
    engine, isolated_dirs: Path
) -> None:
    config_path(isolated_dirs).write_text('theme = "nord"\nstyle = "mla"\n', encoding="utf-8")
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.theme == "nord" and app.style == "mla"
        app.theme = "gruvbox"
        await settle(pilot)
    saved = load_config(isolated_dirs / "config" / "config.toml")[0]
    assert (saved.theme, saved.style) == ("gruvbox", "mla")


async def test_bibtex_keys_match_the_command_line(
    engine, clipboard: list[str], isolated_dirs: Path, taxonomy
) -> None:
    from index.citations import citation_keys
    from index.library.load import load_library

    config_path(isolated_dirs).write_text('style = "bibtex"\n', encoding="utf-8")
    library = load_library(None, taxonomy)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "c")
        await settle(pilot)
    keys = citation_keys(library.papers)
    assert clipboard == [format_citation([engine.paper("dynapipe")], "bibtex", keys=keys)]
    assert "@" in clipboard[0] and keys["dynapipe"] in clipboard[0]
