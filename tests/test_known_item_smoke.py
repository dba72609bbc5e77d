"""`benchmarks/known_item.py` generates what a person types for a known paper and scores it.

Not a speed test: it proves the benchmark runs against the current engine and that its
queries find what they should on a small library (an identifier at rank 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import known_item  # noqa: E402

BIB = "".join(
    f"@article{{Writer{n}Paging,\n  author = {{Writer{n}, Ann and Person, Bo}},\n"
    f"  title = {{Paged attention kernels for model serving number {n}}},\n"
    f"  journal = {{Systems Letters}},\n  year = {{{2000 + n}}},\n"
    f"  doi = {{10.5555/paging.{n}}},\n}}\n"
    for n in range(8)
)


def test_the_known_item_benchmark_scores_every_kind(tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(BIB, encoding="utf-8")
    rows = known_item.measure_file(library, per_file=3, seed=1, work=tmp_path / "work")
    table = known_item.summary(rows)
    kinds = {row["kind"] for row in rows}
    assert {"doi bare", "doi.org URL", "key whole", "key lower case"} <= kinds
    assert table["identifier (all)"]["at1"] == 1.0  # a DOI in any form goes to its paper
    assert table["key (all)"]["at1"] == 1.0
    assert all(row["ms"] >= 0 for row in rows)
