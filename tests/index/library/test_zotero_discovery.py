"""Finding Zotero's data folder as Zotero itself does, on each platform and package.

Every test builds the folders of one layout under a temporary home and passes the
platform and environment in, so the real home folder and `sys.platform` are never used.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index.library.loaders.zotero_prefs import (
    FLATPAK_HOME,
    SNAP_HOME,
    base_attachment_dir,
    data_dir_candidates,
    default_data_dir,
    profile_folders,
)
from tests.fixtures.zotero import ZoteroFixture

NO_ENV: dict[str, str] = {}


def library(folder: Path) -> Path:
    ZoteroFixture(folder).close()
    return folder


def profile(root: Path, prefs: dict[str, object], name: str = "abcd1234.default") -> Path:
    """A profile root with `profiles.ini` naming one default profile and its `prefs.js`."""
    folder = root / "Profiles" / name
    folder.mkdir(parents=True)
    (root / "profiles.ini").write_text(
        "[General]\nStartWithLastProfile=1\n\n"
        f"[Profile0]\nName=default\nIsRelative=1\nPath=Profiles/{name}\nDefault=1\n",
        encoding="utf-8",
    )
    lines = [f"user_pref({json.dumps(k)}, {json.dumps(v)});" for k, v in prefs.items()]
    (folder / "prefs.js").write_text(
        "// Mozilla User Preferences\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )
    return folder


def moved_to(path: Path) -> dict[str, object]:
    return {"extensions.zotero.dataDir": str(path), "extensions.zotero.useDataDir": True}


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_the_home_folder_zotero_on_every_platform(tmp_path: Path, platform: str) -> None:
    home = tmp_path / "home"
    assert default_data_dir(home, platform, NO_ENV) is None
    assert data_dir_candidates(home, platform, NO_ENV)[0] == home / "Zotero"
    library(home / "Zotero")
    assert default_data_dir(home, platform, NO_ENV) == home / "Zotero"


@pytest.mark.parametrize(
    ("platform", "root"),
    [
        ("linux", Path(".zotero") / "zotero"),
        ("darwin", Path("Library") / "Application Support" / "Zotero"),
        ("win32", Path("AppData") / "Roaming" / "Zotero" / "Zotero"),
    ],
)
def test_a_moved_data_folder_from_each_platforms_profile(
    tmp_path: Path, platform: str, root: Path
) -> None:
    home = tmp_path / "home"
    library(home / "Zotero")  # an old library left behind: the setting wins
    moved = library(tmp_path / "external" / "Zotero")
    profile(home / root, moved_to(moved))
    assert default_data_dir(home, platform, NO_ENV) == moved
    assert data_dir_candidates(home, platform, NO_ENV)[:2] == [moved, home / "Zotero"]


def test_windows_profile_under_a_relocated_appdata(tmp_path: Path) -> None:
    home = tmp_path / "Users" / "ada"
    appdata = tmp_path / "roaming-share" / "ada"
    moved = library(tmp_path / "D" / "Zotero")
    profile(appdata / "Zotero" / "Zotero", moved_to(moved))
    assert default_data_dir(home, "win32", {"APPDATA": str(appdata)}) == moved
    assert default_data_dir(home, "win32", NO_ENV) is None  # not under ~/AppData/Roaming


def test_use_data_dir_off_means_the_default_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    library(home / "Zotero")
    other = library(tmp_path / "other")
    profile(home / ".zotero" / "zotero", {"extensions.zotero.dataDir": str(other)})
    assert default_data_dir(home, "linux", NO_ENV) == home / "Zotero"


def test_user_js_overrides_prefs_js(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first, second = library(tmp_path / "first"), library(tmp_path / "second")
    folder = profile(home / ".zotero" / "zotero", moved_to(first))
    (folder / "user.js").write_text(
        f'user_pref("extensions.zotero.dataDir", {json.dumps(str(second))});\n', encoding="utf-8"
    )
    assert default_data_dir(home, "linux", NO_ENV) == second


def test_without_a_default_profile_the_last_one_is_used(tmp_path: Path) -> None:
    root = tmp_path / "home" / ".zotero" / "zotero"
    root.mkdir(parents=True)
    (root / "profiles.ini").write_text(
        "[Profile0]\nPath=Profiles/a\n\n[Profile1]\nPath=Profiles/b\n", encoding="utf-8"
    )
    assert profile_folders(tmp_path / "home", "linux", NO_ENV) == [
        root / "Profiles" / "b",
        root / "Profiles" / "a",
    ]


def test_zotero_4_data_inside_the_profile(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = profile(home / "Library" / "Application Support" / "Zotero", {"browser.x": 1})
    legacy = library(folder / "zotero")
    assert default_data_dir(home, "darwin", NO_ENV) == legacy


def test_an_interrupted_move_reads_the_source_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    source = library(tmp_path / "old place")
    target = tmp_path / "new place"
    target.mkdir()
    (target / "migrate-dir").write_text(json.dumps({"sourceDir": str(source)}), encoding="utf-8")
    profile(home / ".zotero" / "zotero", moved_to(target))
    assert default_data_dir(home, "linux", NO_ENV) == source


def test_flatpak_without_the_real_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    sandbox = home / FLATPAK_HOME
    data = library(sandbox / "Zotero")
    assert default_data_dir(home, "linux", NO_ENV) == data
    # Zotero records its default folder in the prefs, as the sandbox sees it: ~/Zotero.
    profile(sandbox / ".zotero" / "zotero", moved_to(home / "Zotero"))
    assert default_data_dir(home, "linux", NO_ENV) == data
    assert home / "Zotero" in data_dir_candidates(home, "linux", NO_ENV)  # said when absent


def test_flatpak_with_a_folder_outside_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    moved = library(tmp_path / "mnt" / "Zotero")
    profile(home / FLATPAK_HOME / ".zotero" / "zotero", moved_to(moved))
    assert default_data_dir(home, "linux", NO_ENV) == moved


def test_snap_keeps_its_home_under_snap_common(tmp_path: Path) -> None:
    home = tmp_path / "home"
    data = library(home / SNAP_HOME / "Zotero")
    assert default_data_dir(home, "linux", NO_ENV) == data
    assert default_data_dir(home, "darwin", NO_ENV) is None  # Linux packages only


def test_native_install_wins_over_a_sandboxed_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    library(home / FLATPAK_HOME / "Zotero")
    library(home / "Zotero")
    assert default_data_dir(home, "linux", NO_ENV) == home / "Zotero"


def test_base_folder_comes_from_the_install_that_owns_the_library(tmp_path: Path) -> None:
    home = tmp_path / "home"
    profile(home / ".zotero" / "zotero", {"extensions.zotero.baseAttachmentPath": "/native"})
    sandbox = home / FLATPAK_HOME
    data = library(sandbox / "Zotero")
    (sandbox / "Papers").mkdir()
    profile(
        sandbox / ".zotero" / "zotero",
        {"extensions.zotero.baseAttachmentPath": str(home / "Papers")},
    )
    assert base_attachment_dir(home, "linux", NO_ENV) == Path("/native")
    assert base_attachment_dir(home, "linux", NO_ENV, data_dir=data) == sandbox / "Papers"


def test_a_damaged_profiles_ini_or_prefs_is_not_found(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = home / ".zotero" / "zotero"
    root.mkdir(parents=True)
    (root / "profiles.ini").write_bytes(b"\xff\xfe[Profile0\x00")
    assert default_data_dir(home, "linux", NO_ENV) is None
    assert profile_folders(home, "linux", NO_ENV) == []
