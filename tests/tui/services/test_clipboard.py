"""The clipboard: which path is taken where, what reaches the terminal, what the user is told."""

from __future__ import annotations

import base64
import io
import subprocess
import threading
import time
from pathlib import Path

import pyperclip
import pytest
from textual.app import App

from tui.services import clipboard
from tui.services.clipboard import OSC52_MAX_BASE64, CopyOutcome, copy_text, osc52_sequence

TEXT = "Jiang, C., Jia, Z. (2024). DynaPipe: Optimizing Multi-task Training…"
LOCAL: dict[str, str] = {}
SSH = {"SSH_TTY": "/dev/pts/3", "SSH_CONNECTION": "10.0.0.1 5022 10.0.0.2 22"}
TMUX = {"TMUX": "/tmp/tmux-1000/default,1234,0"}


def b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def system_clipboard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """pyperclip that works: records what it was given."""
    copied: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", copied.append)
    monkeypatch.setattr(pyperclip, "paste", lambda: copied[-1] if copied else "")
    return copied


@pytest.fixture
def no_system_clipboard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """pyperclip as on a headless box: raises PyperclipException."""
    calls: list[str] = []

    def fail(text: str) -> None:
        calls.append(text)
        raise pyperclip.PyperclipException("could not find a copy/paste mechanism")

    monkeypatch.setattr(pyperclip, "copy", fail)
    return calls


@pytest.fixture
def no_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdout and stderr are pipes, as under pytest's capture or in a subprocess."""
    monkeypatch.setattr("sys.stdout", io.StringIO())
    monkeypatch.setattr("sys.stderr", io.StringIO())


def test_local_uses_the_system_clipboard(system_clipboard: list[str], tmp_path: Path) -> None:
    terminal = FakeTerminal()
    outcome = copy_text(
        TEXT, description="APA citation", env=LOCAL, terminal=terminal, data_dir=tmp_path
    )
    assert system_clipboard == [TEXT]
    assert outcome.method == "system" and outcome.copied and not outcome.needs_dialog
    assert outcome.message == "Copied APA citation (system clipboard)"
    assert terminal.getvalue() == ""  # no second copy through the terminal
    assert not list(tmp_path.iterdir())


def test_local_without_clipboard_falls_back_to_osc52(no_system_clipboard: list[str]) -> None:
    terminal = FakeTerminal()
    outcome = copy_text(TEXT, description="APA citation", env=LOCAL, terminal=terminal)
    assert no_system_clipboard == [TEXT]  # it was tried first, and its exception did not escape
    assert terminal.getvalue() == f"\x1b]52;c;{b64(TEXT)}\x07"
    assert outcome.method == "osc52"
    assert outcome.message == "Sent APA citation to the terminal clipboard (OSC 52)"
    assert "PyperclipException" in outcome.reason


def test_ssh_never_writes_the_remote_clipboard(system_clipboard: list[str]) -> None:
    terminal = FakeTerminal()
    outcome = copy_text(TEXT, description="BibTeX entry", env=SSH, terminal=terminal)
    assert system_clipboard == []
    assert terminal.getvalue() == f"\x1b]52;c;{b64(TEXT)}\x07"
    assert outcome.message == "Sent BibTeX entry to the terminal clipboard (OSC 52)"


@pytest.fixture
def tmux_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], str]]:
    """`tmux load-buffer` that works: records the command and its stdin."""
    calls: list[tuple[list[str], str]] = []

    def run(
        args: list[str], text: str, env: object, timeout: float
    ) -> subprocess.CompletedProcess[bytes]:
        calls.append((args, text))
        return subprocess.CompletedProcess(args, 0, b"", b"")

    monkeypatch.setattr(clipboard, "run_tool", run)
    return calls


def test_tmux_puts_the_text_in_its_paste_buffer(
    no_system_clipboard: list[str], tmux_calls: list[tuple[list[str], str]]
) -> None:
    terminal = FakeTerminal()
    outcome = copy_text(TEXT, description="APA citation", env=TMUX, terminal=terminal)
    assert tmux_calls == [(["tmux", "load-buffer", "-w", "-"], TEXT)]
    assert outcome.method == "tmux" and outcome.confirmed and not outcome.needs_dialog
    assert outcome.message.startswith("Copied APA citation to tmux's paste buffer")
    assert terminal.getvalue() == ""


