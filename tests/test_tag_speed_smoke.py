"""The tagging benchmark runs end to end at a tiny size and reports its ratio.

Speed is never asserted (the machine is shared); this proves `benchmarks/tag_speed.py`
tags the very same papers with each code it is pointed at, in fresh interpreters, and
checks that their labels agree.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import tag_speed  # noqa: E402


def test_both_codes_tag_the_same_papers_alike_and_the_ratio_is_reported() -> None:
    papers = tag_speed.synthetic_papers(12)
    assert len(papers) == 12 and not any(p.topics or p.hardware for p in papers)
    figures = tag_speed.measure(papers, runs=1, baseline=ROOT)
    this, baseline = figures["this"], figures["baseline"]
    assert this["cpu_s"] > 0 and baseline["cpu_s"] > 0 and this["labelled"] > 0
    assert figures["per_run_cpu_vs_baseline"] == [figures["cpu_vs_baseline"]]  # one round
    assert figures["same_labels"] is True


def test_a_library_is_read_as_the_loaders_read_it() -> None:
    library = tag_speed.read_papers([ROOT / "tests" / "fixtures" / "library"], 3)
    assert len(library) == 3 and all(p.title for p in library)
