"""Dedupe's CPU and memory: the same papers merged by each `--code` in turn, in fresh interpreters.

`index.library.dedupe.dedupe` runs in the app's own process during a first start (the
tagging workers run beside it), so its CPU is the start's. This loads the papers once
(files through the loaders, or `--synth N` generated arXiv-style papers), pickles them,
and for each run starts one interpreter per `--code` (a folder holding `index/` and
`assets/`, e.g. `git archive BASE index assets | tar -x -C SNAPSHOT`, put first on
PYTHONPATH; the first is the baseline), codes alternating within each run. Each child
unpickles the papers, turns the collector off (as the app does while it loads) and
measures `dedupe(papers)`: CPU seconds, and how far the peak resident memory rose above
what it held before (Linux). The result's digest must be the same for every code.

    python benchmarks/dedupe_speed.py [FILE ...] [--synth 20000] --code BASE --code NEW \
        [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# Run in the child, with the code under test first on PYTHONPATH.
CHILD = """
import gc, hashlib, json, pickle, resource, sys, time
from index.library.dedupe import dedupe

def rss_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20

with open(sys.argv[1], "rb") as stream:
    papers = pickle.load(stream)
gc.collect()
gc.disable()
before = rss_mb()
start = time.process_time()
result = dedupe(papers)
cpu = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
merged, links, pinned = result
digest = hashlib.sha256(repr((merged, links, pinned)).encode()).hexdigest()[:16]
print(json.dumps({"cpu_s": cpu, "peak_rise_mb": peak - before, "papers": len(papers),
                  "merged": len(merged), "links": len(links), "digest": digest}))
"""


def load_papers(files: list[Path], synth: int) -> list[Any]:
    """The papers as a load reads them, in load order (files first, then generated ones)."""
    from index.library.loaders import load_file

    papers = [paper for path in files for paper in load_file(path, path.name).papers]
    if synth:
        import synth as generator

        papers += generator.generate_papers(synth, seed=1)
    return papers


def measure(papers_file: Path, code: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(papers_file)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=tempfile.gettempdir(),  # outside any checkout: PYTHONPATH is what runs
    )
    if completed.returncode != 0:
        raise SystemExit(f"dedupe under {code} failed:\n{completed.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(completed.stdout)
    return result


def run(files: list[Path], synth: int, codes: list[Path], runs: int) -> dict[str, Any]:
    papers = load_papers(files, synth)
    with tempfile.TemporaryDirectory() as work:
        papers_file = Path(work) / "papers.pkl"
        papers_file.write_bytes(pickle.dumps(papers, protocol=pickle.HIGHEST_PROTOCOL))
        samples: list[list[dict[str, Any]]] = [[] for _ in codes]
        load = [os.getloadavg()[0]]
        for _ in range(runs):
            for n, code in enumerate(codes):
                samples[n].append(measure(papers_file, code))
            load.append(os.getloadavg()[0])
    base = statistics.median(s["cpu_s"] for s in samples[0])
    rows = [
        {
            "code": str(code),
            "cpu_s": [round(s["cpu_s"], 3) for s in found],
            "median_cpu_s": round(statistics.median(s["cpu_s"] for s in found), 3),
            "ratio": round(statistics.median(s["cpu_s"] for s in found) / base, 3),
            "peak_rise_mb": round(max(s["peak_rise_mb"] for s in found), 1),
            "merged": found[0]["merged"],
            "links": found[0]["links"],
            "digest": found[0]["digest"],
        }
        for code, found in zip(codes, samples)
    ]
    digests = {s["digest"] for found in samples for s in found}
    return {
        "papers": samples[0][0]["papers"],
        "load_average": [round(value, 2) for value in load],
        "identical": len(digests) == 1,
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="library files to load")
    parser.add_argument("--synth", type=int, default=0, help="add N generated papers")
    parser.add_argument("--code", type=Path, action="append", help="repeat: first = baseline")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.files and not args.synth:
        parser.error("give library files, --synth N, or both")
    codes = [code.resolve() for code in args.code or [Path(__file__).resolve().parent.parent]]
    report = run(args.files, args.synth, codes, args.runs)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0 if report["identical"] else 1
    print(f"{report['papers']} papers, load average {report['load_average']}")
    for row in report["rows"]:
        print(
            f"{row['code'][-40:]:40} CPU {row['median_cpu_s']:7.2f} s (runs {row['cpu_s']}) "
            f"{row['ratio']:.2f}x  peak +{row['peak_rise_mb']:.0f} MB  "
            f"{row['merged']} papers, {row['links']} links, {row['digest']}"
        )
    print("results identical" if report["identical"] else "RESULTS DIFFER")
    return 0 if report["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
