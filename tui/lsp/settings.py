"""The language server's settings: the editor's `initializationOptions` over the config.

The citation style is the user's (`style` in config.toml, their own CSL files included),
unless the editor's settings name another. A setting the server does not know, or a value
it cannot use, is named in a message and the default kept: a typo must not pass in silence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from index.citations import StyleFileError, UnknownStyleError
from index.citations.keyformats import KeyFormatError
from tui.services import paths
from tui.services.config import DEFAULT_STYLE, load_config
from tui.services.styles import load_style_book

__all__ = ["KNOWN", "Settings", "read_settings"]

KNOWN = ("style", "debounce_ms")
DEFAULT_DEBOUNCE_MS = 300


@dataclass(frozen=True)
class Settings:
    """What the server was told.

    Attributes:
        style: the resolved citation style (a style id or a user's `CslStyle`).
        debounce: seconds of quiet typing before a document's diagnostics are published.
    """

    style: str = DEFAULT_STYLE
    debounce: float = DEFAULT_DEBOUNCE_MS / 1000

    @staticmethod
    def data_dir() -> Path:
        """The user's tags, statuses and notes: the app's data folder."""
        return paths.data_dir()


def read_settings(options: Any) -> tuple[Settings, list[str], list[str]]:
    """The settings from `initializationOptions` (a JSON object, or a `paperscope` table in
    it): (settings, problems with the options, warnings about the config and styles)."""
    problems: list[str] = []
    config, warnings = load_config(paths.config_file())
    book = load_style_book(paths.config_file(), config)
    said = [f"paperscope: {line}" for line in (*warnings, *book.warnings)]
    if isinstance(options, dict) and isinstance(options.get("paperscope"), dict):
        options = options["paperscope"]
    if options is None:
        options = {}
    if not isinstance(options, dict):
        problems.append("paperscope: the initialization options must be an object; ignored")
        options = {}
    for name in options:
        if name not in KNOWN:
            problems.append(
                f"paperscope: unknown setting {name!r} (known: {', '.join(KNOWN)}); ignored"
            )
    name = options.get("style", config.style)
    try:
        style = book.resolve(str(name))
    except (UnknownStyleError, StyleFileError, KeyFormatError) as error:
        problems.append(f"paperscope: style {name!r}: {error}; using {DEFAULT_STYLE}")
        style = DEFAULT_STYLE
    debounce = options.get("debounce_ms", DEFAULT_DEBOUNCE_MS)
    if isinstance(debounce, bool) or not isinstance(debounce, (int, float)) or debounce < 0:
        problems.append(
            f"paperscope: debounce_ms must be a number of milliseconds, not {debounce!r}; "
            f"using {DEFAULT_DEBOUNCE_MS}"
        )
        debounce = DEFAULT_DEBOUNCE_MS
    return Settings(style=style, debounce=debounce / 1000), problems, said
