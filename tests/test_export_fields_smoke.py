"""`benchmarks/export_fields.py` runs on a small .bib and counts what each export keeps.

Not a speed test: it proves the measure still runs against the current exporters, and that
a fact the exports keep is not counted as lost.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import export_fields  # noqa: E402

BIB = """@book{knuth,
  author = {Knuth, Donald E.},
  title = {The {\\TeX}book},
  publisher = {Addison-Wesley},
  location = {Reading, Mass.},
  edition = {2},
  year = {1984},
  pages = {431--456, 791--823},
}
"""


def test_the_export_measure_counts_every_format(tmp_path: Path) -> None:
    library = tmp_path / "refs.bib"
    library.write_text(BIB, encoding="utf-8")
    env = dict(
        os.environ,
        PAPERSCOPE_CACHE_DIR=str(tmp_path / "cache"),
        PAPERSCOPE_DATA_DIR=str(tmp_path / "data"),
        PAPERSCOPE_CONFIG=str(tmp_path / "config.toml"),
    )
    command = [sys.executable, "-m", "tui"]
    results = export_fields.measure(library, command, env)
    assert set(results) == set(export_fields.FORMATS)
    for fmt, counts in results.items():
        assert counts["entries"] == 1 and counts["missing_entries"] == 0, fmt
    # BibTeX copies the entry whole: nothing it states is lost.
    lost = {k: v for k, v in results["bibtex"].items() if k not in ("entries", "missing_entries")}
    assert not any(lost.values()), lost
