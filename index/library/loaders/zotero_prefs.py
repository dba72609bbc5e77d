"""Where Zotero keeps its data, and its base folder for linked attachments, from its prefs.

Found the way Zotero's own `Zotero.DataDirectory.init` finds it: the data folder the
profile's prefs name (`extensions.zotero.dataDir`, honoured when `useDataDir` is set), else
`Zotero` in the home folder (Zotero 5 and later, every platform), else the legacy
`zotero` folder inside the profile (Zotero 4 Standalone, never migrated). The profile is
the default one of `profiles.ini` (an INI file: `configparser`) in Zotero's profile root:
`%APPDATA%\\Zotero\\Zotero` on Windows, `~/Library/Application Support/Zotero` on macOS,
`~/.zotero/zotero` on Linux. Each `prefs.js` (and `user.js`, which Zotero applies after it)
line is `user_pref("name", value);` with a JSON string, number or boolean as the value,
so the arguments are read by `json`.

Sandboxed Linux packages see another home folder: the Flatpak (`org.zotero.Zotero`)
keeps `~/Zotero` and `~/.zotero` under `~/.var/app/org.zotero.Zotero/` when it is not
given the real home folder, and the Snap (`zotero-snap`) sets `HOME` to
`~/snap/zotero-snap/common`. Their prefs name paths as seen inside the sandbox, so a
path under the home folder is tried inside the sandbox's home first.

Everything takes the home folder, platform and environment as arguments, so tests never
see the real ones; any problem just means "not found".
"""

from __future__ import annotations

import configparser
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Installation",
    "base_attachment_dir",
    "data_dir_candidates",
    "default_data_dir",
    "installations",
    "profile_folders",
    "read_prefs",
    "zotero_prefs",
]

_USER_PREF = re.compile(r"^\s*user_pref\((.*)\);\s*$")
_DATA_DIR = "extensions.zotero.dataDir"
_USE_DATA_DIR = "extensions.zotero.useDataDir"
_BASE_PATH = "extensions.zotero.baseAttachmentPath"
_MAX_PREFS_BYTES = 16 * 1024 * 1024
_DATABASE = "zotero.sqlite"
# Left in a new data folder while Zotero moves the library there (`{"sourceDir": ...}`).
_MIGRATION_MARKER = "migrate-dir"
FLATPAK_HOME = Path(".var") / "app" / "org.zotero.Zotero"
SNAP_HOME = Path("snap") / "zotero-snap" / "common"


@dataclass(frozen=True)
class Installation:
    """One way Zotero may be installed: the home folder it sees and its profile root."""

    home: Path  # where its `Zotero` data folder is by default
    profiles: Path  # the folder holding its `profiles.ini`
    sandboxed: bool = False  # a Flatpak or Snap: its prefs name paths in its own home


def _profiles_root(home: Path, platform: str, environ: Mapping[str, str]) -> Path:
    """The folder holding Zotero's `profiles.ini` for a native install on this platform."""
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Zotero"
    if platform.startswith("win"):
        appdata = environ.get("APPDATA")
        roaming = Path(appdata) if appdata else home / "AppData" / "Roaming"
        return roaming / "Zotero" / "Zotero"
    return home / ".zotero" / "zotero"


def installations(
    home: Path, platform: str = sys.platform, environ: Mapping[str, str] | None = None
) -> list[Installation]:
    """Where Zotero may be installed, the native install first."""
    environ = os.environ if environ is None else environ
    found = [Installation(home, _profiles_root(home, platform, environ))]
    if not (platform == "darwin" or platform.startswith("win")):
        for sandbox in (home / FLATPAK_HOME, home / SNAP_HOME):
            found.append(Installation(sandbox, sandbox / ".zotero" / "zotero", sandboxed=True))
    return found


def profile_folders(
    home: Path, platform: str = sys.platform, environ: Mapping[str, str] | None = None
) -> list[Path]:
    """The native install's profile folders, the default one first; [] when there is none."""
    return _profiles(installations(home, platform, environ)[0].profiles)


def _profiles(root: Path) -> list[Path]:
    """The profiles in `root/profiles.ini`: the default first, else the last one listed
    first (Zotero's choice when none is marked default), then the rest."""
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
        stored = section["Path"].strip()
        folder = root.joinpath(*stored.split("/")) if relative else Path(stored)
        found.append((section.get("Default", "0").strip() == "1", folder))
    if found and not any(default for default, _ in found):
        found[-1] = (True, found[-1][1])
    return [folder for _, folder in sorted(found, key=lambda pair: not pair[0])]


