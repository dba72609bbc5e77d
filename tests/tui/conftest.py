"""Keeps every TUI test inside tmp folders, with a clipboard and terminal it controls,
and shares one index of the bundled corpus between the app tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pyperclip
import pytest
from textual import events
from textual.notifications import Notification, Notifications
from textual.widgets import Input

from index import open_engine
from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.search.engine import SearchEngine
from tests.tui.css_parses import shared_css_parses
from tests.tui.frames import defer_headless_frames
from tests.tui.idle import quick_idle

__all__ = ["defer_headless_frames", "quick_idle", "shared_css_parses"]


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point config, data and cache at tmp, and forget SSH/tmux so copies take one path."""
    monkeypatch.setenv("PAPERSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERSCOPE_CONFIG", str(tmp_path / "config" / "config.toml"))
    for variable in ("SSH_TTY", "SSH_CONNECTION", "TMUX"):
        monkeypatch.delenv(variable, raising=False)
    yield tmp_path


@pytest.fixture(autouse=True)
def _headless_frames(defer_headless_frames: None) -> None:
    """Headless test apps draw when a test settles, not at 60 fps (tests/tui/frames.py)."""


@pytest.fixture(autouse=True)
def _shared_css(shared_css_parses: None) -> None:
    """Test apps parse each CSS once per process, not once per app (tests/tui/css_parses.py)."""


@pytest.fixture(autouse=True)
def _quick_idle(quick_idle: None) -> None:
    """Pilot's idle checks look every 5 ms, not every 20 ms (tests/tui/idle.py)."""


@pytest.fixture(autouse=True)
def notice_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every notification an app was given, for `app_pilot.all_notices`.

    Textual drops a notification from `app._notifications` once its timeout passes; on a
    loaded machine a Pilot test can take longer than a notice's 8 s, and then reading them
    there finds nothing. The toasts on screen still expire as they do for a user.
    """
    original = Notifications.add

    def add(self: Notifications, notification: Notification) -> Notifications:
        self.__dict__.setdefault("seen", []).append(notification)
        return original(self, notification)

    monkeypatch.setattr(Notifications, "add", add)


@pytest.fixture(autouse=True)
def steady_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text field's cursor stays lit instead of blinking, in every test app.

    A blink every 0.5 s made a dialog's screenshot differ by one cell whenever a loaded
    machine took the picture on the other half of the cycle.
    """
    original = Input._on_mount

    def on_mount(self: Input, event: events.Mount) -> None:
        self.cursor_blink = False
        original(self, event)

    monkeypatch.setattr(Input, "_on_mount", on_mount)


@pytest.fixture(scope="session")
def engine(taxonomy: Taxonomy, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    """One index of the bundled corpus for the whole session: building it per test is waste."""
    library = load_library(None, taxonomy)
    engine = open_engine(library, taxonomy, tmp_path_factory.mktemp("engine-cache"))
    yield engine
    engine.close()


@pytest.fixture
def clipboard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """pyperclip that works and records what it was given."""
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    monkeypatch.setattr(pyperclip, "paste", lambda: copied[-1] if copied else "")
    return copied


@pytest.fixture
def hanging_clipboard(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """pyperclip whose `copy` hangs until the returned event is set (or 30 s pass).

    At teardown the copy is released and its thread waited for. Released, it reads back
    through `paste`, faked here too: pyperclip's own is a lazy stub that rebinds
    `pyperclip.copy` and `paste` at module level, and run late it overwrote the next test's
    patches (test_escape_sequences_never_reach_the_clipboard once copied nothing in CI).
    """
    release = threading.Event()
    monkeypatch.setattr(pyperclip, "copy", lambda text: release.wait(30))
    monkeypatch.setattr(pyperclip, "paste", lambda: "")
    yield release
    release.set()
    for thread in threading.enumerate():
        if thread.name == "paperscope-the system clipboard":
            thread.join(5)
