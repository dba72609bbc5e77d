"""How fast attached PDFs become searchable text: pages per second, on every core.

Issue 49 asks for the extraction throughput of the full-text reader (`index.fulltext`).
This writes N multi-page, two-column PDFs with Typst (the `typst` wheel the tests use;
each a distinct file, so nothing is answered from the store), then reads them:

1. **one process** (the baseline, in the same run): `extract_pdf` on each file in turn;
2. **the pool** (`ExtractionPool`, one niced worker process per core, each result stored
   as it is read), as the app would read a library's attachments: pages/s and the ratio
   to the baseline;
3. **again**: the same files through a new pool on the same store: what a later start
   pays for text it already has.

It also reports the stored text's size per 1,000 PDFs (compressed JSON in the cache).

    python benchmarks/fulltext_extract.py [--pdfs 40] [--pages 10] [--json]
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
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from index.fulltext.extract import extract_pdf  # noqa: E402
from index.fulltext.pool import ExtractionPool, Job  # noqa: E402

PAGE = """#set page(columns: 2, height: 24cm, width: 17cm)
#set text(hyphenate: true, lang: "en", size: 9pt)
"""


def write_pdfs(folder: Path, count: int, pages: int) -> list[Path]:
    """`count` distinct PDFs of `pages` pages of two-column prose each."""
    import typst

    made = []
    for n in range(count):
        source = folder / f"paper{n}.typ"
        body = "\n#pagebreak()\n".join(
            f"= Section {p} of paper {n}\n#lorem({420 + n % 7})" for p in range(pages)
        )
        source.write_text(PAGE + body, encoding="utf-8")
        pdf = folder / f"paper{n}.pdf"
        pdf.write_bytes(typst.compile(str(source)))
        made.append(pdf)
    return made


def measure(pdfs: int, pages: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="fulltext-bench-") as work:
        folder = Path(work)
        files = write_pdfs(folder, pdfs, pages)
        total_pages = pdfs * pages

        started = time.perf_counter()
        read_pages = sum(len(extract_pdf(path).pages) for path in files)
        one = time.perf_counter() - started
        assert read_pages == total_pages, (read_pages, total_pages)

        jobs = [Job(str(path)) for path in files]
        pool = ExtractionPool(folder / "cache")
        started = time.perf_counter()
        results = list(pool.read(jobs))
        pooled = time.perf_counter() - started
        assert sum(len(read.pages) for _, _, read in results) == total_pages

        started = time.perf_counter()
        again = list(ExtractionPool(folder / "cache").read(jobs))
        stored = time.perf_counter() - started
        assert len(again) == pdfs

        size = sum(f.stat().st_size for f in (folder / "cache" / "fulltext").rglob("*.json.gz"))
        return {
            "pdfs": pdfs,
            "pages": total_pages,
            "workers": pool.workers,
            "one_process_pages_per_s": round(total_pages / one, 1),
            "pool_pages_per_s": round(total_pages / pooled, 1),
            "pool_vs_one_process": round(one / pooled, 2),
            "stored_again_s": round(stored, 3),
            "stored_mb_per_1000_pdfs": round(size / pdfs * 1000 / 2**20, 1),
            "cpus": os.cpu_count(),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=int, default=40)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.pdfs, args.pages)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{figures['pdfs']} PDFs, {figures['pages']} pages (two-column, Typst)")
    print(f"  one process (baseline)  {figures['one_process_pages_per_s']:8.1f} pages/s")
    print(
        f"  pool of {figures['workers']} workers        {figures['pool_pages_per_s']:8.1f} pages/s"
        f"   x{figures['pool_vs_one_process']:.2f} the baseline"
    )
    print(f"  again, all stored       {figures['stored_again_s']:8.3f} s")
    print(f"  stored text             {figures['stored_mb_per_1000_pdfs']:8.1f} MB per 1,000 PDFs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
