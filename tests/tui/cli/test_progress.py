"""Progress on stderr: the notice a slow first load of the library prints (and the bar of a build)."""

from __future__ import annotations

import io
import os
import time

import pytest

from tui.cli.progress import HEADLINE, SHORT_HEADLINE, LoadNotice, ProgressBar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_quick_load_prints_nothing() -> None:
    for stream in (io.StringIO(), Terminal()):
        clock = Clock()
        notice = LoadNotice(stream, after=0.3, clock=clock)
        notice("reading files", 0, 3)
        clock.now = 0.2
        notice("tagging", 47, 47)
        notice.finish()
        time.sleep(0.35)  # the timer was cancelled
        assert stream.getvalue() == ""


def test_a_terminal_follows_the_steps_in_place() -> None:
    stream, clock = Terminal(), Clock()
    notice = LoadNotice(stream, after=0.3, clock=clock)
    clock.now = 0.5
    notice("reading files", 2, 11)
    clock.now = 0.52
    notice("merging duplicates", 0, 1)  # a new step is drawn at once
    clock.now = 0.55
    notice("tagging", 1000, 100000)
    clock.now = 0.6
    notice("tagging", 2000, 100000)  # too soon after the last redraw
    clock.now = 0.8
    notice("tagging", 45000, 100000)
    notice("tagging", 100000, 100000)  # the end of a step is always drawn
    notice.finish()
    lines = stream.getvalue().split("\r")[1:]
    assert lines == [
        f"{HEADLINE} reading files 2 of 11\x1b[K",
        f"{HEADLINE} merging duplicates\x1b[K",
        f"{HEADLINE} tagging 1,000 of 100,000\x1b[K",
        f"{HEADLINE} tagging 45,000 of 100,000\x1b[K",
        f"{HEADLINE} tagging 100,000 of 100,000\x1b[K\n",
    ]


def test_a_log_file_gets_the_headline_once() -> None:
    stream, clock = io.StringIO(), Clock()
    notice = LoadNotice(stream, after=0.3, clock=clock)
    clock.now = 1.0
    for done in range(0, 5000, 1000):
        notice("tagging", done, 5000)
    notice.finish()
    assert stream.getvalue() == HEADLINE + "\n"


def test_the_headline_shows_while_no_step_reports() -> None:
    stream = Terminal()
    notice = LoadNotice(stream, after=0.05)
    notice("reading files", 0, 1)  # then one huge file is parsed for a while
    deadline = time.monotonic() + 5
    while not stream.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    notice.finish()
    assert stream.getvalue() == f"\r{HEADLINE} reading files\x1b[K\n"


def test_a_slow_load_from_the_cache_says_nothing() -> None:
    stream = Terminal()
    notice = LoadNotice(stream, after=0.05)
    time.sleep(0.3)  # reading a large library cache: no step is ever reported
    notice.finish()
    assert stream.getvalue() == ""


def test_the_build_bar_draws_in_place_on_a_terminal_and_once_in_a_log() -> None:
    from tui.cli.progress import ProgressBar

    log = io.StringIO()
    bar = ProgressBar("indexing", log, width=10)
    for done in (0, 50, 100):
        bar(done, 100)
    bar.finish()
    assert log.getvalue() == "paperscope: indexing 100 papers...\n"
    terminal = Terminal()
    bar = ProgressBar("indexing", terminal, width=10)
    bar(0, 100)
    bar(100, 100)  # the last step is always drawn
    bar.finish()
    assert terminal.getvalue() == (
        "\rindexing [----------] 0/100\x1b[K\rindexing [##########] 100/100\x1b[K\n"
    )
    # What still runs once every paper is in is said beside the full bar, and only there.
    terminal = Terminal()
    bar = ProgressBar("indexing", terminal, width=10, finishing="writing the index…")
    bar(99, 100)
    bar(100, 100)
    bar.finish()
    assert terminal.getvalue() == (
        "\rindexing [#########-] 99/100\x1b[K"
        "\rindexing [##########] 100/100 writing the index…\x1b[K\n"
    )


class Narrow(Terminal):
    """A terminal of `columns` columns."""

    def __init__(self, columns: int) -> None:
        super().__init__()
        self.columns = columns

    def fileno(self) -> int:
        return 2


def test_a_line_redrawn_in_place_never_wraps(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns "... reading files 23 of 30" wrapped, and each redraw left the line
    before it on screen: the headline gets shorter first, then the line is cut."""
    stream = Narrow(80)
    monkeypatch.setattr(
        "tui.cli.progress.os.get_terminal_size",
        lambda fd: os.terminal_size((stream.columns, 24)),
    )
    clock = Clock()
    notice = LoadNotice(stream, after=0.3, clock=clock)
    clock.now = 0.5
    notice("reading files", 23, 30)
    stream.columns = 30
    notice("merging duplicates", 0, 1)
    notice.finish()
    first, second = stream.getvalue().split("\r")[1:]
    assert first == f"{SHORT_HEADLINE} reading files 23 of 30\x1b[K"
    assert len(HEADLINE + " reading files 23 of 30") >= 80
    assert second == f"{SHORT_HEADLINE} merging duplicates"[:28] + "…\x1b[K\n"
    stream.seek(0)
    stream.truncate()
    stream.columns = 60
    bar = ProgressBar("indexing", stream, finishing="writing the index")
    bar(10, 10)  # the bar fits, the words beside it do not: they are left out
    assert stream.getvalue() == "\rindexing [" + "#" * 30 + "] 10/10\x1b[K"
    stream.columns = 40
    bar(10, 10)
    cut = ("indexing [" + "#" * 30 + "] 10/10")[:38] + "…"
    assert stream.getvalue().split("\r")[-1] == cut + "\x1b[K"
