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

`--phrases` times finished phrases instead, each searched `--repeat` times on each engine
(alternating, every cache cleared before each search, the lean engine's analysed texts
too: the first search of a session), with how many candidates the lean index checked
(the papers holding the words in a field) and whether the rows are the full index's. The
phrases are the scripts' two, the three commonest pairs of side-by-side abstract words,
one with a stop word inside, the commonest pair reversed with a slop of 3, one in
`title:`, one negated and one author's name.

    python benchmarks/lean_typing.py --docs 20000 [--phrases] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import synth  # noqa: E402
from measure import summary  # noqa: E402
from queries import typed_requests  # noqa: E402

import index  # noqa: E402
from index.facets.taxonomy import load_taxonomy  # noqa: E402
from index.models import Library, SearchRequest  # noqa: E402
from index.schema.analysis import PROSE_STOP_WORDS, folded_words  # noqa: E402
from index.store import lean as lean_store  # noqa: E402


def _stage(query: str) -> str:
    if not query.strip():
        return "empty"
    if query[-1].isspace() or query.endswith(('"', "~")):
        return "complete"
    letters = len(query.split()[-1].split(":")[-1].lstrip('"'))
    return {1: "1 letter", 2: "2 letters", 3: "3 letters"}.get(letters, "4+ letters")


def _engines(docs: int, work: Path) -> tuple[Library, Any, Any, float]:
    """The library, the lean engine a first start serves, the full one, the build seconds."""
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
    (lean,) = served
    return library, lean, full, time.perf_counter() - started


def measure(docs: int, work: Path) -> dict[str, Any]:
    """Both engines' keystroke times by stage, and whether their totals agree."""
    _, lean, full, build_s = _engines(docs, work)
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
            if a != b
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


def _phrases(library: Library) -> list[str]:
    """The phrases timed (module docstring), from the library's own commonest words."""
    pairs: Counter[tuple[str, str]] = Counter()
    stopped: Counter[tuple[str, str, str]] = Counter()  # a stop word between two words
    for paper in library.papers[:2000]:
        words = list(folded_words(paper.abstract))
        pairs.update(
            (a, b)
            for a, b in pairwise(words)
            if a not in PROSE_STOP_WORDS and b not in PROSE_STOP_WORDS
        )
        stopped.update(
            (a, b, c)
            for a, b, c in zip(words, words[1:], words[2:])
            if b in PROSE_STOP_WORDS and a not in PROSE_STOP_WORDS and c not in PROSE_STOP_WORDS
        )
    common = [f'"{a} {b}"' for (a, b), _ in pairs.most_common(3)]
    first, second = pairs.most_common(1)[0][0] if pairs else ("memory", "bandwidth")
    with_stop = " ".join(stopped.most_common(1)[0][0]) if stopped else "mixture of experts"
    author = next((p.authors[0] for p in library.papers if p.authors), "Ana Li")
    return [
        '"mixture of experts"',
        '"tensor compiler"',
        *common,
        f'"{with_stop}"',
        f'"{second} {first}"~3',
        f'title:"{first} {second}"',
        f'{first} -"{first} {second}"',
        f'author:"{author}"',
    ]


def measure_phrases(docs: int, work: Path, repeat: int) -> dict[str, Any]:
    """Each phrase's search times on both engines, cold, and whether their rows agree."""
    library, lean, full, build_s = _engines(docs, work)
    lean.preload()
    rows: dict[str, Any] = {}
    for phrase in _phrases(library):
        request = SearchRequest(query=phrase, limit=50)
        words = SearchRequest(query=phrase.replace('"', ""), limit=0)
        times: dict[str, list[float]] = {"lean": [], "full": []}
        answers: dict[str, Any] = {}
        for _ in range(repeat):
            for name, engine in (("lean", lean), ("full", full)):
                engine.forget_cached()
                started = time.perf_counter()
                result = engine.search(request)
                times[name].append((time.perf_counter() - started) * 1000)
                answers[name] = (result.total, [hit.paper.id for hit in result.hits])
        lean_ms, full_ms = summary(times["lean"]), summary(times["full"])
        rows[phrase] = {
            "total": answers["full"][0],
            "words_total": lean.search(words).total,
            "same_rows": answers["lean"] == answers["full"],
            "lean_ms": lean_ms,
            "full_ms": full_ms,
            "p50_ratio": round(lean_ms["p50_ms"] / max(full_ms["p50_ms"], 1e-6), 2),
            "p95_ratio": round(lean_ms["p95_ms"] / max(full_ms["p95_ms"], 1e-6), 2),
        }
    lean.close()
    full.close()
    return {
        "docs": docs,
        "build_s": round(build_s, 1),
        "repeat": repeat,
        "load": round(os.getloadavg()[0], 2),
        "phrases": rows,
    }


def _print_phrases(f: dict[str, Any]) -> None:
    print(
        f"finished phrases on the lean index against the full one, {f['docs']:,} synthetic "
        f"papers, {f['repeat']} cold searches each (load {f['load']})"
    )
    for phrase, g in f["phrases"].items():
        lean, full = g["lean_ms"], g["full_ms"]
        same = "same rows" if g["same_rows"] else "ROWS DIFFER"
        print(
            f"  {phrase[:34]:34} {g['total']:6,} of {g['words_total']:6,}  lean p50 "
            f"{lean['p50_ms']:7.1f} p95 {lean['p95_ms']:7.1f} ms   full p50 {full['p50_ms']:7.1f}"
            f" p95 {full['p95_ms']:7.1f} ms   x{g['p50_ratio']} / x{g['p95_ratio']}  {same}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=20000)
    parser.add_argument("--phrases", action="store_true")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lean-typing-") as work:
        if args.phrases:
            f = measure_phrases(args.docs, Path(work), args.repeat)
        else:
            f = measure(args.docs, Path(work))
    if args.json:
        print(json.dumps(f))
        return
    if args.phrases:
        _print_phrases(f)
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
    print(f"  totals that differ: {f['totals_differ'] or 'none'}")


if __name__ == "__main__":
    main()
