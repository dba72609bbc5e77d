"""The two benchmarks that drive the installed command in tmux still run, at their smallest.

Speed is never asserted (the machine is shared): each run proves the script works against
the current app and reports its figures beside the bare Textual baseline it promises.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
PAPERSCOPE = Path(sys.executable).with_name("paperscope")

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(not PAPERSCOPE.exists(), reason="the paperscope command is not installed"),
    pytest.mark.xdist_group("benchmark-tmux-smoke"),
]


def _run(*args: str) -> dict:
    completed = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    figures: dict = json.loads(completed.stdout)
    return figures


def test_the_startup_benchmark_times_both_starts_against_the_bare_app() -> None:
    figures = _run(str(BENCHMARKS / "startup.py"), "--runs", "1", "--json")
    assert figures["bare_textual_s"] > 0
    assert figures["cold_start_s"] > 0 and figures["warm_start_s"] > 0
    assert figures["cold_ratio"] == figures["cold_start_s"] / figures["bare_textual_s"]


def test_the_typing_output_benchmark_counts_bytes_for_both_apps() -> None:
    figures = _run(
        str(BENCHMARKS / "typing_output.py"),
        "--rounds",
        "1",
        "--query",
        "kv",
        "--gap",
        "0.3",
        "--size",
        "80x24",
        "--json",
    )
    assert figures["keys"] == 2
    for app in ("bare", "paperscope"):
        assert len(figures["bytes"][app]) == 1 and figures["bytes"][app][0] > 0
        assert figures["bytes_per_key"][app] == figures["bytes"][app][0] / 2
    assert figures["vs_bare"]["paperscope"] > 0
