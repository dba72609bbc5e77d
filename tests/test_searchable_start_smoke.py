"""The searchable-start benchmark runs end to end at a tiny size and reports what it promises.

Speed is never asserted (the machine is shared); this proves
`benchmarks/searchable_start.py` still starts the installed app in tmux from empty
folders for each `--code` given, sees the status of a search over the whole library, and
reports each code against the first from the same runs. Its markers are checked on the
statuses the app shows on the way (a sample's or the records' "so far", the build's count,
the lean index's "Completing the index"), so that it stops at the right one.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.installed import needs_tmux_and_command

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import searchable_start  # noqa: E402

from tui.view.facets import build_message, build_stage, completing_stage  # noqa: E402


def test_the_markers_tell_searchable_from_partial_and_lean_from_full() -> None:
    searchable = searchable_start.searchable_marker(20000)
    full = searchable_start.full_marker(20000)
    partial = [
        f"│ {build_stage(0, 1, 'merging duplicates')} · so far 20,000 of 20,000 papers",
        f"│ {build_stage(5, 10)} · so far 400 of 400 papers",
        f"│ {build_message(20000, 20000)}",
        "│ 120,000 of 120,000 papers",
    ]
    lean = f"│ {completing_stage(7000, 20000)} · 20,000 of 20,000 papers"
    whole = "│ 20,000 of 20,000 papers · 3 ms"
    for line in partial:
        assert not re.search(searchable, line), line
        assert not re.search(full, line), line
    assert re.search(searchable, lean) and not re.search(full, lean)
    assert re.search(searchable, whole) and re.search(full, whole)


@needs_tmux_and_command
def test_runs_tiny_and_reports_each_code_against_the_first(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "searchable_start.py"),
            "--docs",
            "40",
            "--code",
            str(ROOT),
            "--code",
            str(ROOT),
            "--runs",
            "1",
            "--timeout",
            "120",
            "--work-dir",
            str(tmp_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert [(row["run"], row["papers"]) for row in report["rows"]] == [(1, 40), (1, 40)]
    for row in report["rows"]:
        assert 0 < row["searchable_s"] <= row["full_s"]
    baseline, other = report["summary"]
    assert baseline["searchable_vs_baseline"] == 1.0
    assert other["searchable_vs_baseline"] > 0
