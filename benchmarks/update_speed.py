"""Small updates: 100 changed papers re-indexed in place, against FTS5's same update.

    python benchmarks/update_speed.py --docs 10000 100000 [--rounds 3] [--cache-dir DIR]

For each size: generate the synthetic library (synth.py) and build paperscope's index and
the FTS5 baseline once, each in a fresh interpreter (bench.py's child phases), unless the
work folder already holds them from an earlier run; then `--rounds` times, rewrite the
small source file of the 100 most recent papers with every one changed (a new marker word
each round) and time `open_engine` on the changed library (the in-place update and the
open) beside FTS5's 100 row updates (bench.py's update phase). Each round checks that the
marker finds exactly the changed papers in both. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script from anywhere, or imported by the tests
    sys.path.insert(0, str(HERE))

import bench  # noqa: E402
import measure  # noqa: E402
import synth  # noqa: E402


def prepared(workdir: Path, docs: int, seed: int) -> dict[str, Any]:
    """The work folder's library and both indexes, built unless an earlier run left them."""
    workdir.mkdir(parents=True, exist_ok=True)
    if (workdir / "fts5.db").exists() and bench._library_files(workdir):
        return {"reused": True}
    papers = synth.generate_papers(docs, seed)
    synth.write_library(papers, workdir / "library")
    del papers
    options = ["--cache-dir", str(workdir)]
    script = HERE / "bench.py"
    built = measure.run_child(script, "build-engine", options)
    fts5_built = measure.run_child(script, "build-fts5", options)
    return {"reused": False, "build_s": built["build_s"], "fts5_build_s": fts5_built["build_s"]}


def rounds(workdir: Path, docs: int, count: int) -> list[dict[str, Any]]:
    """`count` updates of the same 100 papers, each with a marker word of its own."""
    out = []
    for _ in range(count):
        library = synth.read_library(bench._library_files(workdir))
        # Letters only, unlike any generated word: a word the index has never seen.
        stamp = "".join(chr(ord("a") + int(d)) for d in str(time.time_ns())[-8:])
        out.append(bench.update_phase(workdir, library, synth.recent_count(docs), f"zqx{stamp}q"))
    return out


def report(docs: int, prepared: dict[str, Any], runs: list[dict[str, Any]]) -> dict[str, Any]:
    ours = [run["update_reopen_s"] for run in runs]
    theirs = [run["fts5_update_s"] for run in runs]
    ours_cpu = [run["update_reopen_cpu_s"] for run in runs]
    theirs_cpu = [run["fts5_update_cpu_s"] for run in runs]
    return {
        "docs": docs,
        **prepared,
        "actions": sorted({str(run["update_action"]) for run in runs}),
        "changed": runs[0]["update_changed"],
        "found_right": all(
            run["update_found"] == run["fts5_update_found"] == run["update_changed"] for run in runs
        ),
        "update_s": ours,
        "fts5_update_s": theirs,
        "median_s": statistics.median(ours),
        "fts5_median_s": statistics.median(theirs),
        "ratio_median": round(statistics.median(ours) / max(statistics.median(theirs), 1e-4), 1),
        "update_cpu_s": ours_cpu,
        "fts5_update_cpu_s": theirs_cpu,
        "cpu_median_s": statistics.median(ours_cpu),
        "fts5_cpu_median_s": statistics.median(theirs_cpu),
        "cpu_ratio_median": round(
            statistics.median(ours_cpu) / max(statistics.median(theirs_cpu), 1e-4), 1
        ),
        # The first keystrokes right after the update (p50 and slowest of 7 letters): the
        # update leaves their masks for its segment to the engine's first use.
        "one_letter_after_ms": [run["update_one_letter_ms"]["p50"] for run in runs],
        "one_letter_after_max_ms": [run["update_one_letter_ms"]["max"] for run in runs],
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=3, help="updates per size")
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    parser.add_argument("--cache-dir", help="work folder, one subfolder per size; default: temp")
    args = parser.parse_args(argv)
    root = Path(args.cache_dir) if args.cache_dir else Path(tempfile.mkdtemp(prefix="updates-"))
    for docs in args.docs:
        workdir = root / f"docs-{docs}"
        ready = prepared(workdir, docs, args.seed)
        result = report(docs, ready, rounds(workdir, docs, args.rounds))
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
