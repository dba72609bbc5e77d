"""The app with hostile links and a broken clipboard: nothing crashes, nothing is markup,
the UI never waits for a clipboard tool, and the user is told only what happened."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pyperclip
import pytest

from index.facets.taxonomy import load_taxonomy
from index.models import Paper, Source
from tests.torture.hostile import EVIL_TEXT, forbidden
from tests.tui.app_pilot import WIDE, all_notices, app_with, screen_text, search, settle
from tui.app import make_app
from tui.services.config import AppSettings

LINKS = {
    "markup": "https://example.org/[/bold]",
    "action": "[@click=app.quit]https://example.org[/]",
    "javascript": "javascript:alert(1)",
    "file": "file:///etc/passwd",
    "switch": "--remote-debugging-port=9222",
}


@pytest.fixture(autouse=True)
def no_ssh_no_tmux(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SSH_TTY", "SSH_CONNECTION", "TMUX", "DISPLAY"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("name", list(LINKS))
async def test_o_refuses_a_hostile_link_and_renders_it_literally(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(
        "tui.screens.paper_actions.launch_browser", lambda url, env: opened.append(url)
    )
    paper = Paper(
        id="quokka",
        title="Quokka links",
        url=LINKS[name],
        abstract="quokka " + EVIL_TEXT,
        sources=(Source("x.bib"),),
    )
    app = app_with(tmp_path, [paper])
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        await pilot.press("enter", "o")
        await settle(pilot)
        assert app.is_running  # `[@click=app.quit]` is no action, `[/bold]` no MarkupError
        messages = [str(n.message) for n in all_notices(app)]
        if name == "markup":  # a real https link: opened, and shown as typed
            assert opened == [LINKS[name]]
            assert any(LINKS[name] in m for m in messages)
        else:
            assert opened == []
            assert any(m.startswith("Not opening") for m in messages), messages
        assert forbidden(screen_text(app)) == []


async def test_no_browser_copies_the_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    monkeypatch.setattr(pyperclip, "paste", lambda: copied[-1] if copied else "")
    paper = Paper(id="quokka", title="Quokka", doi="10.1/q", sources=(Source("x.bib"),))
    app = app_with(tmp_path, [paper])
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        await pilot.press("enter", "o")
        await settle(pilot)
        messages = [str(n.message) for n in all_notices(app)]
    assert copied == ["https://doi.org/10.1/q"]
    assert any("No graphical browser" in m for m in messages), messages
    assert any("Copied link" in m for m in messages), messages


async def test_a_hanging_clipboard_never_freezes_the_ui(
    tmp_path: Path, hanging_clipboard: threading.Event
) -> None:
    paper = Paper(id="quokka", title="Quokka", sources=(Source("x.bib"),))
    app = app_with(tmp_path, [paper])
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        started = time.monotonic()
        await pilot.press("enter", "c", "j", "k")  # keys keep working while the copy waits
        copying = [w for w in app.workers if w.group == "copy" and w.is_running]
        assert copying, "the copy finished before the keys: it ran on the UI thread"
        assert time.monotonic() - started < 20
        await settle(pilot)
        hanging_clipboard.set()
        messages = [str(n.message) for n in all_notices(app)]
    assert not any(m.startswith("Copied") for m in messages), messages
    assert any(m.startswith("Sent") and "OSC 52" in m for m in messages), messages


@pytest.mark.parametrize("keys", [["q", "s"], ["q", "e"], ["m", "q", "e"], ["q", "question_mark"]])
async def test_quitting_while_a_dialog_opens_is_clean(tmp_path: Path, keys: list[str]) -> None:
    """A terminal delivers `q` and `s` typed at once in one read: both keys are queued
    before the first is handled (posting them both is what the driver does)."""
    from textual import events

    taxonomy = load_taxonomy()
    from index.library.load import load_library

    settings = AppSettings(tmp_path / "config.toml", tmp_path / "data", tmp_path / "cache")
    app = make_app(settings, library=load_library(None, taxonomy), taxonomy=taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        for key in keys:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause(0.3)
    assert app._exception is None


async def test_a_5_mb_abstract_shows_without_freezing(
    tmp_path: Path,
) -> None:
    import json

    from index.library.load import load_library

    source = tmp_path / "huge.jsonl"
    source.write_text(
        json.dumps({"title": "Quokka huge", "abstract": "quokka words " * 400_000}) + "\n",
        encoding="utf-8",
    )
    taxonomy = load_taxonomy()
    library = load_library([source], taxonomy)
    assert any("cut to" in str(w) for w in library.warnings)
    settings = AppSettings(tmp_path / "config.toml", tmp_path / "data", tmp_path / "cache")
    app = make_app(settings, library=library, taxonomy=taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        started = time.monotonic()
        await pilot.press("enter")
        await settle(pilot)
        elapsed = time.monotonic() - started
        assert "Quokka huge" in screen_text(app)
    assert elapsed < 5, elapsed