def test_tmux_failing_sends_osc52_but_shows_the_dialog(
    no_system_clipboard: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def run(
        args: list[str], text: str, env: object, timeout: float
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.CompletedProcess(args, 1, b"", b"no server running on /tmp/x\n")

    monkeypatch.setattr(clipboard, "run_tool", run)
    terminal = FakeTerminal()
    outcome = copy_text(
        TEXT, description="APA citation", env=TMUX, terminal=terminal, data_dir=tmp_path
    )
    plain = f"\x1b]52;c;{b64(TEXT)}\x07"
    wrapped = f"\x1bPtmux;\x1b\x1b]52;c;{b64(TEXT)}\x07\x1b\\"
    assert terminal.getvalue() == plain + wrapped
    assert outcome.method == "file" and outcome.needs_dialog
    assert "tmux load-buffer failed (exit 1: no server running" in outcome.message
    assert "unconfirmed" in outcome.message and "Copied" not in outcome.message


def test_tmux_over_ssh_skips_pyperclip(
    system_clipboard: list[str], tmux_calls: list[tuple[list[str], str]]
) -> None:
    terminal = FakeTerminal()
    outcome = copy_text(TEXT, description="APA citation", env={**SSH, **TMUX}, terminal=terminal)
    assert system_clipboard == []
    assert outcome.method == "tmux" and len(tmux_calls) == 1


def test_a_failing_clipboard_tool_is_not_reported_as_copied(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """xclip with a dead display exits 1 and pyperclip ignores it: the read-back tells."""
    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    monkeypatch.setattr(pyperclip, "paste", lambda: "")
    terminal = FakeTerminal()
    outcome = copy_text(TEXT, description="APA citation", env=LOCAL, terminal=terminal)
    assert outcome.method == "osc52" and not outcome.confirmed
    assert "did not take the text" in outcome.reason


def test_a_hanging_clipboard_tool_times_out(hanging_clipboard: threading.Event) -> None:
    terminal = FakeTerminal()
    started = time.monotonic()
    outcome = copy_text(TEXT, description="APA citation", env=LOCAL, terminal=terminal, timeout=0.3)
    assert time.monotonic() - started < 3
    assert outcome.method == "osc52" and "did not answer within 0.3 s" in outcome.reason


def test_escape_sequences_never_reach_the_clipboard(system_clipboard: list[str]) -> None:
    copy_text("a\x1b]52;c;UFdORUQ=\x07b", description="x", env=LOCAL, terminal=FakeTerminal())
    assert system_clipboard == ["a]52;c;UFdORUQ=b"]


def test_osc52_sequence_caps_the_payload() -> None:
    fits = "x" * (OSC52_MAX_BASE64 // 4 * 3)
    assert osc52_sequence(fits) is not None
    assert osc52_sequence(fits + "xxxx") is None
    assert osc52_sequence(fits + "xxxx", tmux=True) is None


def test_too_big_for_osc52_is_saved_to_a_file(
    no_system_clipboard: list[str], tmp_path: Path
) -> None:
    big = "é" * 60_000  # 120 kB of UTF-8: more than any terminal accepts in one OSC 52
    terminal = FakeTerminal()
    outcome = copy_text(
        big, description="bibliography", env=LOCAL, terminal=terminal, data_dir=tmp_path
    )
    assert terminal.getvalue() == ""
    assert outcome.method == "file" and outcome.needs_dialog
    assert outcome.saved_path == tmp_path / "clipboard.txt"
    assert outcome.saved_path.read_text(encoding="utf-8") == big + "\n"
    assert str(outcome.saved_path) in outcome.message
    assert "too long for the terminal clipboard" in outcome.message
    assert outcome.text == big


def test_no_terminal_and_no_clipboard_is_not_a_success(
    no_system_clipboard: list[str], no_tty: None, tmp_path: Path
) -> None:
    outcome = copy_text(TEXT, description="APA citation", env=LOCAL, data_dir=tmp_path / "data")
    assert not outcome.copied
    assert outcome.method == "file"
    assert (tmp_path / "data" / "clipboard.txt").read_text(encoding="utf-8") == TEXT + "\n"
    assert outcome.message.startswith("No clipboard available")
    assert "no terminal to send OSC 52 to" in outcome.message


def test_nothing_works_and_nowhere_to_save(no_system_clipboard: list[str], no_tty: None) -> None:
    outcome = copy_text(TEXT, description="APA citation", env=SSH)
    assert outcome == CopyOutcome(
        method="none",
        message=outcome.message,
        saved_path=None,
        text=TEXT,
        description="APA citation",
        reason=outcome.reason,
    )
    assert outcome.message.startswith("Could not copy the APA citation")
    assert "remote machine" in outcome.reason


class RecordingApp(App[None]):
    """An app whose driver output is recorded, to see the escape sequences sent."""


async def test_app_over_ssh_writes_osc52_through_the_writer(system_clipboard: list[str]) -> None:
    app = RecordingApp()
    async with app.run_test():
        written: list[str] = []
        app._driver.write = written.append  # type: ignore[union-attr,method-assign]
        outcome = copy_text(
            TEXT,
            description="IEEE citation",
            writer=app._driver.write,  # type: ignore[union-attr]
            env=SSH,
        )
        assert written == [f"\x1b]52;c;{b64(TEXT)}\x07"]
    assert system_clipboard == []
    assert outcome.message == "Sent IEEE citation to the terminal clipboard (OSC 52)"


async def test_app_locally_prefers_pyperclip_and_keeps_app_clipboard(
    system_clipboard: list[str],
) -> None:
    app = RecordingApp()
    async with app.run_test():
        written: list[str] = []
        app._driver.write = written.append  # type: ignore[union-attr,method-assign]
        outcome = copy_text(
            TEXT,
            description="APA citation",
            writer=app._driver.write,  # type: ignore[union-attr]
            env=LOCAL,
        )
        assert written == []
    assert system_clipboard == [TEXT]
    assert outcome.method == "system"


async def test_app_without_pyperclip_uses_textual_osc52(no_system_clipboard: list[str]) -> None:
    app = RecordingApp()
    async with app.run_test():
        written: list[str] = []
        app._driver.write = written.append  # type: ignore[union-attr,method-assign]
        outcome = copy_text(
            TEXT,
            description="APA citation",
            writer=app._driver.write,  # type: ignore[union-attr]
            env=LOCAL,
        )
        assert written == [f"\x1b]52;c;{b64(TEXT)}\x07"]
    assert outcome.message == "Sent APA citation to the terminal clipboard (OSC 52)"
