"""The user's settings: default citation style, theme and keymap, in one TOML file.

The file belongs to the user, so paperscope never repairs it behind their back: a file
that cannot be read gives one warning line and the defaults, and stays exactly as it was.
A setting changed in the app is edited into the file in place with `tomlkit`, a
round-trip TOML library: comments, order, unknown keys and whole unknown tables are kept,
and a file that does not parse is never rewritten. Writes are atomic.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from index.atomic import write_text_atomic
from tui.services import paths

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = [
    "DEFAULT_STYLE",
    "DEFAULT_THEME",
    "AppSettings",
    "Config",
    "ConfigNotWritable",
    "load_config",
    "save_config",
]

DEFAULT_STYLE = "apa"
DEFAULT_THEME = "textual-dark"
DEFAULT_KEY_STYLE = "key"
DEFAULT_LATEX_COMMAND = "cite"


@dataclass(frozen=True)
class Config:
    """What the user chose; every field has a default so a missing file is a valid config.

    Attributes:
        style: the citation style used by copy and the preview.
        theme: a Textual theme name.
        keymap: binding id -> keys (`"toggle_mark" = "space"`), applied with `App.set_keymap`.
        key_style: the key format the yank-key action copies in (the last one picked).
        latex_command: what `latex` writes (`citep` -> `\\citep{a,b}`).
        debug: show search timings and engine caps in the status line.
        fulltext: read the attached PDFs in the background so their text is searched.
        pdf_viewer: the program `O` opens a PDF with ("zathura", "evince --fullscreen");
            empty: the desktop's default. A viewer that takes a page is opened at the page
            a result matched on.
    """

    style: str = DEFAULT_STYLE
    theme: str = DEFAULT_THEME
    key_style: str = DEFAULT_KEY_STYLE
    latex_command: str = DEFAULT_LATEX_COMMAND
    keymap: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    debug: bool = False
    fulltext: bool = True
    pdf_viewer: str = ""

    def to_toml(self, existing: str = "") -> str:
        """The file's text: `existing` with this config's settings edited in.

        Raises:
            ConfigNotWritable: `existing` is not valid TOML (it is the user's to fix).
        """
        # Only a change of setting writes the file: every start and command that only reads
        # it skips tomlkit's import (~12 ms of a 0.35 s command).
        import tomlkit
        import tomlkit.exceptions

        try:
            document = tomlkit.parse(existing)
        except tomlkit.exceptions.ParseError as error:
            raise ConfigNotWritable(f"not valid TOML ({error}); left as it was") from None
        for name, value in (("style", self.style), ("theme", self.theme)):
            if document.get(name) != value:
                document[name] = value
        optional = (
            ("key_style", self.key_style, DEFAULT_KEY_STYLE),
            ("latex_command", self.latex_command, DEFAULT_LATEX_COMMAND),
        )
        for name, value, default in optional:  # written once they differ from the default
            if document.get(name) != value and (value != default or name in document):
                document[name] = value
        if document.get("debug", False) != self.debug:  # written once it is turned on
            document["debug"] = self.debug
        if self.keymap:
            table = document.get("keymap")
            if not isinstance(table, dict):
                table = tomlkit.table()
                document["keymap"] = table
            for binding_id, keys in self.keymap.items():
                if table.get(binding_id) != keys:
                    table[binding_id] = keys
        return tomlkit.dumps(document)


class ConfigNotWritable(ValueError):
    """The config file cannot be edited safely (it does not parse); it is left untouched."""


@dataclass(frozen=True)
class AppSettings:
    """Where the app reads and writes, passed in so tests never touch the user's folders.

    Attributes:
        config_path: the TOML config file.
        data_dir: marks, query history and saved citations.
        cache_dir: the search index (always rebuildable).
    """

    config_path: Path
    data_dir: Path
    cache_dir: Path

    @classmethod
    def from_environment(cls) -> AppSettings:
        """The platform's folders, or the PAPERSCOPE_* overrides."""
        return cls(paths.config_file(), paths.data_dir(), paths.cache_dir())


def _parse(data: dict[str, Any], where: str) -> tuple[Config, list[str]]:
    """Keep every valid setting, and one warning per setting that is not."""
    warnings: list[str] = []
    values: dict[str, Any] = {}
    for name in ("style", "theme", "key_style", "latex_command"):
        if name not in data:
            continue
        if isinstance(data[name], str) and data[name].strip():
            values[name] = data[name].strip()
        else:
            warnings.append(f"{where}: `{name}` must be a non-empty string; using the default")
    for name, default in (("debug", False), ("fulltext", True)):
        if name not in data:
            continue
        if isinstance(data[name], bool):
            values[name] = data[name]
        else:
            warnings.append(
                f"{where}: `{name}` must be true or false; using {str(default).lower()}"
            )
    if "pdf_viewer" in data:
        if isinstance(data["pdf_viewer"], str):
            values["pdf_viewer"] = data["pdf_viewer"].strip()
        else:
            warnings.append(
                f"{where}: `pdf_viewer` must be a string (a program); using the default"
            )
    keymap = data.get("keymap", {})
    if not isinstance(keymap, dict):
        warnings.append(f'{where}: [keymap] must be a table of binding id = "keys"; ignored')
        keymap = {}
    good: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        if isinstance(keys, str) and keys.strip():
            good[str(binding_id)] = keys.strip()
        else:
            warnings.append(f"{where}: keymap `{binding_id}` must be a string of keys; ignored")
    values["keymap"] = MappingProxyType(good)
    return Config(**values), warnings


def load_config(path: Path) -> tuple[Config, list[str]]:
    """Read the config, never failing: a broken file gives defaults and a warning.

    Returns:
        The config and one human-readable line per problem (file and line when known).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config(), []
    except (OSError, UnicodeDecodeError) as error:
        return Config(), [f"{path}: cannot read the config ({error}); using defaults"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # The message already says "(at line N, column M)".
        return Config(), [f"{path}: not valid TOML: {error}; using defaults, file left as is"]
    return _parse(data, str(path))


def save_config(path: Path, config: Config) -> None:
    """Edit the config's settings into the file in place, atomically.

    Raises:
        ConfigNotWritable: the file does not parse or cannot be decoded (never rewritten).
        OSError: it could not be read or written (disk full, read-only folder).
    """
    path = Path(path)
    try:
        existing = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    except UnicodeDecodeError:
        raise ConfigNotWritable("not UTF-8 text; left as it was") from None
    write_text_atomic(path, config.to_toml(existing))
