"""`paperscope pick` and the yank-key action: what the app returns, what the command prints."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from index.citations import format_citation
from index.citations.csl import CSL_DIR
from index.search.engine import SearchEngine
from tests.tui.app_pilot import (
    WIDE,
    all_notices,
    build,
    highlighted_option,
    known,
    plain,
    screen_text,
    search,
    settle,
)
from tui.cli import main, pick_cmd
from tui.pick_mode import PickApp
from tui.services.config import AppSettings, load_config
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar


def picker(engine: SearchEngine, style: str = "key") -> PickApp:
    return PickApp(AppSettings.from_environment(), engine.taxonomy, engine=engine, pick_style=style)


async def test_enter_in_the_search_bar_moves_on_and_enter_on_a_result_picks(
    engine: SearchEngine,
) -> None:
    app = picker(engine, "pandoc")
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        assert "esc Cancel" in screen_text(app).splitlines()[-1]
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running and isinstance(app.focused, ResultsList)
        footer = screen_text(app).splitlines()[-1]  # the footer shows the focused widget's keys
        assert "Pick" in footer and "esc Cancel" in footer
        await pilot.press("enter")
        await settle(pilot)
    assert app.return_value == "[@jiang2024dynapipe]" and app.return_code == 0


async def test_marked_papers_are_picked_together_and_marks_are_not_saved(
    engine: SearchEngine, isolated_dirs: Path
) -> None:
    app = picker(engine, "latex:citep")
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "m")
        bar = app.main_screen.query_one(SearchBar)
        bar.value = "sam-med"
        await settle(pilot)
        await pilot.press("r", "m", "enter")
        await settle(pilot)
    assert app.return_value == "\\citep{jiang2024dynapipe,wang2023sammed}"
    assert not (isolated_dirs / "data" / "marks.json").exists()


@pytest.mark.parametrize("key", ["escape", "q"])
async def test_escape_or_q_cancels_with_nothing_returned(engine: SearchEngine, key: str) -> None:
    app = picker(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("tab", key)
        await settle(pilot)
    assert app.return_value is None and app.return_code == 1


async def test_dialogs_keep_their_enter_and_escape(engine: SearchEngine) -> None:
    app = picker(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "s")
        await settle(pilot)
        await pilot.press("escape")  # closes the style picker, does not cancel the pick
        await settle(pilot)
        assert app.is_running and app.screen is app.main_screen
        await pilot.press("question_mark")
        await settle(pilot)
        from textual.widgets import Static

        from tui.screens.dialogs import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        help_text = plain(app.screen.query_one("#help-body Static", Static).content, width=200)
        assert "Print the citation" in help_text and "Leave without printing" in help_text
        assert "cancel_pick" in help_text  # the ids are listed once, for the keymap
        await pilot.press("escape", "enter")
        await settle(pilot)
    assert app.return_value == "jiang2024dynapipe"


def test_the_command_prints_the_pick_on_stdout_and_nothing_when_cancelled(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real command on the bundled corpus; only the terminal is replaced by a headless run."""
    apps: list[PickApp] = []

    def headless(keys: tuple[str, ...]) -> Any:
        async def script(pilot: Pilot[Any]) -> None:
            app = pilot.app
            assert isinstance(app, PickApp)
            apps.append(app)
            for _ in range(400):  # the index is built first, in the cache under tmp
                await pilot.pause(0.05)
                result = app.main_screen.result
                if result is not None and result.request.query == "dynapipe":
                    break
            await settle(pilot)
            await pilot.press(*keys)

        return lambda app: app.run(headless=True, size=WIDE, auto_pilot=script)

    monkeypatch.setattr(pick_cmd, "run", headless(("enter", "enter")))
    assert main(["pick", "--style", "latex:citep", "dynapipe"]) == 0
    assert capsys.readouterr().out == "\\citep{jiang2024dynapipe}\n"

    monkeypatch.setattr(pick_cmd, "run", headless(("escape",)))
    assert main(["pick", "dynapipe"]) == 1
    assert capsys.readouterr().out == ""
    # The first pick built the index and loaded the library; the second found it current.
    assert [app.library is None for app in apps] == [False, True]


async def test_y_copies_keys_in_the_last_key_format_picked(
    engine: SearchEngine, clipboard: list[str], isolated_dirs: Path
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "y")
        await settle(pilot)
        assert clipboard == ["jiang2024dynapipe"]  # the default key format: the key alone
        for style in ("typst", "ieee"):  # a key format, then a formatted style
            await pilot.press("s")
            await settle(pilot)
            while highlighted_option(app).id != style:
                await pilot.press("down")
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("y", "c")
        await settle(pilot)
        paper = known(engine, "dynapipe")
        assert clipboard[1:] == ["@jiang2024dynapipe", format_citation([paper], "ieee")]
        config = load_config(isolated_dirs / "config" / "config.toml")[0]
        assert (config.style, config.key_style) == ("ieee", "typst")


async def test_a_users_csl_style_is_in_the_picker_with_its_title(
    engine: SearchEngine, isolated_dirs: Path, clipboard: list[str]
) -> None:
    styles = isolated_dirs / "config" / "styles"
    styles.mkdir(parents=True)
    shutil.copy(CSL_DIR / "ieee.csl", styles / "my-ieee.csl")
    (styles / "broken.csl").write_text("not xml", encoding="utf-8")
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        notes = [note.message for note in all_notices(app)]
        assert f"{styles / 'broken.csl'}: not a CSL style (XML error at line 1)" in notes
        await pilot.press("enter", "s")
        await settle(pilot)
        while highlighted_option(app).id != "my-ieee":
            await pilot.press("down")
        assert "IEEE Reference Guide" in str(highlighted_option(app).prompt)
        await pilot.press("enter", "c")
        await settle(pilot)
    assert clipboard == [format_citation([known(engine, "dynapipe")], "ieee")]


def test_pick_takes_the_users_own_key_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`paperscope pick Doe:78`: the key from the user's file starts the pick on that paper."""
    (tmp_path / "k.bib").write_text(
        "@article{Doe:78, author = {Doe, Jane}, title = {Weaving}, year = 1978, journal = {K}}\n"
        "@article{Doe:79, author = {Doe, Jane}, title = {Doe:78 Revisited}, year = 1979,"
        " journal = {K}}\n"
    )

    async def script(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, PickApp)
        for _ in range(400):  # the index is built first, in the cache under tmp
            await pilot.pause(0.05)
            result = app.main_screen.result
            if result is not None and result.request.query == "Doe:78":
                break
        await settle(pilot)
        await pilot.press("enter", "enter")

    monkeypatch.setattr(
        pick_cmd, "run", lambda app: app.run(headless=True, size=WIDE, auto_pilot=script)
    )
    assert main(["--corpus", str(tmp_path / "k.bib"), "pick", "--style", "apa", "Doe:78"]) == 0
    assert capsys.readouterr().out.startswith("Doe, J. (1978). Weaving.")
