"""How fast citations are: one paper cold and warm, and a 10,000-paper bibliography.

Run by hand (never in CI); the machine is shared, so read the ratios to the baselines
measured in the same run:

    python benchmarks/citation_speed.py [--papers 10000] [--unsplit 1000,2000] [--styles apa,ieee]

* one paper, cold: a new Python process imports `index.citations` and formats one APA
  citation (the pandoc driver starts then); printed with the import alone;
* one paper, warm: the median over papers not rendered before, in a process whose driver
  is running; and the same papers again (the cache);
* baseline for one paper: `pandoc --citeproc` run once per citation (a new pandoc each
  time) on the same item and style; and citeproc-py's one-entry bibliography when
  `citeproc` is importable (`pip install citeproc-py==0.11.1`);
* the bibliography: `format_citation(papers, style)` on synthetic papers whose authors
  share ~100 family names (`synth.py`: the case where pandoc's disambiguation is
  quadratic), rendered in parts (`index.citations.engine.partition`), against one pandoc
  request holding them all at the `--unsplit` sizes.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import citeproc_py_baseline  # noqa: E402
import synth  # noqa: E402

from index.citations import format_citation  # noqa: E402
from index.citations.csl import CSL_DIR, CSL_FILES, engine_item, engine_style  # noqa: E402
from index.citations.engine import request  # noqa: E402
from index.citations.engine.process import pandoc_binary, shared_process  # noqa: E402

_COLD = """
import sys, time
sys.path.insert(0, {root!r})
started = time.perf_counter()
from index.citations import format_citation
from index.models import Paper
imported = time.perf_counter()
format_citation([Paper(id="x", title="A Title", authors=("Ann Bee",), year=2020)], "apa")
print(imported - started, time.perf_counter() - imported)
"""


def _cpu() -> float:
    """pandoc's CPU seconds so far: the shared process's (Linux /proc) and those of the
    extra processes a large bibliography starts and ends (waited-for children); wall time
    is noisy on a shared machine."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (shared_process().cpu_seconds() or 0.0) + children.ru_utime + children.ru_stime


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def cold() -> tuple[float, float]:
    """(import seconds, first citation seconds) in a new process."""
    done = subprocess.run(
        [sys.executable, "-c", _COLD.format(root=str(ROOT))],
        capture_output=True,
        text=True,
        check=True,
    )
    first, second = done.stdout.split()
    return float(first), float(second)


def pandoc_per_citation(items: list[dict[str, object]], style: Path) -> float:
    """The median time of one `pandoc --citeproc` run per citation."""
    times = []
    with tempfile.TemporaryDirectory() as temp:
        for item in items:
            bib = Path(temp) / "refs.json"
            bib.write_text(json.dumps([item]), encoding="utf-8")
            started = time.perf_counter()
            subprocess.run(
                [
                    str(pandoc_binary()),
                    "--citeproc",
                    "-t",
                    "plain",
                    f"--bibliography={bib}",
                    f"--csl={style}",
                    "-M",
                    "nocite=@*",
                ],
                input="",
                capture_output=True,
                text=True,
                check=True,
            )
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def citeproc_py_per_citation(items: list[dict[str, object]], style: Path) -> float | None:
    if not citeproc_py_baseline.available():
        return None
    times = []
    for item in items:
        started = time.perf_counter()
        citeproc_py_baseline.bibliography([dict(item)], [str(item["id"])], style, html=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--unsplit", default="1000,2000", help="sizes for the one-request baseline")
    parser.add_argument("--styles", default="apa,ieee")
    args = parser.parse_args(argv)
    papers = synth.generate_papers(max(args.papers, 60), seed=1)
    apa = CSL_DIR / CSL_FILES["apa"]

    imported, first = cold()
    print("one paper (APA)")
    print(f"  cold, new process: import {_ms(imported)}, first citation {_ms(first)}")
    format_citation(papers[:1], "apa")  # the driver is running from here on
    sample = papers[1:41]
    warm, cached = [], []
    for paper in sample:
        started = time.perf_counter()
        format_citation([paper], "apa")
        warm.append(time.perf_counter() - started)
    for paper in sample:
        started = time.perf_counter()
        format_citation([paper], "apa")
        cached.append(time.perf_counter() - started)
    items = [engine_item(paper, f"p{i}") for i, paper in enumerate(sample[:8])]
    per_run = pandoc_per_citation(items, apa)
    print(f"  warm, median of {len(sample)}: {_ms(statistics.median(warm))}")
    print(f"  cached (same papers again):  {_ms(statistics.median(cached))}")
    print(
        f"  baseline pandoc --citeproc per citation: {_ms(per_run)} "
        f"(warm is {per_run / statistics.median(warm):.1f}x faster)"
    )
    old = citeproc_py_per_citation(items, apa)
    if old is not None:
        print(
            f"  baseline citeproc-py 0.11, one entry:     {_ms(old)} "
            f"(warm is {statistics.median(warm) / old:.1f}x its time)"
        )

    for style in args.styles.split(","):
        print(f"bibliography ({style})")
        for size in [int(n) for n in args.unsplit.split(",") if n]:
            chosen = papers[:size]
            items = [engine_item(p, f"p{i}") for i, p in enumerate(chosen)]
            started, cpu = time.perf_counter(), _cpu()
            request(items, engine_style(style))
            whole, whole_cpu = time.perf_counter() - started, _cpu() - cpu
            started, cpu = time.perf_counter(), _cpu()
            format_citation(chosen, style)
            parts, parts_cpu = time.perf_counter() - started, _cpu() - cpu
            print(
                f"  {size:>6} papers: one request {whole:7.2f} s (pandoc CPU {whole_cpu:6.2f} s), "
                f"in parts {parts:7.2f} s (CPU {parts_cpu:6.2f} s): {whole / parts:.1f}x faster"
            )
        started, cpu = time.perf_counter(), _cpu()
        text = format_citation(papers[: args.papers], style)
        elapsed, used = time.perf_counter() - started, _cpu() - cpu
        print(
            f"  {args.papers:>6} papers in parts: {elapsed:7.2f} s (pandoc CPU {used:6.2f} s), "
            f"{len(text.splitlines())} entries"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
