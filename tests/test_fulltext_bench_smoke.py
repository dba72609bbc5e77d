"""`benchmarks/fulltext_extract.py` runs at its smallest and reports what it promises.

Speed is never asserted: this proves the script still works against the current reader.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import fulltext_extract  # noqa: E402


def test_the_extraction_benchmark_reports_both_rates() -> None:
    figures = fulltext_extract.measure(pdfs=2, pages=2)
    assert figures["pages"] == 4
    assert figures["one_process_pages_per_s"] > 0 and figures["pool_pages_per_s"] > 0
    assert figures["pool_vs_one_process"] > 0
    assert figures["stored_mb_per_1000_pdfs"] > 0
