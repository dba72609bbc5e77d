"""The dedupe benchmark runs end to end at a tiny size and reports what it promises.

Speed is never asserted (the machine is shared); this proves `benchmarks/dedupe_speed.py`
still loads and generates papers, measures `dedupe` under each `--code` in fresh
interpreters and says whether their results agree.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_runs_tiny_and_reports_cpu_ratios_and_agreement() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "dedupe_speed.py"),
            str(ROOT / "tests" / "fixtures" / "library" / "refs.bib"),
            "--synth",
            "40",
            "--code",
            str(ROOT),
            "--code",
            str(ROOT),
            "--runs",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT / "benchmarks",
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert report["papers"] == 45 and report["identical"]
    first, second = report["rows"]
    assert first["ratio"] == 1.0 and second["ratio"] > 0
    assert first["digest"] == second["digest"] and first["merged"] <= 45
    assert all(len(row["cpu_s"]) == 1 and row["peak_rise_mb"] >= 0 for row in report["rows"])
