"""`paperscope pick` and its streams (issue 46): into a program it prints only the
citation (Vim's `:r !` reads stderr too, so load problems and style warnings were pasted
into the manuscript; the app still has them to show, and `paperscope check` lists them);
with stdin closed (`<&-`) it and the other commands that ask the terminal say so in one
line instead of an AttributeError."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.app_pilot import WIDE, settle
from tui.cli import main, pick_cmd
from tui.pick_mode import PickApp

BIB = (
    "@article{quokka2020, author = {Doe, Jane}, title = {Quokka pipelines}, year = 2020,"
    " journal = {K}}\n"
    "@article{half,\n  title = {A half-written entry\n"
)


@pytest.fixture
def warnings_everywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A .bib with a half-written entry and an unusable .csl among the user's styles."""
    monkeypatch.setenv("PAPERSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERSCOPE_CONFIG", str(tmp_path / "config" / "config.toml"))
    styles = tmp_path / "config" / "styles"
    styles.mkdir(parents=True)
    (styles / "broken.csl").write_text("<style><not closed", encoding="utf-8")
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    return bib


def test_pick_into_a_program_prints_only_the_citation(
    warnings_everywhere: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    apps: list[PickApp] = []

    async def script(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, PickApp)
        apps.append(app)
        for _ in range(400):  # the index is built first, in the cache under tmp
            await pilot.pause(0.05)
            result = app.main_screen.result
            if result is not None and result.request.query == "quokka":
                break
        await settle(pilot)
        await pilot.press("enter", "enter")

    monkeypatch.setattr(
        pick_cmd, "run", lambda app: app.run(headless=True, size=WIDE, auto_pilot=script)
    )
    corpus = ["--corpus", str(warnings_everywhere)]
    assert main([*corpus, "pick", "--style", "latex", "quokka"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "\\cite{quokka2020}\n"
    assert captured.err == ""
    # The app has both problems to show: its settings notices and its load problems.
    assert any("broken.csl" in warning for warning in apps[0]._warnings), apps[0]._warnings
    assert any("refs.bib" in str(warning) for warning in apps[0].load_warnings)

    assert main([*corpus, "check"]) != 0
    listed = capsys.readouterr().out
    assert "refs.bib" in listed, listed


@pytest.mark.parametrize(
    "argv",
    [["pick"], [], ["export", "x", "-o", "missing/folder/x.bib"]],
    ids=["pick", "the app", "export asking to create a folder"],
)
def test_stdin_closed_is_one_line(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAPERSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERSCOPE_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setattr("sys.stdin", None)  # what Python makes of a closed descriptor 0
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperscope: "), lines
    assert "Traceback" not in lines[0]
