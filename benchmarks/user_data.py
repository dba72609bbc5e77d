"""What a change to the user's tags costs now that it is merged into the file under a lock.

Issue 46 made every change to `annotations.json` (and the other user files) an operation
applied to the file as it is now: take the lock, read and check the file, apply, write it
atomically. Before, a change only wrote the session's copy. This times
`Annotations.change_tags` on a file of N tagged papers and, in the same run, the baseline:
`write_text_atomic` of the same JSON, which is what a change cost before. Read the ratio;
the machine is shared and noisy.

    python benchmarks/user_data.py [--records 5000] [--changes 30] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from index.atomic import write_text_atomic
from index.models import Paper
from tui.services.annotations import Annotations


def measure(records: int, changes: int, folder: Path) -> dict[str, float]:
    """Median milliseconds of one change and of the baseline write, and their ratio."""
    path = folder / "annotations.json"
    papers = [
        {"ids": [f"key:k{n}", f"title:paper {n}|2020"], "tags": ["a", "b"], "status": "read"}
        for n in range(records)
    ]
    path.write_text(json.dumps({"version": 1, "papers": papers}), encoding="utf-8")
    store = Annotations(path)
    paper = Paper(id="k7", title="Paper 7", year=2020, citation_key="k7")
    changed, written = [], []
    for number in range(changes):
        start = time.perf_counter()
        store.change_tags([paper], add=[f"t{number}"])
        changed.append(time.perf_counter() - start)
        start = time.perf_counter()
        data = {"version": 1, "papers": papers}  # what a change wrote before: its own copy
        write_text_atomic(folder / "baseline.json", json.dumps(data, ensure_ascii=False, indent=1))
        written.append(time.perf_counter() - start)
    change_ms = statistics.median(changed) * 1000
    write_ms = statistics.median(written) * 1000
    return {
        "records": records,
        "change_ms": round(change_ms, 2),
        "baseline_write_ms": round(write_ms, 2),
        "ratio": round(change_ms / write_ms, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=5000, help="tagged papers in the file")
    parser.add_argument("--changes", type=int, default=30, help="changes timed")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        report = measure(args.records, args.changes, Path(folder))
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['records']:,} records: a change {report['change_ms']} ms, "
            f"the write alone (before) {report['baseline_write_ms']} ms, "
            f"ratio {report['ratio']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
