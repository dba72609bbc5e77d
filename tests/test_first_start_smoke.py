"""The first-start benchmark runs end to end at a tiny size and reports what it promises.

Speed is never asserted (the machine is shared); this proves `benchmarks/first_start.py`
still drives the installed app in tmux to its first result rows (cold, warm, after a file
grew) and times both baselines, and that its inputs are what the loader expects.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from tests.installed import needs_tmux_and_command

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import first_start  # noqa: E402

from index.facets.taxonomy import load_taxonomy  # noqa: E402
from index.library.load import load_library  # noqa: E402

TIMES: tuple[str, ...] = (
    "bare_s",
    "fts5_s",
    "cold_first_s",
    "cold_s",
    "warm_s",
    "grown_first_s",
    "grown_s",
)
TIMES += ("cold_first_off_s", "cold_off_s", "warm_off_s")


def test_inputs_are_arxiv_records_in_ten_files_and_grow_by_one(tmp_path: Path) -> None:
    files = first_start.write_inputs(40, 2, tmp_path)
    assert len(files) == first_start.FILES
    library = load_library([tmp_path], load_taxonomy())
    assert len(library.papers) == 40 and not library.warnings
    assert all(paper.year and paper.authors for paper in library.papers)
    first_start.grow_one_file(tmp_path, 2)
    grown = load_library([tmp_path], load_taxonomy())
    assert len(grown.papers) == 41
    assert any(paper.title.startswith("Zymurgical") for paper in grown.papers)
    first_start.grow_one_file(tmp_path, 2)  # again: another paper, not a duplicate
    twice = load_library([tmp_path], load_taxonomy())
    assert len(twice.papers) == 42
    assert len({paper.arxiv for paper in twice.papers}) == 42
    first_start.attach_pdfs(tmp_path, tmp_path / "pdfs", 1)  # a paper with its PDF
    attached = load_library([tmp_path], load_taxonomy())
    assert [Path(p).exists() for paper in attached.papers for p in paper.attachments] == [True]


@needs_tmux_and_command
def test_runs_tiny_and_reports_every_start_with_ratios(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "first_start.py"),
            "--docs",
            "40",
            "--pdfs",
            "2",
            "--json",
            "--timeout",
            "240",
            "--work-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert report["docs"] == 40 and report["files"] == 10 and report["pdfs"] == 2
    ratios: tuple[str, ...] = (
        "cold_first_vs_fts5",
        "cold_vs_fts5",
        "warm_vs_bare",
        "grown_first_vs_bare",
    )
    ratios += ("cold_first_on_vs_off", "cold_on_vs_off", "warm_on_vs_off")
    for key in (*TIMES, *ratios, "grown_vs_bare"):
        assert math.isfinite(report[key]) and report[key] > 0, key
    assert report["grown_first_s"] <= report["grown_s"]
