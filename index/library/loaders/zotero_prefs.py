"""Where Zotero keeps its data, and its base folder for linked attachments, from its prefs.

Two settings live in the Zotero profile's `prefs.js`, not in the database: a data folder
the user moved (`extensions.zotero.dataDir`, honoured when `useDataDir` is set; Zotero 7's
default is `~/Zotero` on every platform) and the base folder that `attachments:` paths of
linked files are relative to (`extensions.zotero.baseAttachmentPath`). The profile folder
is found through `profiles.ini` (an INI file: `configparser`). Each `prefs.js` line is
`user_pref("name", value);` with a JSON string, number or boolean as the value, so the
arguments are read by `json`. Everything takes the home folder as an argument, so tests
never see the real one; any problem just means "not found".
"""

from __future__ import annotations

import configparser
import json
import re
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "base_attachment_dir",
    "data_dir_candidates",
    "default_data_dir",
    "profile_folders",
    "read_prefs",
    "zotero_prefs",
]

_USER_PREF = re.compile(r"^\s*user_pref\((.*)\);\s*$")
_DATA_DIR = "extensions.zotero.dataDir"
_USE_DATA_DIR = "extensions.zotero.useDataDir"
_BASE_PATH = "extensions.zotero.baseAttachmentPath"
_MAX_PREFS_BYTES = 16 * 1024 * 1024


def _profiles_root(home: Path, platform: str) -> Path:
    """The folder holding Zotero's `profiles.ini` on this platform."""
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Zotero"
    if platform.startswith("win"):
        return home / "AppData" / "Roaming" / "Zotero" / "Zotero"
    return home / ".zotero" / "zotero"


def profile_folders(home: Path, platform: str = sys.platform) -> list[Path]:
    """Zotero's profile folders, the default one first; [] when there is none."""
    root = _profiles_root(home, platform)
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(root / "profiles.ini", encoding="utf-8")
    except (configparser.Error, OSError, UnicodeDecodeError):
        return []
    found: list[tuple[bool, Path]] = []
    for name in parser.sections():
        section = parser[name]
        if not name.lower().startswith("profile") or not section.get("Path"):
            continue
        relative = section.get("IsRelative", "1").strip() != "0"
        folder = root / section["Path"] if relative else Path(section["Path"])
        found.append((section.get("Default", "0").strip() != "1", folder))
    return [folder for _, folder in sorted(found, key=lambda pair: pair[0])]


def read_prefs(path: Path) -> dict[str, Any]:
    """The `user_pref` settings in one `prefs.js`; unreadable lines are skipped."""
    try:
        if path.stat().st_size > _MAX_PREFS_BYTES:
            return {}
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    prefs: dict[str, Any] = {}
    for line in text.splitlines():
        match = _USER_PREF.match(line)
        if not match:
            continue
        try:
            name, value = json.loads(f"[{match.group(1)}]")
        except (ValueError, TypeError):
            continue
        if isinstance(name, str):
            prefs[name] = value
    return prefs


def zotero_prefs(home: Path, platform: str = sys.platform) -> dict[str, Any]:
    """The default profile's Zotero settings, or {} when no profile is found."""
    for folder in profile_folders(home, platform):
        prefs = read_prefs(folder / "prefs.js")
        if prefs:
            return prefs
    return {}


def data_dir_candidates(home: Path, platform: str = sys.platform) -> list[Path]:
    """Where Zotero's data folder may be, most likely first: the profile's, then ~/Zotero."""
    prefs = zotero_prefs(home, platform)
    candidates: list[Path] = []
    custom = prefs.get(_DATA_DIR)
    if prefs.get(_USE_DATA_DIR) and isinstance(custom, str) and custom:
        candidates.append(Path(custom).expanduser())
    candidates.append(home / "Zotero")
    return candidates


def default_data_dir(home: Path, platform: str = sys.platform) -> Path | None:
    """The first candidate that holds a `zotero.sqlite`, else None."""
    for folder in data_dir_candidates(home, platform):
        if (folder / "zotero.sqlite").is_file():
            return folder
    return None


def base_attachment_dir(home: Path, platform: str = sys.platform) -> Path | None:
    """The base folder of `attachments:` paths, when the user set one in Zotero."""
    value = zotero_prefs(home, platform).get(_BASE_PATH)
    return Path(value) if isinstance(value, str) and value else None
