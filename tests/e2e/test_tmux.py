"""The installed `paperscope` command in a real terminal: start, search, read the screen, quit.

This is the one test that sees what a person sees: a real pty (tmux), the real console
script, the bundled corpus and a cold index build. It uses its own tmux server socket so it
never touches a tmux session the developer has open.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
PAPERSCOPE = Path(sys.executable).with_name("paperscope")

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)")


# How often a wait looks at the pane again: a capture costs ~2 ms, and each look saved
# from a coarser interval is time a test spends waiting on a screen already drawn.
POLL = 0.05


class Terminal:
    """A tmux pane running one command, with helpers to type and to read the screen."""

    def __init__(self, socket: str, session: str, status_file: Path) -> None:
        self.socket = socket
        self.session = session
        self.status_file = status_file

    def exit_status(self, timeout: float = 15.0) -> int:
        """The app's exit status, once it has ended (written by the shell that started it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.status_file.exists() and self.status_file.read_text().strip():
                return int(self.status_file.read_text())
            time.sleep(POLL)
        raise AssertionError(f"the app did not exit; the screen was:\n{self.screen()}")

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            [TMUX or "tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=20,
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.tmux("send-keys", "-t", self.session, *(["-l"] if literal else []), *keys)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(POLL)
        raise AssertionError(f"timed out; the screen was:\n{screen}")

    def settled(self, timeout: float = 30.0) -> str:
        """The screen once two captures in a row agree: a capture taken while the app
        writes a frame can show the frame half drawn."""
        previous = self.screen()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(POLL)
            screen = self.screen()
            if screen == previous:
                return screen
            previous = screen
        raise AssertionError(f"the screen never settled; it was:\n{previous}")


def _status(screen: str, count: int) -> bool:
    """The results' status line says `count of 47 papers` (not the indexing progress line,
    "Indexing… 40 of 47 papers", nor "147 of ...")."""
    return re.search(rf"(?<!… )(?<!\d){count} of 47 papers", screen) is not None


@pytest.fixture
def size() -> tuple[int, int]:
    """The terminal's columns and rows; a test overrides it with `parametrize`."""
    return 120, 36


@pytest.fixture
def terminal(tmp_path: Path, size: tuple[int, int]) -> Iterator[Terminal]:
    assert PAPERSCOPE.exists(), f"the console script is not installed next to {sys.executable}"
    socket = f"paperscope-e2e-{uuid.uuid4().hex[:8]}"
    env = {
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_DATA_DIR": str(tmp_path / "data"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config" / "config.toml"),
        "TERM": "xterm-256color",
    }
    # The shell records the app's exit status in a file: reading it does not depend on how
    # (or whether) tmux reports a dead pane.
    status_file = tmp_path / "exit-status"
    command = (
        "env "
        + " ".join(f"{k}={v}" for k, v in env.items())
        + f" {PAPERSCOPE}; echo $? > {status_file}"
    )
    term = Terminal(socket, "e2e", status_file)
    subprocess.run(
        [
            TMUX or "tmux",
            "-L",
            socket,
            "-f",
            os.devnull,
            "new-session",
            "-d",
            "-s",
            "e2e",
            "-x",
            str(size[0]),
            "-y",
            str(size[1]),
            "--",
            "sh",
            "-c",
            command,
        ],
        check=True,
        timeout=20,
    )
    term.tmux("set-option", "-t", "e2e", "remain-on-exit", "on")
    try:
        yield term
    finally:
        subprocess.run(
            [TMUX or "tmux", "-L", socket, "kill-server"], capture_output=True, check=False
        )


def test_type_a_query_read_the_screen_and_quit(terminal: Terminal) -> None:
    # A cold start: the index is built, then every bundled paper is listed.
    terminal.wait_for(lambda s: _status(s, 47), timeout=60)

    terminal.keys("/")  # the app starts on the results: / to type
    terminal.keys("dynamic micro-batching", literal=True)
    screen = terminal.wait_for(lambda s: _status(s, 1))
    results = screen[screen.index("Papers") :]
    assert "DynaPipe" in results

    # Tab leaves the search bar (the footer then shows the facets' keys); q quits cleanly.
    # Wait for the footer: a key sent before the focus has moved is typed into the bar.
    terminal.keys("Tab")
    terminal.wait_for(lambda s: "Unfold" in s)
    terminal.keys("q")
    assert terminal.exit_status() == 0
    assert "Traceback" not in terminal.screen()


@pytest.mark.parametrize("size", [(80, 24)])
def test_at_80x24_help_sort_and_a_whole_abstract_by_keys(terminal: Terminal) -> None:
    terminal.wait_for(lambda s: _status(s, 47), timeout=60)
    # ? works on the first screen: it starts on the results, not in the search bar.
    terminal.keys("?")
    terminal.wait_for(lambda s: "Moving around" in s)
    terminal.keys("Escape")  # then wait: a key sent right after esc would read as alt+key
    terminal.wait_for(lambda s: "Moving around" not in s)
    # The sort key, and the border says the order.
    terminal.keys("S")
    screen = terminal.wait_for(lambda s: "newest first" in s)
    terminal.keys("S")
    terminal.wait_for(lambda s: "oldest first" in s)
    # Open a paper and read its abstract to the end by keys.
    terminal.keys("/")
    terminal.keys("dynapipe", literal=True)
    terminal.wait_for(lambda s: _status(s, 1))
    terminal.keys("Enter")
    terminal.keys("Enter")
    screen = terminal.wait_for(lambda s: "Multi-task" in s and "↓ more" in s)
    assert "Multi-task" in screen.splitlines()[1]  # the title first, then the abstract
    seen = screen
    for _ in range(10):
        before = terminal.screen()
        if "↓ more" not in before:
            break
        terminal.keys("Space")
        terminal.wait_for(partial(str.__ne__, before))
        seen += terminal.settled()  # the first change seen can be a frame half drawn
    assert "↓ more" not in terminal.screen()
    words = " ".join(seen.split())
    assert "Sources" in words and "Citation" in words
    terminal.keys("Escape")
    terminal.wait_for(lambda s: _status(s, 1))
    terminal.keys("q")
    assert terminal.exit_status() == 0
