"""What the engine's process holds in memory, step by step, on a library bench.py built.

Issue 15 asks for the app's memory at 100,000 papers (~505 MB RSS, goal <= 300 MB) and
what dominates it. Each configuration runs in a fresh interpreter (RSS never shrinks
back, so one process cannot measure two), reading the same files and index:

- `library`: the library alone (`synth.read_library`: every `Paper` in memory);
- `engine`: the library plus the open engine, as the app runs, then the benchmark's
  keystroke mix replayed once (caches filled as a session fills them);
- `stored`: the engine without the library (`library=None`, papers read from the
  index's stored fields), the same mix replayed: what the app would hold if it kept no
  `Paper` objects.

Each prints current RSS after every step, as total (anonymous + file-backed) MB and, for the engine, the sizes of its
own structures (facet masks, first-keystroke masks, columns, caches), so the difference
between steps says what dominates.

    python benchmarks/memory.py --cache-dir /tmp/bench-100k [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

MODES = ("library", "engine", "stored")


def rss_mb() -> str:
    """This process's resident set now (Linux), in MB: "total (anonymous + file-backed)".

    A memory-mapped index counts in RSS as the pages are touched (file-backed, shared and
    reclaimable); the anonymous part is what the process itself allocated.
    """
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "RssAnon", "RssFile"):
            fields[name] = int(value.split()[0]) / 1024
    return f"{fields['VmRSS']:.0f} ({fields['RssAnon']:.0f}+{fields['RssFile']:.0f})"


def _deep_mb(values: Any) -> float:
    """Approximate MB of a container of ints, strings and tuples (one level of nesting)."""
    total = sys.getsizeof(values)
    items = values.values() if isinstance(values, dict) else values
    for item in items:
        total += sys.getsizeof(item)
        if isinstance(item, (tuple, list)):
            total += sum(sys.getsizeof(x) for x in item)
        elif isinstance(item, dict):
            total += sum(sys.getsizeof(x) for x in item.values())
    return round(total / 2**20, 1)


def engine_parts(engine: Any) -> dict[str, float]:
    """MB of the engine's own long-lived structures."""
    masks = engine.masks
    return {
        "facet_masks_mb": _deep_mb(masks.masks),
        "first_keystroke_masks_mb": _deep_mb(engine._matching.letters),
        "id_column_mb": _deep_mb(masks.ids),
        "author_column_mb": _deep_mb(masks.authors),
        "venue_column_mb": _deep_mb(masks.venues),
        "sort_orders_mb": round(
            _deep_mb(masks.order_title) + _deep_mb(masks.order_year) + _deep_mb(masks.year_of), 1
        ),
        "lexicon_mb": _deep_mb(engine.lexicon.counts) if engine.lexicon else 0.0,
        "mask_cache_mb": _deep_mb(engine._matching.cache),
        # The scored words' postings (index.search.term_scores; none before 045a404).
        "term_scores_mb": _deep_mb(getattr(getattr(engine, "_term_scores", None), "_parts", {})),
        "stored_paper_cache_mb": _deep_mb(engine._stored),
    }


def child(mode: str, workdir: Path) -> dict[str, Any]:
    """One configuration's RSS after each step (run in a fresh interpreter)."""
    import bench
    import queries
    import synth

    from index.facets.taxonomy import load_taxonomy
    from index.search.engine import SearchEngine
    from index.store.generations import open_if_current

    steps: dict[str, Any] = {"start": rss_mb()}
    taxonomy = load_taxonomy()
    files = bench._library_files(workdir)
    steps["imported"] = rss_mb()
    library = None
    if mode != "stored":
        library = synth.read_library(files)
        gc.collect()
        steps["library"] = rss_mb()
        if mode == "library":
            return steps
    if library is not None:
        engine = bench.open_engine(library, taxonomy, workdir / "cache", rebuild=False)
    else:
        opened = open_if_current(tuple(str(f) for f in files), taxonomy, workdir / "cache")
        if opened is None:
            raise SystemExit("the index is not current for these files: run bench.py first")
        engine = SearchEngine(opened, None, taxonomy)
    gc.collect()
    steps["engine_open"] = rss_mb()
    for typed in queries.typed_requests():
        engine.search(typed.request)
    gc.collect()
    steps["after_mix"] = rss_mb()
    steps["parts"] = engine_parts(engine)
    steps["papers"] = engine.size
    return steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", required=True, type=Path, help="the folder bench.py used")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.cache_dir)))
        return 0
    report = {}
    for mode in MODES:
        done = subprocess.run(
            [sys.executable, __file__, "--child", mode, "--cache-dir", str(args.cache_dir)],
            capture_output=True,
            text=True,
            check=True,
        )
        report[mode] = json.loads(done.stdout.splitlines()[-1])
    if args.json:
        print(json.dumps(report))
        return 0
    for mode, steps in report.items():
        parts = steps.pop("parts", {})
        print(f"{mode:8s} " + "  ".join(f"{k} {v}" for k, v in steps.items()))
        if parts:
            print("         " + "  ".join(f"{k} {v}" for k, v in parts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
