"""The build-floor benchmark runs end to end at a tiny size and reports its ratio.

Speed is never asserted; this proves `benchmarks/build_floor.py` measures every step
before writing and the real build of the same papers, with consistent figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import build_floor  # noqa: E402


def test_reports_each_step_the_floor_and_the_build_it_is_a_share_of() -> None:
    figures = build_floor.measure(docs=20)
    steps = figures["floor_ms_per_paper"]
    assert set(steps) == {"documents", "words and keys", "analysis", "grouping"}
    assert all(ms >= 0 for ms in steps.values()) and figures["build_ms"] > 0
    assert figures["postings_per_paper"] > 50  # titles, abstracts, prefixes, facets
    assert abs(figures["floor_ms"] - sum(steps.values())) < 0.01
    assert abs(figures["floor_vs_build"] - figures["floor_ms"] / figures["build_ms"]) <= 0.01
