"""bench.py's replay alone, on the index and FTS5 database an earlier bench.py run built.

    python benchmarks/replay_index.py --cache-dir /tmp/bench-1m [--repeat 1] [--json]
        [--rows rows.json]

A million papers take ~30 minutes to index and FTS5 a few more; a change to search code
that keeps the index's format is measured here in minutes, on the same index, against
FTS5 in the same run (request by request, as bench.py interleaves them). The index is
opened as it was built, without the library (as the app on a current index), and read as
the store reads it: memory-mapped up to `MMAP_UP_TO_BYTES` on disk, from the files
beyond (Whoosh copies each file of a mapped segment into memory: at 1,000,000 papers
4 GB of copies and 9 GB of RSS). The store is not asked whether this code would have
built the index the same way, which it would answer by rebuilding. Figures are printed,
never asserted; read the ratios.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script from anywhere, or imported by the tests
    sys.path.insert(0, str(HERE))

import bench  # noqa: E402
import fts5  # noqa: E402
from whoosh.filedb.filestore import FileStorage  # noqa: E402
from whoosh.index import Index  # noqa: E402

from index.facets.taxonomy import load_taxonomy  # noqa: E402
from index.search.engine import SearchEngine  # noqa: E402
from index.store.generations import MMAP_UP_TO_BYTES  # noqa: E402


@dataclass(frozen=True)
class AsBuilt:
    """The index of an earlier run, as the engine needs it (index.search.engine.OpenedIndex)."""

    index: Index
    path: Path


def open_as_built(workdir: Path) -> SearchEngine[AsBuilt]:
    """The engine on the one index under `workdir`/cache, its folder as `current.json` names it."""
    records = sorted((workdir / "cache").glob("library-*/current.json"))
    if len(records) != 1:
        raise SystemExit(
            f"{workdir / 'cache'}: {len(records)} indexes, expected one (run bench.py)"
        )
    folder = records[0].parent / json.loads(records[0].read_text(encoding="utf-8"))["dir"]
    size = sum(entry.stat().st_size for entry in folder.iterdir() if entry.is_file())
    index = FileStorage(str(folder), supports_mmap=size <= MMAP_UP_TO_BYTES).open_index()
    return SearchEngine(AsBuilt(index, folder), None, load_taxonomy())


def run(workdir: Path, repeat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    started = time.perf_counter()
    engine = open_as_built(workdir)
    opened_s = time.perf_counter() - started
    baseline = fts5.Fts5Index(workdir / "fts5.db")
    rows = bench.replay(engine, baseline, repeat)
    overall = bench._group(rows, None)["overall"]
    report = {
        "docs": engine.size,
        "requests": len(rows),
        "open_s": round(opened_s, 2),
        "engine_source": bench._engine_source(),
        **{key: overall[key] for key in ("p50_ms", "p95_ms", "max_ms", "errors", "same_total")},
        **{f"fts5_{key}": overall[f"fts5_{key}"] for key in ("p50_ms", "p95_ms", "max_ms")},
        "ratio_p50": overall["ratio_p50"],
        "ratio_p95": overall["ratio_p95"],
        "per_kind": bench._group(rows, "kind"),
        "per_stage": bench._group(rows, "stage"),
    }
    engine.close()
    return report, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache-dir", required=True, help="the work folder of a bench.py run")
    parser.add_argument("--repeat", type=int, default=1, help="replay the mix this many times")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--rows", help="write every request's timing to this JSON file")
    args = parser.parse_args(argv)
    report, rows = run(Path(args.cache_dir), args.repeat)
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(
        f"paperscope vs SQLite FTS5 on an index built earlier: {report['docs']} papers, "
        f"{report['requests']} keystroke requests, opened in {report['open_s']} s"
    )
    print(f"engine measured: {report['engine_source']}")
    bench.print_tables(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
