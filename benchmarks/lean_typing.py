"""Typing on a big library's lean first index, against the full index of the same papers.

While a first build of 5,000 papers or more completes, a lean index answers (index.store.
lean); its word starts come from the library's words (index.search.lean.WordStarts)
instead of the full index's edge n-grams. This builds both for N synthetic papers
(`synth.py`), as a first start does, then types the benchmark's scripts
(`queries.typed_requests`) a key at a time on each, alternating, each engine's caches
cleared before each script; reported per stage (the word being typed: 1, 2, 3, 4+
letters, complete) the median and p95 milliseconds on each and their ratio, the matched
totals compared, and the seconds `WordStarts` took to read the words (the engine's
`preload`).

    python benchmarks/lean_typing.py --docs 20000 [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import synth  # noqa: E402
from measure import summary  # noqa: E402
from queries import typed_requests  # noqa: E402

import index  # noqa: E402
from index.facets.taxonomy import load_taxonomy  # noqa: E402
from index.store import lean as lean_store  # noqa: E402


def _stage(query: str) -> str:
    if not query.strip():
        return "empty"
    if query[-1].isspace() or query.endswith(('"', "~")):
        return "complete"
    letters = len(query.split()[-1].split(":")[-1].lstrip('"'))
    return {1: "1 letter", 2: "2 letters", 3: "3 letters"}.get(letters, "4+ letters")


def measure(docs: int, work: Path) -> dict[str, Any]:
    """Both engines' keystroke times by stage, and whether their totals agree."""
    library = synth.read_library(
        synth.write_library(synth.generate_papers(docs, seed=1), work / "library")
    )
    threshold = lean_store.LEAN_MIN_PAPERS
    lean_store.LEAN_MIN_PAPERS = min(threshold, docs)  # a smoke run's few papers too
    served: list[Any] = []
    started = time.perf_counter()
    try:
        full = index.open_engine(library, load_taxonomy(), work / "cache", preview=served.append)
    finally:
        lean_store.LEAN_MIN_PAPERS = threshold
    build_s = time.perf_counter() - started
    (lean,) = served
    started = time.perf_counter()
    lean.preload()
    preload_s = time.perf_counter() - started
    times: dict[str, dict[str, list[float]]] = {"lean": {}, "full": {}}
    differ = []
    scripts: dict[str, list[Any]] = {}
    for typed in typed_requests():
        scripts.setdefault(typed.kind + typed.request.query[:1], []).append(typed)
    for keys in scripts.values():
        totals: dict[str, list[int]] = {}
        for name, engine in (("lean", lean), ("full", full)):
            engine.forget_cached()
            for typed in keys:
                started = time.perf_counter()
                result = engine.search(typed.request)
                elapsed = (time.perf_counter() - started) * 1000
                times[name].setdefault(_stage(typed.request.query), []).append(elapsed)
                totals.setdefault(name, []).append(result.total)
        differ += [
            typed.request.query
            for typed, a, b in zip(keys, totals["lean"], totals["full"])
            if a != b and '"' not in typed.request.query  # a phrase: its words, on the lean
        ]
    lean.close()
    full.close()
    stages = sorted(times["lean"])
    figures: dict[str, Any] = {
        "docs": docs,
        "build_s": round(build_s, 1),
        "word_starts_read_s": round(preload_s, 3),
        "load": round(os.getloadavg()[0], 2),
        "totals_differ": differ,
        "stages": {},
    }
    for stage in stages:
        lean_ms, full_ms = summary(times["lean"][stage]), summary(times["full"][stage])
        figures["stages"][stage] = {
            "requests": len(times["lean"][stage]),
            "lean_ms": lean_ms,
            "full_ms": full_ms,
            "p50_ratio": round(lean_ms["p50_ms"] / max(full_ms["p50_ms"], 1e-6), 2),
            "p95_ratio": round(lean_ms["p95_ms"] / max(full_ms["p95_ms"], 1e-6), 2),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=20000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lean-typing-") as work:
        f = measure(args.docs, Path(work))
    if args.json:
        print(json.dumps(f))
        return
    print(
        f"typing on the lean index against the full one, {f['docs']:,} synthetic papers "
        f"(both built in {f['build_s']} s; WordStarts read in {f['word_starts_read_s']} s; "
        f"load {f['load']})"
    )
    for stage, g in f["stages"].items():
        lean, full = g["lean_ms"], g["full_ms"]
        print(
            f"  {stage:10} {g['requests']:3} requests  lean p50 {lean['p50_ms']:7.1f} "
            f"p95 {lean['p95_ms']:7.1f} ms   full p50 {full['p50_ms']:7.1f} p95 {full['p95_ms']:7.1f} ms"
            f"   x{g['p50_ratio']} / x{g['p95_ratio']}"
        )
    print(f"  totals that differ (phrases aside): {f['totals_differ'] or 'none'}")


if __name__ == "__main__":
    main()
