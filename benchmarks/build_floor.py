"""How fast an index build could be at best: the work before a byte is written, per paper.

Issue 15 asked for a build of >= 2,000 papers/s on two cores, 1.0 ms of CPU per paper
with everything included. This measures, on N synthetic papers (`synth.py`) in one
process, the CPU per paper of what any build that keeps paperscope's schema and analyzers
must do before writing: building the documents (`index.schema.fields.document`), counting
the surface words and the papers' keys, running each indexed field's analyzer, and
appending every posting to per-term arrays (the cheapest grouping there is). In the same
run, the baseline: the real build of the same papers (`index.store.writer.build_into`, one
process), so the report gives the floor as a share of today's build, and the best rate two
cores could reach were everything after the floor free.

    python benchmarks/build_floor.py [--docs 3000] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script from anywhere, or imported by the tests
    sys.path.insert(0, str(HERE))

import synth  # noqa: E402

from index.schema.fields import build_schema, document  # noqa: E402
from index.search.spelling import count_words  # noqa: E402
from index.store.writer import build_into, keys_of  # noqa: E402

CORES = 2


def _floor(papers: list[Any]) -> tuple[dict[str, float], int]:
    """CPU seconds of each step before writing, and the postings the papers make."""
    schema = build_schema()
    indexed = [(name, schema[name]) for name in sorted(schema.names()) if schema[name].indexed]
    seconds: dict[str, float] = {}

    started = time.process_time()
    documents = [document(paper) for paper in papers]
    seconds["documents"] = time.process_time() - started

    started = time.process_time()
    words: Counter[str] = Counter()
    for paper in papers:
        count_words(words, paper)
    keys = [keys_of(paper) for paper in papers]
    seconds["words and keys"] = time.process_time() - started

    started = time.process_time()
    analysed = [
        [(name, list(field.index(doc[name]))) for name, field in indexed if doc.get(name)]
        for doc in documents
    ]
    seconds["analysis"] = time.process_time() - started

    started = time.process_time()
    terms: dict[str, dict[bytes, tuple[array[int], array[float], list[bytes]]]] = {}
    postings = 0
    for docnum, fields in enumerate(analysed):
        for name, items in fields:
            field_terms = terms.setdefault(name, {})
            for text, _freq, weight, value in items:
                held = field_terms.get(text)
                if held is None:
                    held = field_terms[text] = (array("i"), array("d"), [])
                held[0].append(docnum)
                held[1].append(weight)
                held[2].append(value)
                postings += 1
    seconds["grouping"] = time.process_time() - started
    del keys, words
    return seconds, postings


def measure(docs: int) -> dict[str, Any]:
    """The floor's steps and the real build, in ms of CPU per paper."""
    papers = synth.generate_papers(docs, seed=1)
    seconds, postings = _floor(papers)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.process_time()
        build_into(Path(tmp), papers, None)
        build = time.process_time() - started
    per_paper = {step: round(s / docs * 1000, 3) for step, s in seconds.items()}
    floor = sum(seconds.values()) / docs * 1000
    built = build / docs * 1000
    return {
        "docs": docs,
        "postings_per_paper": round(postings / docs),
        "floor_ms_per_paper": per_paper,
        "floor_ms": round(floor, 3),
        "build_ms": round(built, 3),
        "floor_vs_build": round(floor / built, 2),
        "best_papers_per_s_on_two_cores": round(CORES * 1000 / floor),
        "build_papers_per_s_on_two_cores": round(CORES * 1000 / built),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.docs)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{args.docs} papers, {figures['postings_per_paper']} postings each, CPU per paper:")
    for step, ms in figures["floor_ms_per_paper"].items():
        print(f"  {step:16} {ms:7.3f} ms")
    print(f"  {'floor':16} {figures['floor_ms']:7.3f} ms (nothing written)")
    print(
        f"  {'build_into':16} {figures['build_ms']:7.3f} ms (the baseline: today's build)"
        f"   floor / build x{figures['floor_vs_build']:.2f}"
    )
    print(
        f"two cores, at best: {figures['best_papers_per_s_on_two_cores']:,} papers/s at the floor,"
        f" {figures['build_papers_per_s_on_two_cores']:,} at today's CPU per paper"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
