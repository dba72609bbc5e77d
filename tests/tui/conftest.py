"""Keeps every TUI test inside tmp folders, with a clipboard and terminal it controls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point config, data and cache at tmp, and forget SSH/tmux so copies take one path."""
    monkeypatch.setenv("PAPERSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERSCOPE_CONFIG", str(tmp_path / "config" / "config.toml"))
    for variable in ("SSH_TTY", "SSH_CONNECTION", "TMUX"):
        monkeypatch.delenv(variable, raising=False)
    yield tmp_path
