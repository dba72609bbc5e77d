"""Known-item search at scale: the time of what a person types, on bench.py's big library.

`known_item.py` scores the queries on real exports (a few thousand papers each); this
times the same kinds on the synthetic library of an earlier `bench.py --cache-dir` run
(100,000 papers), where a typo retried fuzzily or a key no paper has reads the long
posting lists. Issue 47's goal is that no such query is slower than the search-as-you-type
replay's p95 at 100,000 papers before its work (~175 ms). Synthetic papers have no DOI,
arXiv id or citation key: those kinds are asked as a person types them for a paper the
library lacks (a key in Better BibTeX's shape, a DOI, an arXiv id), which costs the most
(they are retried fuzzily or named as not found). Each one-typo title fragment is also
searched as the title has it: the typo's cost is read against the same words typed right
(the paired median ratio is printed).

    python benchmarks/known_item_scale.py --code BASE --dir BASE_RUN --code NEW --dir NEW_RUN
        [--papers 40] [--seed 1] [--slowest 10]

Each `--code` (a folder holding `index/` and `assets/`) is paired with the `--dir` of a
bench.py run whose index that code built (two index formats cannot share a folder); both
runs must have the same papers (same `--docs` and `--seed`). The codes run in fresh
interpreters, alternating in rounds over the same queries, so the machine's load is
shared. Every search is submitted with the engine's caches emptied first.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent

# Fields `known_item.queries_for` reads, for papers read from bench.py's JSON lines.
_FIELDS = ("doi", "arxiv", "isbn", "pmid", "citation_key", "title_inferred", "names", "year")


def draw(workdir: Path, count: int, seed: int) -> list[SimpleNamespace]:
    """`count` papers of the run's library at random (only the drawn lines are parsed)."""
    lines = [
        line
        for path in sorted((workdir / "library").glob("library-*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line
    ]
    rng = random.Random(seed)
    papers = []
    for line in rng.sample(lines, min(count, len(lines))):
        data = json.loads(line)
        data.setdefault("names", [])
        papers.append(SimpleNamespace(**dict.fromkeys(_FIELDS) | data))
    return papers


def queries(papers: list[SimpleNamespace], seed: int) -> list[dict[str, Any]]:
    """Each paper's known-item queries, plus identifiers the library lacks."""
    import known_item

    rng = random.Random(seed)
    found = []
    for paper in papers:
        paper.names = []  # the authors as one string each: `family` reads the last word
        for group, kind, text in known_item.queries_for(paper, rng, [], typed_right=True):
            found.append({"group": group, "kind": kind, "query": text, "paper": paper.id})
        name = (known_item.family(paper) or "x").lower()
        word = known_item.title_words(paper.title)[0].lower()
        number = rng.randrange(10**6, 10**7)
        absent = [
            ("key, not in the library", f"{name}{paper.year}{word}"),
            ("key prefix*, not in the library", f"{name}{paper.year}*"),
            ("DOI, not in the library", f"https://doi.org/10.1145/{number}.{number + 1}"),
            ("arXiv id, not in the library", f"2{rng.randrange(100, 512)}.{number % 100000:05d}"),
        ]
        found += [
            {"group": "absent", "kind": kind, "query": text, "paper": None} for kind, text in absent
        ]
    return found


def measure(workdir: Path, asked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each query searched once on the run's index by the code on `sys.path`."""
    import replay_index

    from index.models import SearchRequest

    engine = replay_index.open_as_built(workdir)
    rows = []
    try:
        engine.search(SearchRequest(query="warm", limit=5))
        for ask in asked:
            engine.forget_cached()
            started = time.perf_counter()
            result = engine.search(SearchRequest(query=ask["query"], limit=5, counts=True))
            elapsed = (time.perf_counter() - started) * 1000
            ids = [hit.paper.id for hit in result.hits]
            rank = ids.index(ask["paper"]) + 1 if ask["paper"] in ids else None
            rows.append({**ask, "rank": rank, "total": result.total, "ms": elapsed})
    finally:
        engine.close()
    return rows


def in_child(code: Path, workdir: Path, asked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`measure` in a fresh interpreter running `code` (two copies of `index` cannot share
    a process)."""
    command = [sys.executable, __file__, "--child", "--code", str(code), "--dir", str(workdir)]
    done = subprocess.run(
        command, input=json.dumps(asked), check=True, capture_output=True, text=True
    )
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def report(found: dict[str, list[dict[str, Any]]], slowest: int) -> None:
    """Per kind and code: median and p95 ms (and success@5 where the paper is there); the
    p95 over all; the slowest queries of the last code."""

    names = list(found)
    print(f"{'kind':40} {'n':>4}" + "".join(f" | {n[-24:]:>24}" for n in names))
    print(f"{'':45}" + " | @5    median    p95".rjust(27) * len(names))
    kinds = sorted({f"{r['group']}: {r['kind']}" for r in found[names[0]]})
    for kind in [*kinds, "all"]:
        line = ""
        count = 0
        for name in names:
            rows = [r for r in found[name] if kind in ("all", f"{r['group']}: {r['kind']}")]
            count = len(rows)
            times = sorted(r["ms"] for r in rows)
            scored = [r for r in rows if r["paper"] is not None]
            at5 = (
                f"{sum(r['rank'] is not None for r in scored) / len(scored):4.0%}"
                if scored
                else "   -"
            )
            p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
            line += f" | {at5} {statistics.median(times):7.1f} {p95:7.1f}"
        print(f"{kind:40} {count:4}{line}")
    for name in names:
        top = max(found[name], key=lambda r: r["ms"])
        print(f"{name}: slowest {top['ms']:.0f} ms ({top['query']!r})")
        right = {r["paper"]: r["ms"] for r in found[name] if r["kind"] == "title fragment, no typo"}
        ratios = [
            r["ms"] / right[r["paper"]]
            for r in found[name]
            if r["group"] == "title-typo" and right.get(r["paper"])
        ]
        if ratios:
            print(
                f"{name}: a one-typo fragment / the same words typed right, median of "
                f"{len(ratios)} pairs: {statistics.median(ratios):.2f}"
            )
    last = sorted(found[names[-1]], key=lambda r: -r["ms"])[:slowest]
    for row in last:
        print(f"slow {row['ms']:7.1f} ms total={row['total']:<6} {row['kind']:32} {row['query']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, action="append", required=True)
    parser.add_argument("--dir", type=Path, action="append", required=True)
    parser.add_argument("--papers", type=int, default=40, help="papers drawn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the codes")
    parser.add_argument("--slowest", type=int, default=10, help="slowest queries listed")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if len(args.code) != len(args.dir):
        parser.error("give one --dir per --code")
    for code in args.code:
        if not (code / "index" / "__init__.py").is_file():
            parser.error(f"--code {code}: no index/ package there")
    if args.child:
        sys.path[:0] = [str(args.code[0].resolve()), str(HERE)]
        print(json.dumps(measure(args.dir[0], json.loads(sys.stdin.read()))))
        return
    sys.path.insert(0, str(HERE))
    asked = queries(draw(args.dir[0], args.papers, args.seed), args.seed)
    # A paper's queries in one round: a typo and its words typed right see the same load.
    papers = list(dict.fromkeys(str(ask["paper"]) for ask in asked))
    chunks = [
        [ask for ask in asked if str(ask["paper"]) in papers[i :: args.rounds]]
        for i in range(args.rounds)
    ]
    found: dict[str, list[dict[str, Any]]] = {str(code): [] for code in args.code}
    for number, chunk in enumerate(chunks, 1):
        for code, workdir in zip(args.code, args.dir):
            print(f"round {number}/{len(chunks)}: {code} on {workdir}…", file=sys.stderr)
            found[str(code)] += in_child(code.resolve(), workdir, chunk)
    if args.json:
        print(json.dumps(found))
        return
    report(found, args.slowest)


if __name__ == "__main__":
    main()
