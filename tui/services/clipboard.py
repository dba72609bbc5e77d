"""Copying text wherever the user is: a desktop, an SSH session, tmux, a headless box.

The order of attempts, and why:

* Over SSH (`$SSH_TTY` or `$SSH_CONNECTION`), the system clipboard is the *remote*
  machine's, which the user cannot paste from; only the terminal's clipboard (OSC 52)
  reaches their own machine, so pyperclip is never tried.
* Locally, pyperclip (xclip, xsel, wl-copy, pbcopy, clip.exe) first, because it works in
  every terminal; OSC 52 second, because some terminals ignore it silently.
* Inside tmux, an OSC 52 sequence is sent both plainly (tmux's `set-clipboard on` takes
  it) and wrapped for passthrough (`allow-passthrough on` forwards it to the outer terminal).
* OSC 52 payloads are capped: terminals drop longer ones without a word.
* When nothing can work, the text is saved to a file in the data directory and the
  outcome says where, so the app can show it in a dialog to select by hand.

The user is told which path was taken; a copy that cannot be checked (OSC 52) says
"sent", never "copied".
"""

from __future__ import annotations

import base64
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

from index.atomic import write_text_atomic

if TYPE_CHECKING:
    from textual.app import App

CopyMethod = Literal["system", "osc52", "file", "none"]

# Base64 bytes an OSC 52 payload may hold: hterm, and the tools that copy its limit
# (vim-oscyank, osc52.sh), drop sequences beyond about 100 kB, 74,994 bytes of base64.
OSC52_MAX_BASE64 = 74_994
SAVED_FILE_NAME = "clipboard.txt"


@dataclass(frozen=True)
class CopyOutcome:
    """What happened to a copy, and what the user should be told.

    Attributes:
        method: "system" (pyperclip), "osc52" (sent to the terminal), "file" (nothing
            else worked; saved to `saved_path`) or "none" (not even the file could be written).
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
        return self.method in ("system", "osc52")

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


def _system_copy(text: str) -> str | None:
    """Copies with pyperclip; returns why it failed, or None on success."""
    try:
        import pyperclip

        pyperclip.copy(text)
    except Exception as error:  # PyperclipException, or a clipboard tool that crashed
        name = type(error).__name__
        if "could not find a copy/paste mechanism" in str(error):
            return f"no system clipboard tool such as xclip, xsel or wl-copy ({name})"
        first_line = (str(error).strip().splitlines() or [""])[0][:120]
        return f"the system clipboard failed ({name}: {first_line})"
    return None


def _remember(app: App | None, text: str) -> None:
    """Keeps `app.clipboard` in step, so Textual's own paste (ctrl+v) pastes this text too."""
    if app is not None and hasattr(app, "_clipboard"):
        app._clipboard = text  # noqa: SLF001 - App has no public setter besides copy_to_clipboard


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


def _osc52_copy(text: str, app: App | None, env: Mapping[str, str],
                terminal: TextIO | None) -> str | None:
    """Sends `text` to the terminal clipboard; returns why it could not, or None."""
    tmux = bool(env.get("TMUX"))
    plain = osc52_sequence(text)
    if plain is None:
        size = len(text.encode("utf-8"))
        return f"too long for the terminal clipboard ({size:,} bytes)"
    wrapped = osc52_sequence(text, tmux=True) if tmux else None
    if app is not None:
        app.copy_to_clipboard(text)  # sets app.clipboard, writes the plain sequence
        driver = getattr(app, "_driver", None)  # Textual has no public raw write
        if driver is None:
            return "the app is not running in a terminal"
        if wrapped is not None:
            driver.write(wrapped)
        return None
    stream = _terminal(terminal)
    if stream is None:
        return "no terminal to send OSC 52 to"
    stream.write(plain + (wrapped or ""))
    stream.flush()
    return None


def _save(text: str, description: str, data_dir: Path | None, reasons: list[str]) -> CopyOutcome:
    why = "; ".join(reasons)
    if data_dir is None:
        return CopyOutcome("none", f"Could not copy the {description}: {why}", None, text,
                           description, why)
    path = Path(data_dir) / SAVED_FILE_NAME
    try:
        write_text_atomic(path, text if text.endswith("\n") else text + "\n")
    except OSError as error:
        why = f"{why}; could not save to {path}: {error.strerror or error}"
        return CopyOutcome("none", f"Could not copy the {description}: {why}", None, text,
                           description, why)
    message = f"No clipboard available ({why}); saved the {description} to {path}"
    return CopyOutcome("file", message, path, text, description, why)


def copy_text(
    text: str,
    *,
    description: str,
    app: App | None = None,
    data_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    terminal: TextIO | None = None,
) -> CopyOutcome:
    """Copies `text` by the best path available and says which one was used.

    Args:
        text: what to copy.
        description: what it is, for the message ("APA citation").
        app: the running Textual app, whose driver writes OSC 52 to the terminal; without
            one, the sequence goes to `terminal` or to stdout/stderr when they are a tty.
        data_dir: where to save the text when no clipboard works.
        env: the environment to judge SSH and tmux by (default `os.environ`).
        terminal: the stream to write OSC 52 to when there is no app (for tests).

    Never raises for a missing or broken clipboard; the outcome says what happened.
    """
    env = os.environ if env is None else env
    reasons: list[str] = []
    if over_ssh(env):
        reasons.append("over SSH the system clipboard is the remote machine's")
    else:
        failure = _system_copy(text)
        if failure is None:
            _remember(app, text)
            return CopyOutcome("system", f"Copied {description} (system clipboard)", None,
                               text, description)
        reasons.append(failure)
    failure = _osc52_copy(text, app, env, terminal)
    if failure is None:
        via = " through tmux" if env.get("TMUX") else ""
        message = f"Sent {description} to the terminal clipboard (OSC 52{via})"
        return CopyOutcome("osc52", message, None, text, description, "; ".join(reasons))
    reasons.append(failure)
    return _save(text, description, data_dir, reasons)
