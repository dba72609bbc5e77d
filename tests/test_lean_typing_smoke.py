"""The lean-index typing benchmark runs end to end at a tiny size.

Speed is never asserted; this proves `benchmarks/lean_typing.py` builds both indexes, types
on each and finds the same totals, phrases included, and times finished phrases.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import lean_typing  # noqa: E402


def test_types_on_both_indexes_and_finds_the_same_totals(tmp_path: Path) -> None:
    figures = lean_typing.measure(docs=40, work=tmp_path)
    assert figures["totals_differ"] == []
    assert {"1 letter", "2 letters", "3 letters", "4+ letters"} <= set(figures["stages"])
    for stage in figures["stages"].values():
        assert stage["requests"] > 0 and stage["lean_ms"]["p50_ms"] > 0


def test_times_phrases_on_both_indexes_with_the_same_rows(tmp_path: Path) -> None:
    figures = lean_typing.measure_phrases(docs=40, work=tmp_path, repeat=1)
    assert len(figures["phrases"]) == 10
    for phrase, row in figures["phrases"].items():
        assert row["same_rows"], phrase
        assert row["total"] <= row["words_total"] or "-" in phrase
