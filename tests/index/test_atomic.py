"""Atomic writes: the old file or the new one, never half of one, with the usual permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from index.atomic import write_text_atomic


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_new_file_gets_the_umask_mode_and_a_replaced_one_keeps_its_own(tmp_path: Path) -> None:
    new = tmp_path / "refs.bib"
    write_text_atomic(new, "@misc{a}\n")
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~_umask()
    kept = tmp_path / "private.toml"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o600)
    write_text_atomic(kept, "new")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert kept.read_text(encoding="utf-8") == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "marks.json"
    target.write_text("[1]", encoding="utf-8")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomic(target, "[1, 2]")
    assert target.read_text(encoding="utf-8") == "[1]"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marks.json"]


def test_missing_folders_are_made(tmp_path: Path) -> None:
    write_text_atomic(tmp_path / "a" / "b" / "c.txt", "x")
    assert (tmp_path / "a" / "b" / "c.txt").read_text(encoding="utf-8") == "x"
