"""An index built in a thread while another thread of the process is busy: the GIL convoy.

paperscope writes indexes in threads beside the app's UI thread: a small library's first
build, the sample index of a big library's first start, a live reload's in-place update.
Every system call releases the GIL, and when another thread is running, taking it back
waits out the interpreter's switch interval (5 ms). This builds N synthetic papers with
`index.store.writer.build_into` in a thread, once beside an idle main thread (the
baseline) and once beside a main thread that spins, each in a fresh interpreter, and
prints both and their ratio. `--baseline-code DIR` (a pinned snapshot holding `index`
and `assets`, see README.md) runs the same beside it.

    python benchmarks/thread_build.py [--papers 300] [--runs 3] [--baseline-code DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

CHILD = """
import sys, tempfile, threading, time
from pathlib import Path
sys.path.insert(0, {here!r})
import synth
from index.store.writer import build_into

papers = synth.generate_papers({papers}, seed=5)
folder = Path(tempfile.mkdtemp(dir={scratch!r})) / "index"
folder.mkdir()
took = []

def build():
    started = time.perf_counter()
    build_into(folder, papers, None, compressed=False)
    took.append(time.perf_counter() - started)

thread = threading.Thread(target=build)
thread.start()
if {busy!r}:
    spins = 0
    while thread.is_alive():  # a busy UI thread: pure Python, never a system call
        spins += 1
thread.join()
print(took[0])
"""


def _one(papers: int, busy: bool, code: Path | None, scratch: Path) -> float:
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    script = CHILD.format(here=str(HERE), papers=papers, scratch=str(scratch), busy=busy)
    # Run from the scratch folder: `python -c` puts the working directory first on the
    # path, and from the repository that would import its `index`, not the snapshot's.
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=scratch,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"thread_build: the child failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def measure(papers: int, runs: int, baseline_code: Path | None) -> dict[str, Any]:
    """Median seconds per (code, main thread) over `runs` alternating rounds."""
    codes: dict[str, Path | None] = {"this": None}
    if baseline_code is not None:
        codes["baseline"] = baseline_code
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            for name, code in codes.items():
                for busy in (False, True):
                    key = f"{name}_{'busy' if busy else 'idle'}_s"
                    times.setdefault(key, []).append(_one(papers, busy, code, Path(tmp)))
    figures: dict[str, Any] = {"papers": papers, "runs": runs}
    figures.update({key: round(statistics.median(v), 3) for key, v in times.items()})
    for name in codes:
        figures[f"{name}_busy_vs_idle"] = round(
            figures[f"{name}_busy_s"] / figures[f"{name}_idle_s"], 2
        )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline-code", type=Path, help="a snapshot of older code")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.papers, args.runs, args.baseline_code)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"build of {args.papers} papers in a thread (median of {args.runs})")
    for name in ("this", "baseline"):
        if f"{name}_idle_s" in figures:
            print(
                f"  {name + ' code':14} idle main thread {figures[f'{name}_idle_s']:6.2f} s"
                f"   busy main thread {figures[f'{name}_busy_s']:6.2f} s"
                f"   x{figures[f'{name}_busy_vs_idle']:.2f} idle"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
