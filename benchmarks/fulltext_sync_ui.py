"""How a large sync of the page index gets in the UI's way: in a thread against in a child.

The app reads PDFs in a worker thread and syncs the page index after each batch. Writing
a sync's postings is Python: on the worker thread it holds the GIL against the UI thread
(a keystroke's search and the event loop's wake-ups) in 5 ms slices for as long as it
writes. In a niced child process (`index.fulltext.sync_child`) it competes for a core
only. This measures, headless, what the UI thread sees while a first sync of synthetic
pages runs (benchmarks/fulltext_search.py's pages), in three rounds on the same library:

1. **idle**: no sync (the baseline);
2. **thread**: `sync_fulltext` on a thread of this process (as before);
3. **child**: `sync_in_child` on a thread (which only waits), the sync in a child.

Each round replays the typed-query mix (benchmarks/queries.py, one search per keystroke,
on this thread) while the sync runs, and also the lateness of a 10 ms timer (what an
event loop's wake-up waits), and reports p50/p95/max and the ratios to idle.

    python benchmarks/fulltext_sync_ui.py [--docs 1000] [--share 0.3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from fulltext_search import attach_pages  # noqa: E402
from measure import summary  # noqa: E402
from queries import typed_requests  # noqa: E402
from synth import generate_papers  # noqa: E402

from index import load_taxonomy, open_engine  # noqa: E402
from index.fulltext import sync_fulltext  # noqa: E402
from index.fulltext.page_index import pages_folder  # noqa: E402
from index.fulltext.sync_child import sync_in_child  # noqa: E402
from index.models import Library, Paper  # noqa: E402
from index.search.engine import SearchEngine  # noqa: E402

# Seconds the timer sleeps; its lateness is what the UI thread waits beyond it.
TICK_S = 0.01


def _round(
    engine: SearchEngine,
    sync: Callable[[], object] | None,
    keystrokes: int,
    seconds: float | None,
) -> dict[str, Any]:
    """Searches and timer ticks on this thread while `sync` runs on another (None: idle).

    Stops when the sync ends (and at least `keystrokes` searches were done when idle),
    or after `seconds`.
    """
    requests = typed_requests()
    done = threading.Event()
    took: list[float] = []

    def run() -> None:
        started = time.perf_counter()
        try:
            if sync is not None:
                sync()
        finally:
            took.append(time.perf_counter() - started)
            done.set()

    worker = threading.Thread(target=run, daemon=True)
    searches: list[float] = []
    late: list[float] = []
    worker.start()
    started = time.perf_counter()
    number = 0
    while True:
        if sync is None and number >= keystrokes:
            break
        if sync is not None and done.is_set():
            break
        if seconds is not None and time.perf_counter() - started > seconds:
            break
        request = requests[number % len(requests)].request
        engine.forget_cached()  # each keystroke searched, not answered from the cache
        begun = time.perf_counter()
        engine.search(request)
        searches.append((time.perf_counter() - begun) * 1000)
        begun = time.perf_counter()
        time.sleep(TICK_S)
        late.append((time.perf_counter() - begun - TICK_S) * 1000)
        number += 1
    worker.join()
    return {"search": summary(searches), "tick_late": summary(late), "sync_s": round(took[0], 1)}


def measure(
    docs: int,
    share: float = 0.3,
    pages: tuple[int, int] = (10, 20),
    seed: int = 7,
    seconds: float | None = None,
) -> dict[str, Any]:
    """The figures (module docstring); `seconds` caps each round (for the smoke test)."""
    taxonomy = load_taxonomy()
    with tempfile.TemporaryDirectory(prefix="fulltext-sync-ui-") as work:
        root = Path(work)
        cache = root / "cache"
        (root / "pdfs").mkdir()
        papers, attached, page_count = attach_pages(
            generate_papers(docs, seed), root / "pdfs", cache, share, pages, seed
        )
        library = Library(papers=tuple(papers))
        # The engine the app searches with, on the library's index alone: the page index
        # is written by the rounds, from nothing each time.
        engine = open_engine(library, taxonomy, cache)
        searching = SearchEngine(engine.opened, library, taxonomy)

        def fresh(run: Callable[[Path, list[Paper]], object]) -> Callable[[], object]:
            shutil.rmtree(pages_folder(cache), ignore_errors=True)
            return lambda: run(cache, papers)

        thread = _round(searching, fresh(sync_fulltext), 0, seconds)
        child = _round(searching, fresh(sync_in_child), 0, seconds)
        keystrokes = max(thread["search"]["n"], child["search"]["n"], 20)
        idle = _round(searching, None, keystrokes, seconds)
        engine.close()
    out: dict[str, Any] = {
        "docs": docs,
        "attachments": attached,
        "pages": page_count,
        "idle": idle,
        "thread": thread,
        "child": child,
        "load": round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None,
    }
    for name in ("thread", "child"):
        for kind in ("search", "tick_late"):
            for stat in ("p50_ms", "p95_ms"):
                base = max(idle[kind][stat], 1e-3 if kind == "search" else 0.1)
                out[f"{name}_{kind}_{stat[:3]}_ratio"] = round(out[name][kind][stat] / base, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=1000)
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
    for name in ("idle", "thread", "child"):
        r = figures[name]
        s, t = r["search"], r["tick_late"]
        sync = "" if name == "idle" else f"  sync {r['sync_s']} s"
        print(
            f"{name:6} searches n={s['n']:<4} p50 {s['p50_ms']:>7} p95 {s['p95_ms']:>7} "
            f"max {s['max_ms']:>7} ms | 10 ms timer late p50 {t['p50_ms']:>6} "
            f"p95 {t['p95_ms']:>6} max {t['max_ms']:>6} ms{sync}"
        )
    for name in ("thread", "child"):
        print(
            f"{name} / idle: search p50 x{figures[f'{name}_search_p50_ratio']}, "
            f"p95 x{figures[f'{name}_search_p95_ratio']}; timer late p95 "
            f"x{figures[f'{name}_tick_late_p95_ratio']}"
        )


if __name__ == "__main__":
    main()
