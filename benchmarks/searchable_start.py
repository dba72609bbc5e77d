"""A first start from the command to the whole library searchable, code against code.

Issue 50 asks for the whole library searchable at 20,000 papers in at most half the time
the code took when it was filed (9ad1a25), on the same machine. "Searchable" is the
moment a search answers from every paper, whatever index answers it: the full index, or
a big first start's lean index (`index.store.lean`, status "Completing the index 35% ·
20,000 of 20,000 papers"). Neither the records as read nor an early sample count: their
status says "so far" (`tui.screens.main_progress`).

Each `--code DIR` (a checkout, or `git archive COMMIT index tui assets` unpacked) is put
first on PYTHONPATH and started as the installed `paperscope --corpus LIBRARY` in a tmux
pane of 120x36 with empty cache, data and config folders, in turn, run after run, with
the order flipped every run (a drift in the machine's load then falls on both). The
first `--code` is the baseline: every other is reported as a ratio to it, per run and as
the median. The library is the synthetic arXiv-style one of `first_start.py` (10 JSONL
files), written once, or `--library DIR`.

The machine is shared: read the ratios (from the same runs), not the seconds.

    python benchmarks/searchable_start.py --docs 20000 --code OLD --code NEW [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import first_start
import startup


def searchable_marker(papers: int) -> str:
    """The status of a search over all `papers`, served by a lean or a full index: not a
    sample's or the records' ("so far"), not the build's count ("Indexing… N of M")."""
    return rf"(?<!so far )(?<![\d,])(?<!… ){papers:,} of {papers:,} papers"


def full_marker(papers: int) -> str:
    """The status of a search over all `papers` served by the full index: nothing before
    the count (a lean index's status leads with "Completing the index …% · ")."""
    return rf"(?<!so far )(?<!· )(?<![\d,])(?<!… ){papers:,} of {papers:,} papers"


def _papers_in(library: Path) -> int:
    return sum(path.read_bytes().count(b"\n") for path in sorted(library.glob("*.jsonl")))


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not on this platform
        return float("nan")


def measure(
    codes: list[Path], library: Path, runs: int, work: Path, timeout: float
) -> list[dict[str, Any]]:
    """One row per start: the code, the run, seconds to searchable and to the full index."""
    paperscope = Path(sys.executable).with_name("paperscope")
    if shutil.which("tmux") is None or not paperscope.exists():
        raise SystemExit("needs tmux and the installed paperscope command")
    papers = _papers_in(library)
    markers = [searchable_marker(papers), full_marker(papers)]
    rows: list[dict[str, Any]] = []
    for run in range(runs):
        order = list(enumerate(codes))
        if run % 2:
            order.reverse()
        for number, code in order:
            base = work / f"run{run}-code{number}"
            shutil.rmtree(base, ignore_errors=True)
            env = {
                "PAPERSCOPE_CACHE_DIR": str(base / "cache"),
                "PAPERSCOPE_DATA_DIR": str(base / "data"),
                "PAPERSCOPE_CONFIG": str(base / "config.toml"),
                "PYTHONPATH": str(code),
                "TERM": "xterm-256color",
            }
            load = _load()
            searchable, full = startup.times_to_screen(
                f"{paperscope} --corpus {library}", markers, env, timeout
            )
            rows.append(
                {
                    "code": str(code),
                    "code_number": number,
                    "run": run + 1,
                    "papers": papers,
                    "searchable_s": round(searchable, 2),
                    "full_s": round(full, 2),
                    "load_before": round(load, 2),
                    "load_after": round(_load(), 2),
                }
            )
            print(
                f"run {run + 1}/{runs} code {number}: searchable {searchable:.2f} s, "
                f"full index {full:.2f} s (load {load:.1f})",
                file=sys.stderr,
            )
    return rows


def summarise(rows: list[dict[str, Any]], codes: list[Path]) -> list[dict[str, Any]]:
    """Per code: the median seconds, and the median of its per-run ratios to the baseline's."""
    baseline = {row["run"]: row for row in rows if row["code_number"] == 0}
    summary = []
    for number, code in enumerate(codes):
        mine = [row for row in rows if row["code_number"] == number]
        summary.append(
            {
                "code": str(code),
                "searchable_s": statistics.median(row["searchable_s"] for row in mine),
                "full_s": statistics.median(row["full_s"] for row in mine),
                # Against the baseline's searchable moment in the same run.
                "searchable_vs_baseline": round(
                    statistics.median(
                        row["searchable_s"] / baseline[row["run"]]["searchable_s"] for row in mine
                    ),
                    2,
                ),
                "full_vs_baseline": round(
                    statistics.median(
                        row["full_s"] / baseline[row["run"]]["searchable_s"] for row in mine
                    ),
                    2,
                ),
            }
        )
    return summary


def print_report(summary: list[dict[str, Any]], rows: list[dict[str, Any]]) -> None:
    papers = rows[0]["papers"]
    loads = [row["load_before"] for row in rows] + [row["load_after"] for row in rows]
    print(
        f"First start to the whole library searchable, {papers:,} papers, "
        f"{len(rows) // len(summary)} run(s), load {min(loads):.1f}-{max(loads):.1f}"
    )
    for number, row in enumerate(summary):
        name = "baseline" if number == 0 else f"code {number}"
        print(
            f"  {name:9} searchable {row['searchable_s']:7.2f} s  "
            f"x{row['searchable_vs_baseline']:.2f}   full index {row['full_s']:7.2f} s  "
            f"x{row['full_vs_baseline']:.2f}   {row['code']}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--code",
        type=Path,
        action="append",
        required=True,
        help="a tree holding index/, tui/ and assets/; the first is the baseline",
    )
    parser.add_argument("--docs", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--library", type=Path, help="a library folder to start on instead")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--work-dir", type=Path)
    parser.add_argument("--json", action="store_true", help="print the rows and summary as JSON")
    args = parser.parse_args(argv)
    codes = [code.resolve() for code in args.code]
    for code in codes:
        if not (code / "index").is_dir() or not (code / "tui").is_dir():
            raise SystemExit(f"{code}: no index/ and tui/ folders (a checkout or git archive)")
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="searchable-start-"))
    library = args.library
    if library is None:
        library = work / "library"
        if not library.is_dir():
            first_start.write_inputs(args.docs, args.seed, library)
    rows = measure(codes, library.resolve(), args.runs, work, args.timeout)
    summary = summarise(rows, codes)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
    else:
        print_report(summary, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
