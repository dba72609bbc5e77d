"""Exporting the marked papers: the dialog that asks where, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from textual.widgets import Input, Static

from index.citations import format_citation
from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, all_notices, build, settle
from tui.app import PaperscopeApp
from tui.screens.export_dialog import ExportDialog, export_target


def test_export_target_resolves_what_the_user_types(tmp_path: Path) -> None:
    (tmp_path / "paper").mkdir()
    (tmp_path / "old.bib").write_text("x", encoding="utf-8")
    cases = {
        "refs.bib": tmp_path / "refs.bib",
        "refs": tmp_path / "refs.bib",  # the style's extension added
        "paper": tmp_path / "paper" / "marked.bib",  # a folder: a file inside it
        "paper/": tmp_path / "paper" / "marked.bib",
        "paper/cites.txt": tmp_path / "paper" / "cites.txt",  # the user's suffix is kept
        str(tmp_path / "old.bib"): tmp_path / "old.bib",
        "  refs.bib  ": tmp_path / "refs.bib",
    }
    for typed, expected in cases.items():
        assert export_target(typed, "bib", tmp_path) == expected, typed
    assert export_target("nope/refs.bib", "bib", tmp_path) == f"No such folder: {tmp_path / 'nope'}"
    assert export_target("", "bib", tmp_path) == "Type the path of the file to write."
    home = export_target("~/refs.bib", "bib", tmp_path)
    assert home == Path.home() / "refs.bib"


def dialog(app: PaperscopeApp) -> ExportDialog:
    assert isinstance(app.screen, ExportDialog)
    return app.screen


def message(app: PaperscopeApp) -> str:
    return str(dialog(app).query_one("#export-message", Static).render())


async def mark_two_and_export(pilot) -> None:
    await settle(pilot)
    await pilot.press("m", "j", "m", "e")  # the app starts on the results
    await settle(pilot)


async def test_export_asks_where_and_writes_there(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)
        path_input = dialog(app).query_one(Input)
        assert path_input.value == str(tmp_path / "marked.txt")  # APA is text
        assert dialog(app).query_one("#export-dialog").border_title == "Export 2 marked papers"
        await pilot.press("ctrl+u", *"paper/refs", "enter")  # no such folder yet
        await settle(pilot)
        assert message(app) == f"No such folder: {tmp_path / 'paper'}: enter again creates it."
        (tmp_path / "paper").mkdir()
        (tmp_path / "paper" / "refs.txt").write_text("my own notes\n", encoding="utf-8")
        await pilot.press("enter")
        await settle(pilot)
        assert message(app) == "refs.txt exists: enter again replaces it."
        assert (tmp_path / "paper" / "refs.txt").read_text(encoding="utf-8") == "my own notes\n"
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ExportDialog)
        papers = app.papers.by_id(app.marks.ids)
        written = (tmp_path / "paper" / "refs.txt").read_text(encoding="utf-8")
        assert written.strip() == format_citation(papers, "apa").strip()
        assert any(str(tmp_path / "paper" / "refs.txt") in n.message for n in all_notices(app))
        await pilot.press("e")  # the next export starts from the same file
        await settle(pilot)
        assert dialog(app).query_one(Input).value == str(tmp_path / "paper" / "refs.txt")


async def test_escape_writes_nothing(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ExportDialog)
        assert not (tmp_path / "marked.txt").exists()


async def test_a_file_that_cannot_be_written_is_one_message(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    def refuse(path: Path, text: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tui.screens.paper_actions.write_text_atomic", refuse)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)
        await pilot.press("enter")
        await settle(pilot)
        errors = [n.message for n in all_notices(app) if n.severity == "error"]
        assert errors == [f"Could not write {tmp_path / 'marked.txt'}: Permission denied"]
        assert app.screen is app.main_screen  # the app goes on


async def test_the_format_follows_the_file_name_and_ctrl_t_changes_it(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)

        def shown() -> str:
            return str(dialog(app).query_one("#export-format", Static).render())

        assert shown() == "Format: APA 7"
        await pilot.press("ctrl+u", *"new/refs.bib")
        assert shown() == "Format: BibTeX"
        await pilot.press("ctrl+t")  # the next format; the extension follows, nothing typed
        assert shown() == "Format: BibLaTeX"
        assert dialog(app).query_one(Input).value == "new/refs.bib"
        await pilot.press("ctrl+t")
        assert shown() == "Format: RIS" and dialog(app).query_one(Input).value == "new/refs.ris"
        await pilot.press("ctrl+u", *"new/refs.bib", "enter")  # the folder is missing: asks
        await settle(pilot)
        assert "enter again creates it" in message(app)
        await pilot.press("enter")
        await settle(pilot)
        written = (tmp_path / "new" / "refs.bib").read_text(encoding="utf-8")
        papers = app.papers.by_id(app.marks.ids)
        assert written.strip() == app.papers.format(papers, "bibtex").strip()
        assert written.lstrip().startswith("@")


async def test_yml_and_yaml_write_hayagriva_and_ctrl_t_reaches_it(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)

        def shown() -> str:
            return str(dialog(app).query_one("#export-format", Static).render())

        await pilot.press("ctrl+u", *"refs.yaml")
        assert shown() == "Format: Hayagriva (Typst)"
        await pilot.press("ctrl+u", *"refs.json", "ctrl+t")  # CSL-JSON, then the next one
        assert shown() == "Format: Hayagriva (Typst)"
        assert dialog(app).query_one(Input).value == "refs.yml"
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ExportDialog)
        papers = app.papers.by_id(app.marks.ids)
        data = yaml.safe_load((tmp_path / "refs.yml").read_text(encoding="utf-8"))
        assert list(data) == app.papers.format(papers, "key").splitlines()
        assert all(entry["title"] for entry in data.values())
        notices = [n.message for n in all_notices(app)]
        assert f"Exported 2 papers as Hayagriva (Typst) to {tmp_path / 'refs.yml'}" in notices


async def test_a_key_format_from_ctrl_t_writes_the_marked_papers_keys(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('latex_command = "citep"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)
        for _ in range(20):  # step through the formats to the LaTeX key format
            if "LaTeX" in str(dialog(app).query_one("#export-format", Static).render()):
                break
            await pilot.press("ctrl+t")
        assert str(dialog(app).query_one("#export-format", Static).render()) == (
            "Format: LaTeX \\citep"  # the config's command, as the style picker resolves it
        )
        assert dialog(app).query_one(Input).value == str(tmp_path / "marked.tex")
        await pilot.press("enter")
        await settle(pilot)
        papers = app.papers.by_id(app.marks.ids)
        keys = app.papers.format(papers, "key").splitlines()
        expected = "\\citep{" + ",".join(keys) + "}\n"
        assert (tmp_path / "marked.tex").read_text(encoding="utf-8") == expected


async def test_a_text_file_in_the_current_key_style_holds_one_key_a_line(
    engine: SearchEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('style = "key"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await mark_two_and_export(pilot)
        assert dialog(app).query_one(Input).value == str(tmp_path / "marked.txt")
        assert str(dialog(app).query_one("#export-format", Static).render()) == (
            "Format: citation key"
        )
        await pilot.press("enter")
        await settle(pilot)
        papers = app.papers.by_id(app.marks.ids)
        written = (tmp_path / "marked.txt").read_text(encoding="utf-8")
        assert written.splitlines() == app.papers.format(papers, "key").splitlines()
        assert len(written.splitlines()) == 2
