"""Opening a file with the desktop's program, and saying truly whether it opened.

`O` used to say "Opening flib.pdf" as soon as `xdg-open` or `gio` was started; with no
display, or no program for PDFs, `gio` exits 2 with its reason on a stderr nobody read, and
nothing opened (issue 46). Here the opener is chosen only where it can work (a display on
Linux, no SSH), and its exit status is waited for: a few seconds, since an opener that
hands the file to a viewer exits at once, and one still running then is showing it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from index.text_safety import for_terminal

__all__ = [
    "OpenOutcome",
    "launch",
    "no_display_reason",
    "no_opener_reason",
    "open_file",
    "system_opener",
]

# Seconds to wait for the opener's exit status before taking it as working.
WAIT = 5.0


def no_opener_reason(
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    platform: str = sys.platform,
) -> str | None:
    """Why no program here can open a file for the user, or None when one can."""
    reason = no_display_reason(environ, platform)
    if reason is not None:
        return reason
    if platform == "darwin":
        return None if which("open") else "no `open` program"
    if not (which("xdg-open") or which("gio")):
        return "neither xdg-open nor gio is installed"
    return None


def no_display_reason(
    environ: Mapping[str, str] | None = None, platform: str = sys.platform
) -> str | None:
    """Why a window opened here would not be seen by the user (SSH, no display), or None."""
    env = os.environ if environ is None else environ
    if env.get("SSH_CONNECTION") or env.get("SSH_TTY"):
        return "over SSH it would open on the remote machine"
    if platform != "darwin" and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return "no display: DISPLAY and WAYLAND_DISPLAY are unset"
    return None


def system_opener(
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    platform: str = sys.platform,
) -> str | None:
    """The program that opens a file as the desktop would, or None (see `no_opener_reason`)."""
    if no_opener_reason(environ, which, platform) is not None:
        return None
    for program in ("open",) if platform == "darwin" else ("xdg-open", "gio"):
        found = which(program)
        if found:
            return found
    return None


@dataclass(frozen=True)
class OpenOutcome:
    """Whether the file was opened and, if not, why (one line, safe for a terminal)."""

    opened: bool
    reason: str = ""


def open_file(opener: str, path: str, wait: float = WAIT) -> OpenOutcome:
    """Run `opener` on `path` and wait up to `wait` seconds for its verdict (blocks: call
    it off the UI thread)."""
    name = os.path.basename(opener)
    return launch([opener, "open", path] if name == "gio" else [opener, path], wait)


def launch(argv: Sequence[str], wait: float = WAIT) -> OpenOutcome:
    """Run `argv` (an opener, or a viewer at a page: tui.services.viewer) and wait up to
    `wait` seconds for its verdict; one still running then is showing the file. Its
    stderr goes to a file, not a pipe: a viewer that keeps running and writing must
    never block on a pipe no one reads."""
    name = os.path.basename(argv[0])
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
            )
        except OSError as error:
            return OpenOutcome(False, f"{name} did not start: {error.strerror or error}")
        try:
            code = process.wait(wait)
        except subprocess.TimeoutExpired:
            return OpenOutcome(True)  # still running: it is showing the file
        if code == 0:
            return OpenOutcome(True)
        errors.seek(0)
        said = errors.read(2000).decode("utf-8", "replace").strip().splitlines()
        detail = f": {said[-1]}" if said else ""
        return OpenOutcome(
            False, for_terminal(f"{name} failed (exit {code}){detail}", one_line=True)
        )
