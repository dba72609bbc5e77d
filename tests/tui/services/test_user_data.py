"""Marks and query history survive a restart and never crash on a damaged file."""

from __future__ import annotations

from pathlib import Path

from tui.services.user_data import HISTORY_LIMIT, Marks, QueryHistory


def test_history_persists_dedupes_and_skips_blank(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    history = QueryHistory(path)
    for query in ("gpu", "  ", "kv cache", "gpu"):
        history.add(query)
    assert QueryHistory(path).entries == ("kv cache", "gpu")


def test_history_is_capped(tmp_path: Path) -> None:
    history = QueryHistory(tmp_path / "history.json")
    for n in range(HISTORY_LIMIT + 5):
        history.add(f"q{n}")
    entries = QueryHistory(tmp_path / "history.json").entries
    assert len(entries) == HISTORY_LIMIT and entries[-1] == f"q{HISTORY_LIMIT + 4}"


def test_marks_toggle_and_persist_in_order(tmp_path: Path) -> None:
    path = tmp_path / "marks.json"
    marks = Marks(path)
    assert marks.toggle("b") is True
    assert marks.toggle("a") is True
    assert marks.toggle("c") is True
    assert marks.toggle("a") is False
    again = Marks(path)
    assert again.ids == ("b", "c") and "b" in again and len(again) == 2


def test_damaged_file_starts_empty_with_warning_and_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "marks.json"
    path.write_text("[1, 2", encoding="utf-8")
    marks = Marks(path)
    assert marks.ids == ()
    assert marks.warning is not None and str(path) in marks.warning
    marks.toggle("x")
    assert path.read_text(encoding="utf-8") == "[1, 2"


def test_wrong_shape_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_text('{"a": 1}', encoding="utf-8")
    history = QueryHistory(path)
    assert history.entries == () and history.warning and "list of strings" in history.warning
