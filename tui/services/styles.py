"""Which citation styles this user has: the built-in ones, their `.csl` files, their `\\cite`.

The command line and the app both resolve a style name here, so `paperscope cite --style
x` and the app's picker offer the same styles and say the same thing about a broken file.
No Textual imports: the CLI uses this without starting the app.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from index.citations import (
    KEY_STYLES,
    STYLES,
    CslStyle,
    KeyFormatError,
    UnknownStyleError,
    resolve_style,
    style_label,
)
from index.citations.custom import read_csl_style, read_style_folder
from index.citations.keyformats import latex_command_error, split_key_style
from tui.services.config import DEFAULT_KEY_STYLE, DEFAULT_LATEX_COMMAND, Config

__all__ = ["StyleBook", "load_style_book", "styles_dir"]


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
    """

    custom: dict[str, CslStyle] = field(default_factory=dict)
    latex_command: str = DEFAULT_LATEX_COMMAND
    key_style: str = DEFAULT_KEY_STYLE
    warnings: tuple[str, ...] = ()

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
        if name in self.custom:
            return self.custom[name]
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
    custom, warnings = read_style_folder(styles_dir(config_path), reserved=frozenset(STYLES))
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
    return StyleBook({style: style for style in custom}, command, key_style, tuple(warnings))
