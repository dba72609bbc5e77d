"""The thread-build benchmark runs end to end at a tiny size and reports its ratio.

Speed is never asserted (the machine is shared); this proves `benchmarks/thread_build.py`
builds in a thread beside an idle and a busy main thread, in fresh interpreters, with the
code it is pointed at.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import thread_build  # noqa: E402


def test_reports_both_builds_and_their_ratio_for_each_code() -> None:
    figures = thread_build.measure(papers=12, runs=1, baseline_code=ROOT)
    for code in ("this", "baseline"):
        idle, busy = figures[f"{code}_idle_s"], figures[f"{code}_busy_s"]
        assert idle > 0 and busy > 0
        assert figures[f"{code}_busy_vs_idle"] == round(busy / idle, 2)
    assert figures["papers"] == 12 and figures["runs"] == 1
