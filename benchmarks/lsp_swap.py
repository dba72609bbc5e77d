"""How long `paperscope lsp` holds its requests up while it swaps in an updated index.

When the reload's process has updated the index, the server's library thread opens it,
makes its keys and names (`Served.of`) and searches it once (`Served.warm`), all while
the old engine answers completions in another thread. A step that holds the interpreter's
lock (one C call decoding a big file, a full garbage collection) holds every completion
for as long (issue 48: 0.8-1.06 s at 100,000 papers). This measures those holds directly,
in one process: a thread that sleeps 2 ms at a time notes how late it wakes, for one
second with nothing else running (the baseline: the machine's own scheduling) and then
during the swap, done as the server does it (`LiveLibrary._open_served`, the engine
served before frozen out of collections as the server freezes it).

The library and its index are the ones `lsp_live.py` leaves in `--work-dir` (built here
when absent); the same index is opened again, as the server opens the one the reload left.

    python benchmarks/lsp_swap.py [--papers 100000] [--runs 3] [--work-dir DIR] [--json]
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
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script from anywhere, or imported by the tests
    sys.path.insert(0, str(HERE))

import lsp_completion  # noqa: E402
import lsp_live  # noqa: E402

TICK_S = 0.002


class Ticker:
    """A thread waking every `TICK_S`; `longest_ms` is how late it woke at worst."""

    def __init__(self) -> None:
        self._wakes: list[tuple[float, float]] = []  # (late by, when)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(TICK_S)
            now = time.perf_counter()
            self._wakes.append((now - last - TICK_S, now))
            last = now

    def longest_ms(self, since: float, until: float = float("inf")) -> float:
        late = (late for late, at in self._wakes if since <= at < until)
        return round(max(late, default=0.0) * 1000, 1)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def swaps(library: Path, runs: int) -> list[dict[str, Any]]:
    """The served engine opened once, then `runs` swaps to the index opened again."""
    import gc

    from tui.lsp import library as live
    from tui.lsp.context import EditorContext

    context = EditorContext([library], None)
    served = live.LiveLibrary._open_served(context)
    if served is None:
        raise SystemExit(f"no index of {library} to open")
    gc.freeze()  # as the server froze the engine it serves
    out = []
    for _ in range(runs):
        ticker = Ticker()
        idle_from = time.perf_counter()
        time.sleep(1.0)
        began = time.perf_counter()
        again = EditorContext([library], None)
        again.__dict__["taxonomy"] = context.taxonomy
        swapped = live.LiveLibrary._open_served(again)
        took = time.perf_counter() - began
        ticker.stop()
        out.append(
            {
                "swap_s": round(took, 2),
                "idle_longest_ms": ticker.longest_ms(idle_from, began),
                "swap_longest_ms": ticker.longest_ms(began),
            }
        )
        if swapped is not None:
            swapped.engine.close()
    served.engine.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work-dir", type=Path, help="lsp_live.py's; built here when absent")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    base = args.work_dir or Path(tempfile.mkdtemp(prefix="lsp-swap-"))
    work = base / f"bib{args.papers}"
    try:
        library = work / "library.bib"
        if not library.is_file():
            lsp_live.write_bib(args.papers, library)
        os.environ.update(lsp_completion.environment(work))
        if not lsp_live.index_is_current(library, work):
            lsp_completion.build_index(library, work)
        results = swaps(library, args.runs)
    finally:
        if args.work_dir is None:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(json.dumps({"papers": args.papers, "runs": results}))
        return 0
    print(f"{args.papers} papers, the swap as the server does it:")
    for run in results:
        print(
            f"  swap {run['swap_s']:5.2f} s; longest wait of a 2 ms tick: "
            f"idle {run['idle_longest_ms']:6.1f} ms, during the swap "
            f"{run['swap_longest_ms']:6.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
