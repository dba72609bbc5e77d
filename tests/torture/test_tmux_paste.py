"""A 100 KB bracketed paste in a real terminal, then ctrl+u and a word typed at once: the
search bar holds the word (it used to end empty: ctrl+u ran after the word was typed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_tmux import TMUX, Terminal, _status, size, terminal  # noqa: F401 - the fixtures

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

PASTE = " ".join(["pipeline", "alpha", "kernel", "beta"] * 2_500)[:100_000]


def bar_text(screen: str) -> str:
    """What the search bar shows (its middle line, between the bar's side borders)."""
    line = screen.splitlines()[1]
    return line.strip().strip("▊▎").strip()


def test_a_word_typed_right_after_a_big_paste_is_kept(
    terminal: Terminal,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    terminal.wait_for(lambda s: _status(s, 47), timeout=60)
    terminal.keys("/")
    terminal.wait_for(lambda s: "F1 Help" in s and " c Copy " not in s)  # the bar has the focus
    pasted = tmp_path / "paste.txt"
    pasted.write_text(PASTE)
    terminal.tmux("load-buffer", "-b", "big", str(pasted))
    # -p: bracketed, as a terminal pastes into an app that asked for it; the keys follow
    # at once, before the app has handled the paste.
    terminal.tmux("paste-buffer", "-p", "-b", "big", "-t", terminal.session)
    terminal.keys("C-u")
    terminal.keys("kernel", literal=True)
    screen = terminal.wait_for(lambda s: bar_text(s) == "kernel" and "of 47 papers" in s)
    assert "capped" not in screen  # the status is the word's, not the paste's
    terminal.keys("Escape")  # empties the bar
    terminal.wait_for(lambda s: _status(s, 47))
    terminal.keys("Escape")
    terminal.wait_for(lambda s: " c Copy " in s)
    terminal.keys("q")
    assert terminal.exit_status() == 0
