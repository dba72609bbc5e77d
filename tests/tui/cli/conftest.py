"""Fixtures the command-line tests share."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No clipboard tool, no display, no SSH or tmux, and the user's dirs under tmp_path."""
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
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
