"""The user's style book: names in any case, dependent styles, a broken file said once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from index.citations import StyleFileError
from index.citations.csl import CSL_DIR
from tui.services.config import Config
from tui.services.styles import load_style_book, not_yet_reported


def test_style_names_fold_case_and_a_broken_one_says_why(tmp_path: Path) -> None:
    styles = tmp_path / "styles"
    styles.mkdir()
    shutil.copy(CSL_DIR / "ieee.csl", styles / "My-IEEE.csl")
    (styles / "broken.csl").write_text("not xml", encoding="utf-8")
    book = load_style_book(tmp_path / "config.toml", Config())
    assert book.resolve("my-ieee") == book.resolve("MY-IEEE") == "My-IEEE"
    assert book.resolve("APA") == "apa"
    with pytest.raises(StyleFileError, match=r"broken\.csl: not a CSL style"):
        book.resolve("Broken")


def test_a_warning_is_reported_once_until_its_file_changes(tmp_path: Path) -> None:
    broken = tmp_path / "broken.csl"
    broken.write_text("not xml", encoding="utf-8")
    warning = f"{broken}: not a CSL style (XML error at line 1)"
    record = tmp_path / "cache" / "reported.json"
    assert not_yet_reported([warning], record) == [warning]
    assert not_yet_reported([warning], record) == []
    stat = broken.stat()
    os.utime(broken, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # edited
    assert not_yet_reported([warning], record) == [warning]
    record.write_text("{not json", encoding="utf-8")  # a damaged record: say it again
    assert not_yet_reported([warning], record) == [warning]
