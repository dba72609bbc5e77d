"""Which citation styles this user has: the built-in ones, their `.csl` files, their `\\cite`.

The command line and the app both resolve a style name here, so `paperscope cite --style
x` and the app's picker offer the same styles and say the same thing about a broken file.
No Textual imports: the CLI uses this without starting the app.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from index.atomic import write_text_atomic
from index.citations import (
    KEY_STYLES,
    STYLES,
    CslStyle,
    KeyFormatError,
    UnknownStyleError,
    resolve_style,
    style_label,
)
from index.citations.custom import StyleFileError, read_csl_style, read_style_folder
from index.citations.keyformats import latex_command_error, split_key_style
from tui.services.config import DEFAULT_KEY_STYLE, DEFAULT_LATEX_COMMAND, Config

__all__ = ["StyleBook", "load_style_book", "not_yet_reported", "styles_dir"]


def styles_dir(config_path: Path) -> Path:
    """The user's CSL styles live in `styles/` beside `config.toml`."""
    return Path(config_path).parent / "styles"


@dataclass(frozen=True)
class StyleBook:
    """The styles one user can choose, resolved from names to what the formatter takes.

    Attributes:
        custom: the user's CSL styles by name, in file-name order.
        latex_command: what plain `latex` means (`citep` from the config).
        key_style: the key format the yank-key action uses, already checked.
        warnings: one line per style file or setting that cannot be used.
        broken: the unusable style files by folded name, so asking for one by name says
            why it cannot be used instead of "unknown style".
    """

    custom: dict[str, CslStyle] = field(default_factory=dict)
    latex_command: str = DEFAULT_LATEX_COMMAND
    key_style: str = DEFAULT_KEY_STYLE
    warnings: tuple[str, ...] = ()
    broken: dict[str, StyleFileError] = field(default_factory=dict)

    def names(self) -> list[str]:
        """Every style name `--style` takes: built-in first, then the user's own."""
        return [*STYLES, *self.custom]

    def choices(self) -> list[tuple[str, str]]:
        """(name, label) for the style picker; a user's style shows its `<title>`."""
        return [(name, self.label(name)) for name in self.names()]

    def label(self, name: str) -> str:
        """The style's human name, as `style_label` gives it."""
        return style_label(self.resolve(name))

    def resolve(self, name: str) -> str:
        """The style to format with: a `CslStyle` for the user's files, `latex:CMD` for latex.

        Raises:
            UnknownStyleError: a name that is no style (the message lists them all).
            StyleFileError: a `.csl` path that cannot be used.
            KeyFormatError: `latex:X` where X is not a command name.
        """
        folded = name.casefold()
        for style_name, style in self.custom.items():  # names are case-insensitive
            if style_name.casefold() == folded:
                return style
        if folded in self.broken:
            raise self.broken[folded]
        if name.endswith(".csl"):
            return read_csl_style(Path(name).expanduser())
        base, command = split_key_style(name)
        if base == "latex":
            command = command if command is not None else self.latex_command
            problem = latex_command_error(command)
            if problem:
                raise KeyFormatError(f"style {name!r}: {problem}")
            return f"latex:{command}"
        resolved = resolve_style(name)  # `APA`, `apa7`, `chicago-author-date`
        if resolved is None:
            raise UnknownStyleError(name)
        return resolved


def load_style_book(config_path: Path, config: Config) -> StyleBook:
    """Reads the styles folder and checks the config's key settings; never raises."""
    folder = styles_dir(config_path)
    custom, warnings = read_style_folder(folder, reserved=frozenset(STYLES))
    usable = {style.path for style in custom}
    broken = {}
    for path in sorted(folder.glob("*.csl")) if folder.is_dir() else []:
        if path not in usable and path.stem.casefold() not in STYLES:
            try:
                read_csl_style(path)
            except StyleFileError as error:
                broken[path.stem.casefold()] = error
    command = config.latex_command
    problem = latex_command_error(command)
    if problem:
        warnings.append(f"{config_path}: latex_command {problem}; using \\{DEFAULT_LATEX_COMMAND}")
        command = DEFAULT_LATEX_COMMAND
    key_style = config.key_style
    if split_key_style(key_style)[0] not in KEY_STYLES:
        warnings.append(
            f"{config_path}: key_style {key_style!r} is not one of "
            f"{', '.join(KEY_STYLES)}; using {DEFAULT_KEY_STYLE}"
        )
        key_style = DEFAULT_KEY_STYLE
    return StyleBook(
        {style: style for style in custom}, command, key_style, tuple(warnings), broken
    )


def not_yet_reported(warnings: tuple[str, ...] | list[str], record: Path) -> list[str]:
    """The warnings not reported before, remembered in `record` so each is said once.

    A broken style file would otherwise be named by every command and every start of the
    app; it is named again only once its file changes (the record keys each line by its
    file's modification time) and always by `paperscope styles`. An unreadable or
    unwritable record means every warning is reported, as before.
    """
    try:
        seen = set(json.loads(record.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        seen = set()
    keyed = {_warning_key(warning): warning for warning in warnings}
    fresh = [warning for key, warning in keyed.items() if key not in seen]
    if fresh:
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(record, json.dumps(sorted(seen | set(keyed)), ensure_ascii=False))
        except OSError:
            pass
    return fresh


def _warning_key(warning: str) -> str:
    """The warning with its file's modification time: an edited file is reported anew."""
    path = warning.split(": ", 1)[0]
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = 0
    return f"{stamp} {warning}"
