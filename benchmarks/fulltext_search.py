"""What searching the full text costs: search p95 with the pages against without, same run.

Issue 49 asks that plain queries also search the attached PDFs' text, no worse than 1.5x
the search p95 without it at 10,000 papers, and for the index's growth per 1,000 PDFs.
This generates the synthetic library the other benchmarks use (benchmarks/synth.py),
gives a share of its papers an attachment of 10-20 synthetic pages (page one holds the
title and abstract, as a paper's first page does; the rest is prose from the same word
distribution), stores those texts as extraction would (`FulltextStore`) and syncs the
page index (`sync_fulltext`). Then it replays the typed-query mix (benchmarks/queries.py,
one request per keystroke) on two engines over the same library index, request by
request so both see the same machine load:

1. **without** full text (the baseline: an engine with no page index);
2. **with** full text (the engine the app opens: plain words also match in the pages).

It reports p50/p95/max of each and the ratio, the `fulltext:` queries' own times, the
sync's time (the first, and one with nothing changed) and the page index's size per
1,000 attachments.

    python benchmarks/fulltext_search.py [--docs 10000] [--share 0.3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from measure import summary  # noqa: E402
from queries import typed_requests  # noqa: E402
from synth import Vocabulary, generate_papers  # noqa: E402

from index import load_taxonomy, open_engine  # noqa: E402
from index.fulltext import sync_fulltext  # noqa: E402
from index.fulltext.extract import Extracted  # noqa: E402
from index.fulltext.page_index import pages_folder  # noqa: E402
from index.fulltext.store import FulltextStore  # noqa: E402
from index.models import Library, Paper, SearchRequest, replace  # noqa: E402
from index.search.engine import SearchEngine  # noqa: E402

WORDS_PER_PAGE = 450
# Queries only the full text answers, typed as the others.
FULLTEXT_QUERIES = ('fulltext:"kv cache"', "fulltext:systolic", "memory -fulltext:training")


def _folder_mb(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def attach_pages(
    papers: list[Paper], folder: Path, cache: Path, share: float, pages: tuple[int, int], seed: int
) -> tuple[list[Paper], int, int]:
    """`papers` with a share given one attachment each, its synthetic text stored by
    digest as extraction stores it; the attachments' and pages' counts."""
    rng = random.Random(f"fulltext-{seed}")
    vocab = Vocabulary(seed)
    store = FulltextStore(cache)
    out: list[Paper] = []
    attached = total_pages = 0
    for number, paper in enumerate(papers):
        if rng.random() >= share:
            out.append(paper)
            continue
        path = folder / f"{number}.pdf"
        path.write_bytes(f"%PDF-1.4 synthetic {number}\n".encode())
        texts = []
        for page in range(rng.randint(*pages)):
            words = rng.choices(vocab.words, cum_weights=vocab.cum_weights, k=WORDS_PER_PAGE)
            body = " ".join(words)
            texts.append(f"{paper.title} {paper.abstract} {body}" if page == 0 else body)
        store.put(store.digest(path), Extracted(pages=tuple(texts)))
        attached += 1
        total_pages += len(texts)
        out.append(replace(paper, attachments=(str(path),)))
    store.save_files()
    return out, attached, total_pages


def _timed(engine: SearchEngine, request: SearchRequest) -> float:
    started = time.perf_counter()
    engine.search(request)
    return (time.perf_counter() - started) * 1000


def measure(
    docs: int,
    share: float = 0.3,
    pages: tuple[int, int] = (10, 20),
    seed: int = 7,
    keystrokes: int | None = None,
) -> dict[str, Any]:
    """The figures (module docstring); `keystrokes`: replay only the mix's first ones."""
    taxonomy = load_taxonomy()
    with tempfile.TemporaryDirectory(prefix="fulltext-search-") as work:
        root = Path(work)
        cache = root / "cache"
        (root / "pdfs").mkdir()
        papers, attached, page_count = attach_pages(
            generate_papers(docs, seed), root / "pdfs", cache, share, pages, seed
        )
        library = Library(papers=tuple(papers))
        started, cpu = time.perf_counter(), time.process_time()
        synced = sync_fulltext(cache, papers)
        sync_s, sync_cpu = time.perf_counter() - started, time.process_time() - cpu
        started = time.perf_counter()
        sync_fulltext(cache, papers)
        again_ms = (time.perf_counter() - started) * 1000
        with_text = open_engine(library, taxonomy, cache)
        without = SearchEngine(with_text.opened, library, taxonomy)  # no page index
        base: list[float] = []
        ours: list[float] = []
        for number, typed in enumerate(typed_requests()[:keystrokes]):
            pair = ((without, base), (with_text, ours))
            for engine, times in pair if number % 2 else reversed(pair):
                times.append(_timed(engine, typed.request))
        own = [
            _timed(with_text, SearchRequest(query[:end], limit=20, as_you_type=True))
            for query in FULLTEXT_QUERIES
            for end in range(1, len(query) + 1)
        ][:keystrokes]
        index_mb = _folder_mb(pages_folder(cache))
        with_text.close()
    without_s, with_s = summary(base), summary(ours)
    return {
        "docs": docs,
        "attachments": attached,
        "pages": page_count,
        "pages_indexed": synced.pages,
        "sync_s": round(sync_s, 1),
        "sync_pages_per_s": round(synced.pages / max(sync_s, 1e-9)),
        "sync_cpu_s": round(sync_cpu, 1),
        "sync_pages_per_cpu_s": round(synced.pages / max(sync_cpu, 1e-9)),
        "sync_unchanged_ms": round(again_ms, 1),
        "without": without_s,
        "with": with_s,
        "ratio_p95": round(with_s["p95_ms"] / max(without_s["p95_ms"], 1e-3), 2),
        "ratio_p50": round(with_s["p50_ms"] / max(without_s["p50_ms"], 1e-3), 2),
        "fulltext_queries": summary(own),
        "page_index_mb": round(index_mb, 1),
        "page_index_mb_per_1000_pdfs": round(index_mb * 1000 / max(attached, 1), 1),
        "load": round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--share", type=float, default=0.3, help="papers with an attachment")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.docs, args.share)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['docs']:,} papers, {figures['attachments']:,} with an attachment, "
        f"{figures['pages']:,} pages (load {figures['load']})"
    )
    print(
        f"sync: {figures['sync_s']} s ({figures['sync_pages_per_s']:,} pages/s; CPU "
        f"{figures['sync_cpu_s']} s, {figures['sync_pages_per_cpu_s']:,} pages/s); "
        f"again, nothing changed: {figures['sync_unchanged_ms']} ms"
    )
    print(
        f"page index: {figures['page_index_mb']} MB, "
        f"{figures['page_index_mb_per_1000_pdfs']} MB per 1,000 PDFs"
    )
    for name in ("without", "with", "fulltext_queries"):
        s = figures[name]
        print(
            f"{name:17} n={s['n']:<4} p50 {s['p50_ms']:>8} ms  p95 {s['p95_ms']:>8} ms  max {s['max_ms']:>8} ms"
        )
    print(f"with / without: p50 x{figures['ratio_p50']}, p95 x{figures['ratio_p95']}")


if __name__ == "__main__":
    main()
