"""Checking `-o FILE` before a command writes it, the same way the app's export dialog does.

The dialog says "No such folder: X: enter again creates it"; a command asks the same
question on the terminal (`create it? [y/N]`) when a person is there to answer, creates
the folder without asking with `--mkdir`, and otherwise refuses with one line that names
the folder and the flag, writing nothing: a script's typo must not leave a stray folder.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from index.atomic import open_descriptor
from index.text_safety import for_terminal
from tui.cli.context import UserError, is_terminal

__all__ = ["interactive", "is_terminal", "prepare_output"]


def interactive() -> bool:
    """Whether a person can answer a question: stdin and stderr are both a terminal."""
    return is_terminal(sys.stdin) and is_terminal(sys.stderr)


def _ask(question: str) -> str:
    """The answer typed on the terminal; end of input (ctrl+d) answers no."""
    sys.stderr.write(question)
    sys.stderr.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stderr.write("\n")
    return line


def prepare_output(
    path: Path,
    *,
    force: bool = True,
    mkdir: bool = False,
    ask: Callable[[str], str] | None = None,
) -> str | None:
    """Makes `path` writable as the user wants, or raises UserError; returns what was done.

    Args:
        path: the file named with `-o`.
        force: whether an existing file may be replaced (`--force`).
        mkdir: create a missing folder without asking (`--mkdir`).
        ask: how to ask the user; `None` asks on the terminal when there is one.

    Returns:
        "created the folder X" when one was made (for a notice), else None.
    """
    if open_descriptor(path) is not None:
        return None  # `/dev/stdout`: written through the descriptor, never replaced
    if path.is_dir():
        raise UserError(f"{path}: is a folder; give a file name")
    folder = path.parent
    created = None
    if not folder.is_dir():
        if folder.exists() or any(p.exists() and not p.is_dir() for p in folder.parents):
            raise UserError(f"{folder}: is not a folder (a file is in the way)")
        if not mkdir:
            if ask is None and interactive():
                ask = _ask
            if ask is None:
                raise UserError(f"no such folder: {folder}; add --mkdir to create it")
            shown = for_terminal(str(folder), one_line=True)
            answer = ask(f"paperscope: no such folder: {shown}; create it? [y/N] ")
            if answer.strip().casefold() not in ("y", "yes"):
                raise UserError(f"no such folder: {folder}; nothing written")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UserError(f"{folder}: cannot create ({error.strerror or error})") from None
        created = f"created the folder {folder}"
    if path.exists() and not force:
        raise UserError(f"{path} exists; add --force to replace it")
    return created
