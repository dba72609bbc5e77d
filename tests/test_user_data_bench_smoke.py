"""The user-data benchmark runs at a tiny size and reports what it promises (speed is never
asserted: the machine is shared)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import user_data  # noqa: E402


def test_the_benchmark_times_a_change_and_its_baseline(tmp_path: Path) -> None:
    report = user_data.measure(20, 3, tmp_path)
    assert report["records"] == 20
    assert report["change_ms"] > 0 and report["baseline_write_ms"] > 0
    assert report["ratio"] > 0
    assert (tmp_path / "annotations.json").read_text().count('"t2"') == 1  # the changes landed
