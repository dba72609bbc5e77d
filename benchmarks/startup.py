"""Time from `paperscope` starting to its first results on screen, in a real terminal.

Issue 7 asks for first results within 0.5 s with a warm index and within 2 s from a cold
start (the index built first) on the bundled corpus. This starts the installed command in a
tmux pane and polls the screen until the status line says "47 of 47 papers". In the same
run, and the same way, it times a bare Textual app that paints one line, so the figures
come with a baseline: the part of start-up that is Python and Textual rather than
paperscope.

    python benchmarks/startup.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

# The results' status line; not the progress line of a build ("Indexing… 47 of 47 papers"),
# which would stop the clock (and kill the build) before any result is shown.
RESULTS = r"(?<!… )\b47 of 47 papers"

BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("bare app ready")

Bare().run()
"""


def _time_to_screen(command: str, marker: str, env: dict[str, str], timeout: float = 60) -> float:
    """Seconds from starting `command` in a fresh tmux pane until the regex `marker` matches."""
    return times_to_screen(command, [marker], env, timeout)[0]


def times_to_screen(
    command: str, markers: list[str], env: dict[str, str], timeout: float = 60
) -> list[float]:
    """Seconds from starting `command` in a fresh tmux pane until each regex of `markers`
    first matches; it stops once the last one has."""
    socket = f"startup-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    # Without PYTHONDONTWRITEBYTECODE, as on a user's machine: pip compiles an installed
    # package's bytecode, and an editable install's is written at its first start.
    prefix = "exec env -u PYTHONDONTWRITEBYTECODE " + " ".join(f"{k}={v}" for k, v in env.items())
    start = time.perf_counter()
    subprocess.run(
        [
            *tmux,
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "36",
            # Started outside any checkout: `python -m tui` puts the working folder first on
            # sys.path, ahead of PYTHONPATH, so a pinned snapshot would not be what ran.
            "-c",
            tempfile.gettempdir(),
            "--",
            "sh",
            "-c",
            f"{prefix} {command}",
        ],
        check=True,
    )
    seen: dict[str, float] = {}
    try:
        while time.perf_counter() - start < timeout:
            screen = subprocess.run(
                [*tmux, "capture-pane", "-p"], capture_output=True, text=True, check=False
            ).stdout
            for marker in markers:
                if marker not in seen and re.search(marker, screen):
                    seen[marker] = time.perf_counter() - start
            if markers[-1] in seen:
                return [seen.get(marker, seen[markers[-1]]) for marker in markers]
            time.sleep(0.01)
        raise RuntimeError(f"{markers[-1]!r} did not appear within {timeout} s")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, check=False)


def measure(runs: int) -> dict[str, float]:
    """Median seconds for the bare app, a cold start and a warm start."""
    paperscope = Path(sys.executable).with_name("paperscope")
    if shutil.which("tmux") is None or not paperscope.exists():
        raise SystemExit("needs tmux and the installed paperscope command")
    bare, cold, warm = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        bare_script = Path(tmp) / "bare.py"
        bare_script.write_text(BARE_APP)
        for run in range(runs):
            base = Path(tmp) / f"run{run}"
            env = {
                "PAPERSCOPE_CACHE_DIR": str(base / "cache"),
                "PAPERSCOPE_DATA_DIR": str(base / "data"),
                "PAPERSCOPE_CONFIG": str(base / "config.toml"),
                "TERM": "xterm-256color",
            }
            bare.append(_time_to_screen(f"{sys.executable} {bare_script}", "bare app ready", env))
            cold.append(_time_to_screen(str(paperscope), RESULTS, env))
            warm.append(_time_to_screen(str(paperscope), RESULTS, env))
    figures = {
        "runs": runs,
        "bare_textual_s": statistics.median(bare),
        "cold_start_s": statistics.median(cold),
        "warm_start_s": statistics.median(warm),
    }
    figures["cold_ratio"] = figures["cold_start_s"] / figures["bare_textual_s"]
    figures["warm_ratio"] = figures["warm_start_s"] / figures["bare_textual_s"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.runs)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"median of {args.runs} runs, first results on screen (bundled corpus, 47 papers)")
    print(f"  bare Textual app   {figures['bare_textual_s']:.3f} s   (baseline)")
    print(
        f"  paperscope warm    {figures['warm_start_s']:.3f} s   "
        f"x{figures['warm_ratio']:.2f}   target <= 0.5 s"
    )
    print(
        f"  paperscope cold    {figures['cold_start_s']:.3f} s   "
        f"x{figures['cold_ratio']:.2f}   target <= 2 s (index built first)"
    )


if __name__ == "__main__":
    main()
