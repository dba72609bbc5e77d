"""Where paperscope keeps the user's index, config and data.

platformdirs picks the platform's usual places; environment variables override them so
tests, screenshots and CI never touch a real user's directories.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "paperscope"


def _override(variable: str) -> Path | None:
    value = os.environ.get(variable)
    return Path(value).expanduser() if value else None


def cache_dir() -> Path:
    """Indexes live here: they can always be rebuilt from the sources."""
    return _override("PAPERSCOPE_CACHE_DIR") or Path(platformdirs.user_cache_dir(APP_NAME))


def data_dir() -> Path:
    """Marks, query history and saved citations: the user's own data, never deleted."""
    return _override("PAPERSCOPE_DATA_DIR") or Path(platformdirs.user_data_dir(APP_NAME))


def config_file() -> Path:
    """The TOML config file (citation style, theme, keymap)."""
    return _override("PAPERSCOPE_CONFIG") or (
        Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"
    )


def user_taxonomy_file() -> Path:
    """A taxonomy file that extends or overrides the bundled one, when the user writes it."""
    return config_file().parent / "taxonomy.toml"
