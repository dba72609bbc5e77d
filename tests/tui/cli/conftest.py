"""Fixtures the command-line tests share."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.tui.cli.commands import run_paperscope

REPO = Path(__file__).resolve().parents[3]


def user_env(tmp_path: Path) -> dict[str, str]:
    """No clipboard tool, no display, no SSH or tmux, and the user's dirs under tmp_path."""
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir(exist_ok=True)
    base = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SSH_TTY", "SSH_CONNECTION", "TMUX")
    }
    base.update(
        PATH=str(empty_bin),
        PAPERSCOPE_DATA_DIR=str(tmp_path / "data"),
        PAPERSCOPE_CACHE_DIR=str(tmp_path / "cache"),
        PAPERSCOPE_CONFIG=str(tmp_path / "config" / "config.toml"),
        PYTHONPATH=str(REPO),
    )
    return base


@pytest.fixture(scope="session")
def bundled_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding the bundled papers' library cache and index, built once.

    Each command below starts from a copy: the index of the 47 papers is then opened, not
    built, which was three quarters of a command's CPU. The tests of a cold start (the
    build, the load notice, the library cache) make their own folders.
    """
    home = tmp_path_factory.mktemp("bundled-cache")
    done = run_paperscope(("search", "pipeline"), env=user_env(home), cwd=home)
    assert done.returncode == 0, done.stderr
    return home / "cache"


@pytest.fixture
def env(tmp_path: Path, bundled_cache: Path) -> dict[str, str]:
    """`user_env`, with the bundled papers' cache already in place."""
    shutil.copytree(bundled_cache, tmp_path / "cache")
    return user_env(tmp_path)
