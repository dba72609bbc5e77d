"""State survives faults: failed saves are notices, damaged files are left alone, writes
land where the user means, and the user's config keeps everything paperscope does not know."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import time
from pathlib import Path

import pytest

from index import atomic
from index.atomic import clean_stale_temps, write_text_atomic
from tui.services.config import Config, ConfigNotWritable, load_config, save_config
from tui.services.user_data import Marks, QueryHistory


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_full_disk_is_a_notice_and_the_next_save_retries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marks = Marks(tmp_path / "marks.json")
    real = atomic.write_text_atomic

    def full(path: Path, text: str, encoding: str = "utf-8") -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr("tui.services.stored_json.write_text_atomic", full)
    assert marks.toggle("a") is True  # never raises
    assert marks.save_error == "could not save marks: disk full"
    assert "a" in marks
    monkeypatch.setattr("tui.services.stored_json.write_text_atomic", real)
    marks.toggle("b")
    assert marks.save_error is None
    assert Marks(tmp_path / "marks.json").ids == ("a", "b")


def test_no_free_temporary_name_is_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def taken(*args: object) -> int:
        raise FileExistsError(errno.EEXIST, "File exists")

    monkeypatch.setattr(atomic.os, "open", taken)
    history = QueryHistory(tmp_path / "history.json")
    history.add("pipeline")
    assert history.save_error and history.save_error.startswith("could not save the query history")
    assert history.entries == ("pipeline",)


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2, 3]", b"\xff\xfe garbage", b"{}"])
def test_a_damaged_marks_file_is_left_untouched_and_never_overwritten(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "marks.json"
    path.write_bytes(content)
    before = digest(path)
    marks = Marks(path)
    assert marks.warning and len(marks) == 0
    marks.toggle("a")
    assert marks.save_error and "damaged" in marks.save_error  # `m` says it was not saved
    assert digest(path) == before


def test_the_users_config_keeps_comments_order_and_unknown_tables(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '# mine\ntheme = "nord"  # dark\nfuture = 1\n\n[export]\nfolder = "~/x"\n'
        '\n[keymap]\ncopy_citation = "y"\n',
        encoding="utf-8",
    )
    config, warnings = load_config(path)
    assert warnings == []
    save_config(path, Config(style="ieee", theme=config.theme, keymap=config.keymap))
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# mine\ntheme = "nord"  # dark\nfuture = 1\n')
    assert '[export]\nfolder = "~/x"' in text and 'style = "ieee"' in text
    assert load_config(path)[0].style == "ieee"


def test_a_config_that_does_not_parse_is_never_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"style = [unclosed\n")
    before = digest(path)
    config, warnings = load_config(path)
    assert warnings and config == Config()
    with pytest.raises(ConfigNotWritable):
        save_config(path, Config(style="ieee"))
    assert digest(path) == before


def test_a_symlink_is_followed_and_its_target_replaced(tmp_path: Path) -> None:
    target = tmp_path / "synced" / "refs.bib"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "refs.bib"
    link.symlink_to(target)
    write_text_atomic(link, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"


def _device(folder: Path, name: str, minor: int) -> Path:
    """A private copy of /dev/null (minor 3) or /dev/full (minor 7) to write to.

    Never the machine's own: if the code regressed and renamed a file over the device,
    every later program that opens /dev/null (tmux's daemon among them) would fail.
    """
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("creating a device node needs root")
    return path


def test_a_device_is_written_directly_and_never_replaced(tmp_path: Path) -> None:
    null = _device(tmp_path, "null", 3)
    write_text_atomic(null, "anything")
    assert null.is_char_device()
    full = _device(tmp_path, "full", 7)
    with pytest.raises(OSError) as raised:
        write_text_atomic(full, "x" * 10_000)
    assert raised.value.errno == errno.ENOSPC
    assert full.is_char_device()


def test_a_folder_or_fifo_without_reader_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        write_text_atomic(tmp_path, "x")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError):  # no reader: ENXIO at once, never a hang
        write_text_atomic(fifo, "x")
    assert fifo.exists() and not fifo.is_file()


def test_temp_files_of_a_killed_write_are_cleaned_at_the_next_start(tmp_path: Path) -> None:
    stale = tmp_path / ".marks.json.0123abcd.tmp"
    fresh = tmp_path / ".marks.json.89abcdef.tmp"
    other = tmp_path / ".notes.tmp"
    for path in (stale, fresh, other):
        path.write_text("x", encoding="utf-8")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    assert clean_stale_temps(tmp_path) == 1
    assert not stale.exists() and fresh.exists() and other.exists()
