"""Copy inside tmux lands in tmux's paste buffer, and the app says so (issue 13)."""

from __future__ import annotations

import pytest

from tests.e2e.test_tmux import TMUX, Terminal, _status, size, terminal  # noqa: F401 - the fixtures

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def test_c_inside_tmux_fills_the_paste_buffer(terminal: Terminal) -> None:  # noqa: F811
    terminal.wait_for(lambda s: _status(s, 47), timeout=60)
    terminal.keys("/")
    terminal.keys("dynamic micro-batching", literal=True)
    terminal.wait_for(lambda s: _status(s, 1))
    terminal.keys("Tab")
    # The focus has left the search bar once the footer offers the list's keys; before
    # that, on a loaded machine, `c` would be typed into the query.
    terminal.wait_for(lambda s: _status(s, 1) and " c Copy " in s)
    terminal.keys("c")
    screen = terminal.wait_for(lambda s: "paste buffer" in s, timeout=20)
    assert "Copied" in screen
    assert "DynaPipe" in terminal.tmux("show-buffer")
    terminal.keys("q")
    assert terminal.exit_status() == 0
