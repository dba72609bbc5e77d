"""`benchmarks/fulltext_extract.py` and `fulltext_search.py` run at their smallest and report
what they promise.

Speed is never asserted: this proves the script still works against the current reader.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import fulltext_extract  # noqa: E402
import fulltext_search  # noqa: E402
import fulltext_sync_ui  # noqa: E402


def test_the_extraction_benchmark_reports_both_rates() -> None:
    figures = fulltext_extract.measure(pdfs=2, pages=2)
    assert figures["pages"] == 4
    assert figures["one_process_pages_per_s"] > 0 and figures["pool_pages_per_s"] > 0
    assert figures["pool_vs_one_process"] > 0
    assert figures["stored_mb_per_1000_pdfs"] > 0


def test_the_full_text_search_benchmark_compares_with_and_without() -> None:
    figures = fulltext_search.measure(docs=60, share=0.5, pages=(1, 2), keystrokes=12)
    assert figures["attachments"] > 0 and figures["pages_indexed"] == figures["pages"]
    assert figures["with"]["n"] == figures["without"]["n"] > 0
    assert figures["ratio_p95"] > 0 and figures["page_index_mb_per_1000_pdfs"] > 0


def test_the_sync_ui_benchmark_times_the_ui_thread_in_each_round() -> None:
    figures = fulltext_sync_ui.measure(docs=40, share=0.5, pages=(1, 2), seconds=3)
    for name in ("idle", "thread", "child"):
        assert figures[name]["search"]["n"] > 0 and figures[name]["tick_late"]["n"] > 0
    assert figures["child"]["sync_s"] >= 0 and figures["child_search_p95_ratio"] > 0
