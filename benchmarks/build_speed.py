"""How soon a big library is searchable whole: its first build, against another commit's.

A first start reads the library, then builds its index (`open_engine(..., rebuild=True)`:
at 3,000 papers or more a build process with two writer workers, then the search tables,
the publish and the engine's open); until that is done only a sample answers. This times
that build to the engine's first answer, the part of a first start the index code owns,
for this checkout's code and, in the same run and alternating with it, for another
commit's (`--baseline-code DIR`, a checkout or `git archive` of it holding `index`).

This checkout's build serves a lean index of every paper first (index.store.lean, from
`--lean-min` papers): the time to that index's first answer is when the whole library is
searchable, reported beside the full index's and as a ratio to the baseline's full build
(the baseline is asked for no preview: its full build alone, the quickest it has).

Each build runs in a fresh interpreter with its code first on `sys.path` (the build
process it starts inherits that path), on the same N synthetic papers (`synth.py`, written
once as JSONL). Reported per code: the median seconds, papers per second, the CPU seconds
of the whole build tree (the interpreter, the build process and its workers) per paper,
and the ratio to the baseline; with the load average before and after, since the
machine is shared.

    python benchmarks/build_speed.py --docs 20000 [--runs 2] [--baseline-code DIR]
        [--baseline-lean] [--lean-min N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _child(code: Path, work: Path, lean_min: int | None = None) -> dict[str, Any]:
    """In a fresh interpreter: build the library in `work` with the `index` of `code`.

    `lean_min`: a first build this size or more serves a lean index first
    (index.store.lean; the threshold is set to it, so a smoke run at 30 papers has one):
    the time to its first answer is reported beside the full index's. None: no preview
    is asked for (the baseline: its full build alone, the quickest it has).
    """
    sys.path[:0] = [str(code), str(HERE)]
    import synth

    import index
    from index.facets.taxonomy import load_taxonomy
    from index.models import SearchRequest

    library = synth.read_library(sorted((work / "library").glob("*.jsonl")))
    taxonomy = load_taxonomy()
    cache = work / f"cache-{os.getpid()}"
    marks: dict[str, Any] = {}

    def cpu_so_far() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the finished ones
        return time.process_time() - cpu + children.ru_utime + children.ru_stime

    def lean(engine: Any) -> None:
        """The lean index's first answer, timed as the full index's is below."""
        marks["lean_papers"] = engine.search(SearchRequest(query="", as_you_type=True)).total
        marks["lean_seconds"] = time.perf_counter() - started
        marks["lean_cpu_s"] = cpu_so_far()
        engine.close()

    if lean_min is not None:
        import index.store.lean as lean_store

        lean_store.LEAN_MIN_PAPERS = lean_min
    cpu = time.process_time()
    started = time.perf_counter()
    engine = index.open_engine(
        library, taxonomy, cache, rebuild=True, preview=lean if lean_min is not None else None
    )
    total = engine.search(SearchRequest(query="", as_you_type=True)).total
    seconds = time.perf_counter() - started
    return {
        "source": str(Path(index.__file__).parent),
        "papers": total,
        "seconds": seconds,
        "cpu_s": cpu_so_far(),
        **marks,
    }


def _run(code: Path, work: Path, lean_min: int | None = None) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(code), str(work)]
    if lean_min is not None:
        command += ["--lean-min", str(lean_min)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        raise SystemExit(f"the build with {code} failed: {lines[-1]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(
    docs: int,
    runs: int,
    work: Path,
    baseline: Path | None,
    lean_min: int | None = None,
    baseline_lean: bool = False,
) -> dict[str, Any]:
    """Median build figures per code over `runs` alternating builds, and their ratios.

    `lean_min`: this checkout's builds serve a lean index first from this many papers
    (`_child`); the baseline's ask for no preview, unless `baseline_lean` (a baseline
    that has the lean index too): then both lean indexes are compared as well."""
    sys.path.insert(0, str(HERE))
    import synth

    synth.write_library(synth.generate_papers(docs, seed=1), work / "library")
    codes = {"this": ROOT} | ({"baseline": baseline} if baseline is not None else {})
    seen: dict[str, list[dict[str, Any]]] = {name: [] for name in codes}
    load_before = os.getloadavg()[0]
    for run in range(runs):
        for name, code in codes.items():
            load = os.getloadavg()[0]
            asks = name == "this" or baseline_lean
            result = _run(code, work, lean_min if asks else None)
            if result["papers"] != docs or result.get("lean_papers", docs) != docs:
                raise SystemExit(f"{name}: the built index answers {result['papers']} papers")
            result["load"] = load
            seen[name].append(result)
            lean = (
                f"lean {result['lean_seconds']:.1f} s (CPU {result['lean_cpu_s']:.1f} s), "
                if "lean_seconds" in result
                else ""
            )
            print(
                f"run {run + 1}/{runs} {name}: {lean}full {result['seconds']:.1f} s, "
                f"CPU {result['cpu_s']:.1f} s, load {load:.2f}",
                file=sys.stderr,
            )
    figures: dict[str, Any] = {
        "docs": docs,
        "runs": runs,
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }
    medians: dict[str, tuple[float, float]] = {}  # unrounded: the ratios come from these
    for name, results in seen.items():
        seconds = statistics.median(r["seconds"] for r in results)
        cpu = statistics.median(r["cpu_s"] for r in results)
        medians[name] = (seconds, cpu)
        figures[name] = {
            "source": results[0]["source"],
            "seconds": round(seconds, 2),
            "papers_per_s": round(docs / seconds),
            "cpu_ms_per_paper": round(cpu / docs * 1000, 3),
            "runs": [
                {
                    k: round(r[k], 2)
                    for k in ("seconds", "cpu_s", "lean_seconds", "lean_cpu_s", "load")
                    if k in r
                }
                for r in results
            ],
        }
        if all("lean_seconds" in r for r in results):
            lean_s = statistics.median(r["lean_seconds"] for r in results)
            lean_cpu = statistics.median(r["lean_cpu_s"] for r in results)
            medians[f"{name}_lean"] = (lean_s, lean_cpu)
            figures[name]["lean_seconds"] = round(lean_s, 2)
            figures[name]["lean_cpu_ms_per_paper"] = round(lean_cpu / docs * 1000, 3)
    if baseline is not None:
        (this_s, this_cpu), (base_s, base_cpu) = medians["this"], medians["baseline"]
        figures["seconds_vs_baseline"] = round(this_s / base_s, 3)
        figures["cpu_vs_baseline"] = round(this_cpu / base_cpu, 3)
        # Each run's two builds ran back to back, under much the same load.
        figures["per_run_seconds_vs_baseline"] = [
            round(a["seconds"] / b["seconds"], 3) for a, b in zip(seen["this"], seen["baseline"])
        ]
        if "this_lean" in medians:  # the whole library searchable: the lean index's answer
            lean_s, lean_cpu = medians["this_lean"]
            figures["lean_seconds_vs_baseline"] = round(lean_s / base_s, 3)
            figures["lean_cpu_vs_baseline"] = round(lean_cpu / base_cpu, 3)
            figures["per_run_lean_vs_baseline"] = [
                round(a["lean_seconds"] / b["seconds"], 3)
                for a, b in zip(seen["this"], seen["baseline"])
            ]
        if "this_lean" in medians and "baseline_lean" in medians:  # lean against lean
            (lean_s, lean_cpu), (blean_s, blean_cpu) = (
                medians["this_lean"],
                medians["baseline_lean"],
            )
            figures["lean_vs_baseline_lean"] = round(lean_s / blean_s, 3)
            figures["lean_cpu_vs_baseline_lean"] = round(lean_cpu / blean_cpu, 3)
            figures["per_run_lean_cpu_vs_baseline_lean"] = [
                round(a["lean_cpu_s"] / b["lean_cpu_s"], 3)
                for a, b in zip(seen["this"], seen["baseline"])
            ]
    return figures


def print_report(f: dict[str, Any]) -> None:
    print(
        f"first build of {f['docs']:,} synthetic papers to the engine's first answer "
        f"(median of {f['runs']}; load {f['load_before']} -> {f['load_after']})"
    )
    for name in ("baseline", "this"):
        if name in f:
            g = f[name]
            print(
                f"  {name:8} {g['seconds']:8.2f} s  {g['papers_per_s']:6,} papers/s  "
                f"CPU {g['cpu_ms_per_paper']:.3f} ms/paper   ({g['source']})"
            )
    for name in ("baseline", "this"):
        if "lean_seconds" in f.get(name, {}):
            g = f[name]
            print(
                f"  {name}'s lean index answered at {g['lean_seconds']:.2f} s "
                f"(CPU {g['lean_cpu_ms_per_paper']:.3f} ms/paper so far)"
            )
    if "lean_vs_baseline_lean" in f:
        per_run = ", ".join(f"x{ratio:.3f}" for ratio in f["per_run_lean_cpu_vs_baseline_lean"])
        print(
            f"  lean index, this / baseline (lean): time x{f['lean_vs_baseline_lean']:.3f}, "
            f"CPU x{f['lean_cpu_vs_baseline_lean']:.3f} (each run: {per_run})"
        )
    if "lean_seconds_vs_baseline" in f:
        per_run = ", ".join(f"x{ratio:.3f}" for ratio in f["per_run_lean_vs_baseline"])
        print(
            f"  whole library searchable, this (lean) / baseline (full): "
            f"time x{f['lean_seconds_vs_baseline']:.3f} (each run: {per_run}), "
            f"CPU x{f['lean_cpu_vs_baseline']:.3f}"
        )
    if "seconds_vs_baseline" in f:
        per_run = ", ".join(f"x{ratio:.3f}" for ratio in f["per_run_seconds_vs_baseline"])
        print(
            f"  full index, this / baseline: time x{f['seconds_vs_baseline']:.3f} "
            f"(each run: {per_run}), "
            f"CPU x{f['cpu_vs_baseline']:.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--baseline-code", type=Path, help="another checkout's root (its index)")
    parser.add_argument("--work-dir", type=Path, help="keep the library and indexes here")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--lean-min",
        type=int,
        help="this checkout serves a lean index first from this many papers "
        "(default: the code's own threshold, 5,000; 0: never)",
    )
    parser.add_argument(
        "--baseline-lean",
        action="store_true",
        help="the baseline serves a lean index first too (it has index/store/lean.py): "
        "the two lean indexes compared",
    )
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:  # the baseline's child is given no threshold: no preview
        print(json.dumps(_child(*args.child, lean_min=args.lean_min)))
        return 0
    lean_min = (5000 if args.lean_min is None else args.lean_min) or None
    baseline = args.baseline_code.resolve() if args.baseline_code else None
    if baseline is not None and not (baseline / "index").is_dir():
        parser.error(f"--baseline-code {baseline}: no index package there")
    if args.work_dir is not None:
        args.work_dir.mkdir(parents=True, exist_ok=True)
        figures = measure(
            args.docs, args.runs, args.work_dir, baseline, lean_min, args.baseline_lean
        )
    else:
        with tempfile.TemporaryDirectory(prefix="build-speed-") as tmp:
            figures = measure(
                args.docs, args.runs, Path(tmp), baseline, lean_min, args.baseline_lean
            )
    if args.json:
        print(json.dumps(figures))
    else:
        print_report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
