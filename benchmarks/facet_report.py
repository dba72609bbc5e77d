"""How much of a library the topic and hardware facets label, and on what evidence.

The facet vocabulary is about ML systems; users bring libraries of psychology, law or
physics too. On such a library a label should be rare and each one defensible, and the
only way to know is to read some. For each file (or folder) named, this loads it as the
app does (parsed, merged, tagged with the bundled taxonomy, or the one given), then prints
the share of papers with a topic label and with a hardware label, the papers each value
labels, and a random sample of labelled papers with every label's reason, to be read.

    python benchmarks/facet_report.py FILE [FILE ...] [--sample 12] [--seed 47]
        [--taxonomy EXTRA.toml] [--json]

To compare the rules of two commits, run the same command with PYTHONPATH pointing at a
checkout of each (`git worktree add DIR COMMIT`): the checkout's `index` package is then
the one imported.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from index import load_library, load_taxonomy
from index.models import Paper


def report(path: Path, taxonomy: Any, sample: int, rng: random.Random) -> dict[str, Any]:
    """The figures for one file and a sample of its labelled papers."""
    papers = load_library([path], taxonomy).papers
    topic = [p for p in papers if p.topics]
    hardware = [p for p in papers if p.hardware]
    labelled = [p for p in papers if p.topics or p.hardware]
    values: Counter[str] = Counter()
    for paper in papers:
        values.update(f"topic:{label.value}" for label in paper.topics)
        values.update(f"hw:{label.value}" for label in paper.hardware)
    chosen = rng.sample(labelled, min(sample, len(labelled)))
    return {
        "file": path.name,
        "papers": len(papers),
        "topic": len(topic),
        "hardware": len(hardware),
        "labelled": len(labelled),
        "values": dict(values.most_common()),
        "sample": [_described(p) for p in chosen],
    }


def _described(paper: Paper) -> dict[str, Any]:
    return {
        "title": " ".join(paper.title.split()),
        "year": paper.year,
        "labels": [
            f"{facet} {label.value}: {label.reason}"
            for facet, labels in (("topic", paper.topics), ("hw", paper.hardware))
            for label in labels
            if not label.reason.startswith("implied by")
        ],
    }


def _share(count: int, total: int) -> str:
    return f"{count:,} ({100 * count / total:.1f}%)" if total else "0"


def _print(found: dict[str, Any]) -> None:
    total = found["papers"]
    print(
        f"{found['file']}: {total:,} papers; a topic {_share(found['topic'], total)}, "
        f"hardware {_share(found['hardware'], total)}, either {_share(found['labelled'], total)}"
    )
    if found["values"]:
        print("  " + ", ".join(f"{value} {n}" for value, n in found["values"].items()))
    for paper in found["sample"]:
        print(f"  - {paper['title'][:90]} ({paper['year'] or 'n.d.'})")
        for line in paper["labels"]:
            print(f"      {line[:150]}")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="library files or folders")
    parser.add_argument("--sample", type=int, default=12, help="labelled papers to show")
    parser.add_argument("--seed", type=int, default=47, help="seed of the random sample")
    parser.add_argument("--taxonomy", type=Path, action="append", default=[])
    parser.add_argument("--json", action="store_true", help="print JSON instead")
    args = parser.parse_args(argv)
    taxonomy = load_taxonomy(args.taxonomy)
    results = []
    for path in args.files:
        found = report(path, taxonomy, args.sample, random.Random(args.seed))
        results.append(found)
        if not args.json:
            _print(found)
    if args.json:
        print(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
