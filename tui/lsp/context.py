"""The command line's context as the language server and its reload process use it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tui.cli.context import CliContext

__all__ = ["EditorContext", "joined"]


class EditorContext(CliContext):
    """The command line's context, its warnings kept for one message to the editor (a
    popup per line of a big library's problems would bury the editor)."""

    def __init__(self, corpus: list[Path] | None, taxonomy: Path | None) -> None:
        super().__init__(corpus, taxonomy)
        self.said: list[str] = []

    def warn(self, message: str) -> None:
        self.said.append(message)


def joined(lines: Sequence[str], limit: int = 3) -> str:
    """A few problems on one line, and how many more (`paperscope check` lists them)."""
    shown = "; ".join(lines[:limit])
    more = len(lines) - limit
    return shown + (f"; and {more} more (`paperscope check` lists them)" if more > 0 else "")
