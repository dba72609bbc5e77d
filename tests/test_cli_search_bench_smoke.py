"""The CLI search benchmark runs end to end at a tiny size and reports what it promises.

Speed is never asserted (the machine is shared); this proves `benchmarks/cli_search.py`
assembles a library, grows it with variants that dedupe keeps apart, and times every
command and both baselines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "library"
sys.path.insert(0, str(BENCHMARKS))

import cli_search  # noqa: E402

from index.facets.taxonomy import load_taxonomy  # noqa: E402
from index.library.load import load_library  # noqa: E402


def test_variants_grow_the_library_to_the_count_asked(tmp_path: Path) -> None:
    library = tmp_path / "library"
    cli_search.copy_inputs([FIXTURES / "arxiv.jsonl", FIXTURES / "csl.json"], library)
    real = len(load_library([library], load_taxonomy()).papers)
    assert cli_search.write_variants(library, real * 2 + 3, tmp_path / "scratch") == real * 2 + 3
    grown = load_library([library], load_taxonomy()).papers
    assert len(grown) == real * 2 + 3  # no variant merged with its original
    assert sum(paper.title.startswith("Variant ") for paper in grown) == real + 3


@pytest.mark.skipif(
    not Path(sys.executable).with_name("paperscope").exists(),
    reason="needs the installed paperscope command",
)
def test_runs_tiny_and_reports_every_command_with_ratios(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "cli_search.py"),
            "--corpus",
            str(FIXTURES / "arxiv.jsonl"),
            "--rounds",
            "1",
            "--query",
            "tensor",
            "--work-dir",
            str(tmp_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    figures = json.loads(completed.stdout)
    assert figures["papers"] > 0 and figures["rounds"] == 1
    for name in ("python", "fts5", "search", "count", "search_layer"):
        assert figures[f"{name}_s"] > 0
    assert figures["search_vs_fts5"] > 0
