"""`key=$(paperscope pick)` in a real terminal: the app is drawn, stdout carries only the key."""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_tmux import PAPERSCOPE, TMUX, Terminal

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)")


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Terminal]:
    """A tmux pane running a shell that captures `paperscope pick` and records what it got."""
    socket = f"paperscope-pick-{uuid.uuid4().hex[:8]}"
    env = {
        "COLUMNS": "80",  # exported by some shells and tools; the terminal's size must win
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_DATA_DIR": str(tmp_path / "data"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config" / "config.toml"),
        "TERM": "xterm-256color",
    }
    picked = tmp_path / "picked"
    status_file = tmp_path / "exit-status"
    # The shell does what a user's script does: command substitution, then use the value.
    command = (
        "env "
        + " ".join(f"{k}={v}" for k, v in env.items())
        + f" sh -c 'key=$({PAPERSCOPE} pick --style pandoc pipeline); status=$?;"
        + f' printf %s "$key" > {picked}; echo $status > {status_file}\''
    )
    term = Terminal(socket, "pick", status_file)
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
            "pick",
            "-x",
            "120",
            "-y",
            "36",
            "--",
            "sh",
            "-c",
            command,
        ],
        check=True,
        timeout=20,
    )
    term.tmux("set-option", "-t", "pick", "remain-on-exit", "on")
    try:
        yield term
    finally:
        subprocess.run(
            [TMUX or "tmux", "-L", socket, "kill-server"], capture_output=True, check=False
        )


def test_command_substitution_gets_the_picked_key_and_the_app_is_drawn(
    shell: Terminal, tmp_path: Path
) -> None:
    assert PAPERSCOPE.exists()
    # Drawn full size on the terminal although stdout is a pipe.
    screen = shell.wait_for(lambda s: "Papers" in s and "Pick" in s, timeout=60)
    assert len(screen.splitlines()[0]) == 120, screen  # exported COLUMNS=80 does not win
    shell.wait_for(lambda s: re.search(r"(?<!… )\b\d+ of 47 papers", s) is not None, timeout=60)
    shell.keys("Enter")  # in the search bar: moves to the results, picks nothing
    shell.wait_for(lambda s: "Copy key" in s)
    shell.keys("Enter")
    assert shell.exit_status() == 0
    key = (tmp_path / "picked").read_text()
    assert key.startswith("[@") and key.endswith("]") and "\x1b" not in key


def test_escape_prints_nothing_and_exits_1(shell: Terminal, tmp_path: Path) -> None:
    shell.wait_for(lambda s: re.search(r"(?<!… )\b\d+ of 47 papers", s) is not None, timeout=60)
    shell.keys("Escape")
    assert shell.exit_status() == 1
    assert (tmp_path / "picked").read_text() == ""