def read_prefs(path: Path) -> dict[str, Any]:
    """The `user_pref` settings in one `prefs.js` or `user.js`; unreadable lines are skipped."""
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


def _profile_prefs(folder: Path) -> dict[str, Any]:
    """A profile's settings: `prefs.js`, then `user.js` over it (as Zotero applies them)."""
    return {**read_prefs(folder / "prefs.js"), **read_prefs(folder / "user.js")}


def _install_prefs(install: Installation) -> dict[str, Any]:
    for folder in _profiles(install.profiles):
        prefs = _profile_prefs(folder)
        if prefs:
            return prefs
    return {}


def zotero_prefs(
    home: Path, platform: str = sys.platform, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The default profile's Zotero settings of the first install that has any, or {}."""
    for install in installations(home, platform, environ):
        prefs = _install_prefs(install)
        if prefs:
            return prefs
    return {}


def _custom_dirs(install: Installation, home: Path, value: str) -> list[Path]:
    """The folder a `dataDir` pref names, as this install sees it, and where to look for it."""
    path = Path(value).expanduser()
    out: list[Path] = []
    if install.sandboxed:
        try:
            out.append(install.home / path.relative_to(home))  # the sandbox's view of ~
        except ValueError:
            pass
    out.append(path)
    marker = path / _MIGRATION_MARKER
    if marker.is_file() and not (path / _DATABASE).is_file():
        try:
            source = json.loads(marker.read_text(encoding="utf-8")).get("sourceDir")
        except (OSError, ValueError, AttributeError):
            source = None
        if isinstance(source, str) and source:
            out.append(Path(source))  # an interrupted move: the library is still there
    return out


def _candidates(install: Installation, home: Path) -> list[Path]:
    profiles = _profiles(install.profiles)
    prefs = next((p for p in map(_profile_prefs, profiles) if p), {})
    out: list[Path] = []
    custom = prefs.get(_DATA_DIR)
    if prefs.get(_USE_DATA_DIR) and isinstance(custom, str) and custom:
        out += _custom_dirs(install, home, custom)
    out.append(install.home / "Zotero")
    out += [folder / "zotero" for folder in profiles]  # Zotero 4's data inside the profile
    return out


def data_dir_candidates(
    home: Path, platform: str = sys.platform, environ: Mapping[str, str] | None = None
) -> list[Path]:
    """Where Zotero's data folder may be, most likely first, each named once."""
    out: list[Path] = []
    for install in installations(home, platform, environ):
        out += _candidates(install, home)
    return list(dict.fromkeys(out))


def default_data_dir(
    home: Path, platform: str = sys.platform, environ: Mapping[str, str] | None = None
) -> Path | None:
    """The first candidate that holds a `zotero.sqlite`, else None."""
    for folder in data_dir_candidates(home, platform, environ):
        if (folder / _DATABASE).is_file():
            return folder
    return None


def _same(a: Path, b: Path) -> bool:
    """Whether two paths name one folder (spelled differently, or through a link)."""
    try:
        return a == b or os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def base_attachment_dir(
    home: Path,
    platform: str = sys.platform,
    environ: Mapping[str, str] | None = None,
    data_dir: Path | None = None,
) -> Path | None:
    """The base folder of `attachments:` paths, when the user set one in Zotero.

    Read from the install whose data folder is `data_dir` when one is (a Flatpak's
    library takes the Flatpak's setting), else from the first install with settings.
    """
    installs = installations(home, platform, environ)
    if data_dir is not None:
        owner = [i for i in installs if any(_same(data_dir, c) for c in _candidates(i, home))]
        installs = owner + [i for i in installs if i not in owner]
    for install in installs:
        prefs = _install_prefs(install)
        if prefs:
            value = prefs.get(_BASE_PATH)
            if not (isinstance(value, str) and value):
                return None
            base = Path(value)
            if install.sandboxed:
                try:
                    inside = install.home / base.relative_to(home)
                except ValueError:
                    inside = None
                if inside is not None and inside.is_dir():
                    return inside
            return base
    return None
