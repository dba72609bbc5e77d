"""Copying text wherever the user is: a desktop, an SSH session, tmux, a headless box.

The order of attempts, and why:

* Over SSH (`$SSH_TTY` or `$SSH_CONNECTION`), the system clipboard is the *remote*
  machine's, which the user cannot paste from, so pyperclip is never tried there.
* Locally, pyperclip (xclip, xsel, wl-copy, pbcopy, clip.exe) first, because it works in
  every terminal. pyperclip ignores the tool's exit status (xclip failing with "Can't open
  display" looks like success), so the copy is confirmed by reading the clipboard back,
  all in a thread with a timeout: a hanging tool can never block the caller.
* Inside tmux (`$TMUX`), `tmux load-buffer -w -` puts the text in tmux's paste buffer
  (checked by its exit status); `-w` also forwards it to the outer terminal's clipboard
  where tmux's `set-clipboard` allows.
* OSC 52 last, because terminals ignore it silently: a copy that cannot be checked says
  "sent", never "copied". Inside tmux the sequence is sent both plainly and wrapped for
  passthrough. Payloads are capped: terminals drop longer ones without a word.
* When nothing could be confirmed, the text is saved to a file in the data directory and
  the outcome says where, so the app can show it in a dialog to select by hand.

The text never carries an escape sequence (`strip_controls`). This module never imports
Textual: the app passes a `writer` that sends raw sequences through its driver.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

from index.atomic import write_text_atomic
from index.text_safety import strip_controls

CopyMethod = Literal["system", "tmux", "osc52", "file", "none"]

# Base64 bytes an OSC 52 payload may hold: hterm, and the tools that copy its limit
# (vim-oscyank, osc52.sh), drop sequences beyond about 100 kB, 74,994 bytes of base64.
OSC52_MAX_BASE64 = 74_994
SAVED_FILE_NAME = "clipboard.txt"
# Seconds a clipboard tool (or tmux) may take before the copy counts as failed.
TOOL_TIMEOUT = 3.0


@dataclass(frozen=True)
class CopyOutcome:
    """What happened to a copy, and what the user should be told.

    Attributes:
        method: "system" (pyperclip, read back), "tmux" (tmux's paste buffer), "osc52"
            (sent to the terminal, unconfirmed), "file" (nothing else worked; saved to
            `saved_path`) or "none" (not even the file could be written).
        message: one line for a notification or stderr.
        saved_path: where the text was saved, for the "file" method.
        text: the text itself, for a dialog where the user can select it by hand.
        description: what was copied, e.g. "APA citation".
        reason: why the clipboard paths failed, when they did.
    """

    method: CopyMethod
    message: str
    saved_path: Path | None = None
    text: str = ""
    description: str = ""
    reason: str = ""

    @property
    def copied(self) -> bool:
        """True when the text went to a clipboard (or, for OSC 52, to the terminal)."""
        return self.method in ("system", "tmux", "osc52")

    @property
    def confirmed(self) -> bool:
        """True when a clipboard is known to hold the text (not just sent to the terminal)."""
        return self.method in ("system", "tmux")

    @property
    def needs_dialog(self) -> bool:
        """True when the user must copy the text by hand from a dialog."""
        return not self.copied


def over_ssh(env: Mapping[str, str]) -> bool:
    return bool(env.get("SSH_TTY") or env.get("SSH_CONNECTION"))


def osc52_sequence(text: str, *, tmux: bool = False) -> str | None:
    """The OSC 52 "set clipboard" sequence for `text`, or None when it is too long.

    For tmux the sequence is wrapped in a DCS passthrough (`ESC P tmux; ... ESC \\`) with
    every ESC inside doubled, which is how tmux tells forwarded bytes from its own.
    """
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    if len(payload) > OSC52_MAX_BASE64:
        return None
    sequence = f"\x1b]52;c;{payload}\x07"
    if tmux:
        return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    return sequence


def _in_thread(task: Callable[[], str | None], timeout: float, what: str) -> str | None:
    """Runs `task` in a daemon thread; its failure reason, or a timeout's."""
    outcome: list[str | None] = []

    def run() -> None:
        try:
            outcome.append(task())
        except Exception as error:  # a clipboard tool that crashed: a reason, not a traceback
            first_line = (str(error).strip().splitlines() or [""])[0][:120]
            outcome.append(f"{what} failed ({type(error).__name__}: {first_line})")

    worker = threading.Thread(target=run, name=f"paperscope-{what}", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return f"{what} did not answer within {timeout:g} s"
    return outcome[0]


def _system_copy(text: str, timeout: float) -> str | None:
    """Copies with pyperclip and reads it back; returns why it failed, or None on success."""

    def task() -> str | None:
        import pyperclip

        try:
            pyperclip.copy(text)
        except pyperclip.PyperclipException as error:
            if "could not find a copy/paste mechanism" in str(error):
                return (
                    "no system clipboard tool such as xclip, xsel or wl-copy "
                    f"({type(error).__name__})"
                )
            raise
        if pyperclip.paste() != text:
            return "the system clipboard did not take the text (is there a display?)"
        return None

    return _in_thread(task, timeout, "the system clipboard")


def run_tool(
    args: list[str], text: str, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess[bytes]:
    """Runs a clipboard command with `text` on stdin (tests replace this)."""
    return subprocess.run(
        args,
        input=text.encode("utf-8"),
        capture_output=True,
        timeout=timeout,
        env=dict(env),
        check=False,
    )


def _tmux_copy(text: str, env: Mapping[str, str], timeout: float) -> str | None:
    """Puts `text` in tmux's paste buffer; returns why it could not, or None."""
    try:
        done = run_tool(["tmux", "load-buffer", "-w", "-"], text, env, timeout)
        if done.returncode != 0 and b"-w" in done.stderr:  # tmux before 3.2 has no -w
            done = run_tool(["tmux", "load-buffer", "-"], text, env, timeout)
    except FileNotFoundError:
        return "tmux is not on PATH"
    except subprocess.TimeoutExpired:
        return f"tmux did not answer within {timeout:g} s"
    except OSError as error:
        return f"tmux could not be run ({error.strerror or error})"
    if done.returncode != 0:
        why = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [""])[0][:120]
        return f"tmux load-buffer failed (exit {done.returncode}{': ' + why if why else ''})"
    return None


def _terminal(stream: TextIO | None) -> TextIO | None:
    """A stream that reaches the user's terminal, when one does."""
    if stream is not None:
        return stream
    for candidate in (sys.stdout, sys.stderr):
        try:
            if candidate is not None and candidate.isatty():
                return candidate
        except (ValueError, OSError):
            continue
    return None


def _osc52_copy(
    text: str, writer: Callable[[str], None] | None, env: Mapping[str, str], terminal: TextIO | None
) -> str | None:
    """Sends `text` to the terminal clipboard; returns why it could not, or None."""
    plain = osc52_sequence(text)
    if plain is None:
        size = len(text.encode("utf-8"))
        return f"too long for the terminal clipboard ({size:,} bytes)"
    sequences = [plain]
    if env.get("TMUX"):
        sequences.append(osc52_sequence(text, tmux=True) or "")
    if writer is None:
        stream = _terminal(terminal)
        if stream is None:
            return "no terminal to send OSC 52 to"

        def writer(sequence: str) -> None:
            stream.write(sequence)
            stream.flush()

    try:
        for sequence in sequences:
            writer(sequence)
    except (OSError, ValueError, RuntimeError) as error:
        return f"the terminal could not be written to ({error})"
    return None


def _save(text: str, description: str, data_dir: Path | None, reasons: list[str]) -> CopyOutcome:
    why = "; ".join(reasons)
    if data_dir is None:
        return CopyOutcome(
            "none", f"Could not copy the {description}: {why}", None, text, description, why
        )
    path = Path(data_dir) / SAVED_FILE_NAME
    try:
        write_text_atomic(path, text if text.endswith("\n") else text + "\n")
    except OSError as error:
        why = f"{why}; could not save to {path}: {error.strerror or error}"
        return CopyOutcome(
            "none", f"Could not copy the {description}: {why}", None, text, description, why
        )
    message = f"No clipboard available ({why}); saved the {description} to {path}"
    return CopyOutcome("file", message, path, text, description, why)


def copy_text(
    text: str,
    *,
    description: str,
    writer: Callable[[str], None] | None = None,
    data_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    terminal: TextIO | None = None,
    timeout: float = TOOL_TIMEOUT,
) -> CopyOutcome:
    """Copies `text` by the best path available and says which one was used.

    Blocks for at most about `timeout` per tool tried: call it off the UI thread.

    Args:
        text: what to copy (control characters are removed first).
        description: what it is, for the message ("APA citation").
        writer: sends a raw escape sequence to the user's terminal (the app passes its
            driver's write); without one, OSC 52 goes to `terminal`, or to stdout/stderr
            when they are a tty.
        data_dir: where to save the text when no clipboard works.
        env: the environment to judge SSH and tmux by (default `os.environ`).
        terminal: the stream to write OSC 52 to when there is no writer (for tests).
        timeout: seconds each clipboard tool may take.

    Never raises for a missing or broken clipboard; the outcome says what happened.
    """
    env = os.environ if env is None else env
    text = strip_controls(text)
    reasons: list[str] = []
    if over_ssh(env):
        reasons.append("over SSH the system clipboard is the remote machine's")
    else:
        failure = _system_copy(text, timeout)
        if failure is None:
            return CopyOutcome(
                "system", f"Copied {description} (system clipboard)", None, text, description
            )
        reasons.append(failure)
    if env.get("TMUX"):
        failure = _tmux_copy(text, env, timeout)
        if failure is None:
            message = (
                f"Copied {description} to tmux's paste buffer (prefix ] pastes it; "
                "tmux forwards it to the terminal's clipboard where allowed)"
            )
            return CopyOutcome("tmux", message, None, text, description, "; ".join(reasons))
        reasons.append(failure)
        # tmux itself failed: an OSC 52 through it cannot be trusted either, so the text
        # is also saved and shown, and the message says nothing was confirmed.
        if _osc52_copy(text, writer, env, terminal) is None:
            reasons.append("sent by OSC 52 through tmux, unconfirmed")
        return _save(text, description, data_dir, reasons)
    failure = _osc52_copy(text, writer, env, terminal)
    if failure is None:
        message = f"Sent {description} to the terminal clipboard (OSC 52)"
        return CopyOutcome("osc52", message, None, text, description, "; ".join(reasons))
    reasons.append(failure)
    return _save(text, description, data_dir, reasons)
