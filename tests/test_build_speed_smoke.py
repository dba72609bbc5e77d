"""The build-speed benchmark runs end to end at a tiny size and reports its ratio.

Speed is never asserted; this proves `benchmarks/build_speed.py` builds with each code it
is given (the baseline's own `index`, not this checkout's) and reports consistent figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import build_speed  # noqa: E402


def test_builds_with_each_code_and_reports_the_ratio(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline"
    baseline.mkdir()
    (baseline / "index").symlink_to(ROOT / "index")  # another path to the same code
    figures = build_speed.measure(
        docs=30, runs=1, work=tmp_path / "work", baseline=baseline, lean_min=20
    )
    assert figures["this"]["source"] == str(ROOT / "index")
    assert figures["baseline"]["source"] == str(baseline / "index")
    for name in ("this", "baseline"):
        assert figures[name]["seconds"] > 0 and figures[name]["cpu_ms_per_paper"] > 0
    # The ratio is of the unrounded times; the seconds shown are rounded to 0.01 s each.
    shown, base = figures["this"]["seconds"], figures["baseline"]["seconds"]
    ratio = shown / base
    rounding = 0.005 * (1 + ratio) / base + 0.001
    assert abs(figures["seconds_vs_baseline"] - ratio) <= rounding
    (only_run,) = figures["per_run_seconds_vs_baseline"]  # one run: the median's ratio
    assert only_run == figures["seconds_vs_baseline"]
    # This checkout served a lean index first (index.store.lean); the baseline did not.
    assert 0 < figures["this"]["lean_seconds"] <= figures["this"]["seconds"]
    assert "lean_seconds" not in figures["baseline"]
    lean_ratio = figures["this"]["lean_seconds"] / base
    lean_rounding = 0.005 * (1 + lean_ratio) / base + 0.001
    assert abs(figures["lean_seconds_vs_baseline"] - lean_ratio) <= lean_rounding


def test_a_lean_baseline_is_compared_lean_against_lean(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline"
    baseline.mkdir()
    (baseline / "index").symlink_to(ROOT / "index")
    figures = build_speed.measure(
        docs=30, runs=1, work=tmp_path / "work", baseline=baseline, lean_min=20, baseline_lean=True
    )
    assert 0 < figures["baseline"]["lean_seconds"] <= figures["baseline"]["seconds"]
    this, base = figures["this"], figures["baseline"]
    assert figures["lean_vs_baseline_lean"] == pytest.approx(
        this["lean_seconds"] / base["lean_seconds"], abs=0.01 + 0.02 / base["lean_seconds"]
    )
    (only_run,) = figures["per_run_lean_cpu_vs_baseline_lean"]
    assert only_run == figures["lean_cpu_vs_baseline_lean"]
