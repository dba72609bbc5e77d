"""`O` says truly whether the attached file opened (issue 46): "Opening flib.pdf" was said
when no opener could work (no display; `gio`, started without its `open` command, failed
quietly) and the path, which the README says is copied then, was not."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.facets.taxonomy import load_taxonomy
from index.models import Library, Paper, Source
from tests.tui.app_pilot import WIDE, all_notices, settle
from tests.tui.conftest import clipboard
from tui.app import make_app
from tui.services.config import AppSettings

__all__ = ["clipboard"]


def fake_opener(folder: Path, name: str, body: str) -> None:
    """A program `name` on PATH that records its arguments, then runs `body`."""
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(f'#!/bin/sh\necho "$@" >> "{folder}/calls"\n{body}\n', encoding="utf-8")
    script.chmod(0o755)


async def press_o(tmp_path: Path) -> tuple[list[str], Path]:
    """`O` on a paper with flib.pdf attached: the notices given, and the file."""
    pdf = tmp_path / "flib.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    paper = Paper(id="flib", title="Flib", attachments=(str(pdf),), sources=(Source("x.bib"),))
    settings = AppSettings(tmp_path / "config.toml", tmp_path / "data", tmp_path / "cache")
    app = make_app(settings, library=Library(papers=(paper,)), taxonomy=load_taxonomy())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        return [str(n.message) for n in all_notices(app)], pdf


@pytest.fixture
def desktop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A display, no SSH, and only the fake programs of `tmp_path/bin` on PATH."""
    for name in ("SSH_TTY", "SSH_CONNECTION", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tmp_path / "bin").mkdir()
    return tmp_path / "bin"


async def test_an_opener_that_fails_is_said_and_the_path_copied(
    tmp_path: Path, desktop: Path, clipboard: list[str]
) -> None:
    fake_opener(
        desktop,
        "gio",
        "echo \"gio: Failed to find default application for content type 'application/pdf'\""
        " >&2; exit 2",
    )
    notices, pdf = await press_o(tmp_path)
    assert (desktop / "calls").read_text().split() == ["open", str(pdf)]
    assert not any(m.startswith("Open") for m in notices), notices
    assert any(
        m.startswith("Could not open flib.pdf: gio failed (exit 2)")
        and "Failed to find default application" in m
        for m in notices
    ), notices
    assert clipboard == [str(pdf)]


async def test_an_opener_that_works_is_said_to_have_opened(
    tmp_path: Path, desktop: Path, clipboard: list[str]
) -> None:
    fake_opener(desktop, "xdg-open", "exit 0")
    notices, pdf = await press_o(tmp_path)
    assert (desktop / "calls").read_text().split() == [str(pdf)]
    assert "Opened flib.pdf" in notices, notices
    assert clipboard == []


async def test_no_display_copies_the_path_and_says_why(
    tmp_path: Path, desktop: Path, clipboard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY")
    fake_opener(desktop, "xdg-open", "exit 0")
    notices, pdf = await press_o(tmp_path)
    assert not (desktop / "calls").exists()  # never started
    assert any("no display" in m and str(pdf) in m for m in notices), notices
    assert clipboard == [str(pdf)]
