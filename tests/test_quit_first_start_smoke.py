"""The quit benchmark runs end to end at a tiny size and reports what it promises.

Speed is never asserted (the machine is shared); this proves
`benchmarks/quit_first_start.py` still starts the installed app in tmux from empty
folders, presses `q`, sees the shell's line after it and reads tmux's terminal modes,
for a copy of the code given with `--code` as for the installed one, and for the bare
Textual app that gives the floor; with `--finish` it waits for what the start left and
finds the whole library's index published.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from tests.installed import needs_tmux_and_command

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


@needs_tmux_and_command
def test_runs_tiny_and_reports_the_time_to_the_prompt_with_ratios(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "quit_first_start.py"),
            "--synth",
            "40",
            "--steps",
            "reading",
            "--code",
            str(ROOT),
            "--code",
            str(ROOT),
            "--timeout",
            "120",
            "--work-dir",
            str(tmp_path),
            "--finish",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    rows = json.loads(completed.stdout)
    assert [(row["library"], row["step"]) for row in rows] == [
        ("bare Textual", "ready"),  # the floor
        ("synth-40", "reading"),
        ("synth-40", "reading"),
    ]
    for row in rows:
        assert math.isfinite(row["back_s"]) and row["back_s"] > 0
        assert row["restored"], row  # no alternate screen, mouse mode or hidden cursor left
    assert rows[1]["vs_first"] == 1.0 and rows[2]["vs_first"] > 0
    # Whether quit mid-start or after it, the next start opens the whole library's index.
    assert rows[1]["published"] == rows[2]["published"] == [40]
