"""The user's settings: default citation style, theme and keymap, in one TOML file.

The file belongs to the user, so paperscope never repairs it behind their back: a file
that cannot be read gives one warning line and the defaults, and stays exactly as it was
until the user changes a setting in the app (which writes it atomically).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import tomli_w

from index.atomic import write_text_atomic
from tui.services import paths

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = ["Config", "AppSettings", "load_config", "save_config", "DEFAULT_STYLE", "DEFAULT_THEME"]

DEFAULT_STYLE = "apa"
DEFAULT_THEME = "textual-dark"


@dataclass(frozen=True)
class Config:
    """What the user chose; every field has a default so a missing file is a valid config.

    Attributes:
        style: the citation style used by copy and the preview.
        theme: a Textual theme name.
        keymap: binding id -> keys (`"copy_citation" = "y"`), applied with `App.set_keymap`.
        debug: show search timings and engine caps in the status line.
    """

    style: str = DEFAULT_STYLE
    theme: str = DEFAULT_THEME
    keymap: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    debug: bool = False

    def to_toml(self) -> str:
        """The file's text; keys are the ones `load_config` reads back."""
        data: dict[str, Any] = {"style": self.style, "theme": self.theme}
        if self.debug:
            data["debug"] = True
        if self.keymap:
            data["keymap"] = dict(self.keymap)
        return tomli_w.dumps(data)


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
    for name in ("style", "theme"):
        if name not in data:
            continue
        if isinstance(data[name], str) and data[name].strip():
            values[name] = data[name].strip()
        else:
            warnings.append(f"{where}: `{name}` must be a non-empty string; using the default")
    if "debug" in data:
        if isinstance(data["debug"], bool):
            values["debug"] = data["debug"]
        else:
            warnings.append(f"{where}: `debug` must be true or false; using false")
    keymap = data.get("keymap", {})
    if not isinstance(keymap, dict):
        warnings.append(f"{where}: [keymap] must be a table of binding id = \"keys\"; ignored")
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
    """Write the config atomically, so a crash never leaves half a file."""
    write_text_atomic(Path(path), config.to_toml())


def with_style(config: Config, style: str) -> Config:
    """The same config with another citation style (kept frozen for the screen's state)."""
    return replace(config, style=style)
