"""First start on a big library: time to the first result rows, against two baselines.

Issue 15 asks how long a user with a big library waits the first time paperscope opens it,
the next time, and after one of their files gained one record. This writes a synthetic
library of N papers in 10 JSONL files (`synth.py`), starts the installed `paperscope
--corpus DIR` in a tmux pane with empty cache and data folders, and polls the screen until
the results' status line ("20000 of 20000 papers") shows:

1. **cold**: nothing cached (the library is parsed, tagged and indexed first): the time to
   the first rows (a big library's are a sample's, served while the full index is built,
   `index.store.preview`) and to the rows of the whole library;
2. **warm**: the same again, everything cached;
3. **grown**: after one file gained one record: the time to the first rows (the papers
   as they were, served from the index as last built while that file is read again,
   `tui.library_host`) and to the rows with the new record (the file re-parsed, the index
   updated).

With `--pdfs N`, N of the papers (an `attached.bib` beside the JSONL files) each have a
PDF attached (10 two-column pages, written with Typst as `fulltext_extract.py` does), and
the cold and warm starts are also timed with `fulltext = false` in the config (their own
cache): the app reads the PDFs only once the library is searchable (tui.fulltext_host),
so the first rows should come as soon with full text on as with it off; the warm start
with it on runs while the PDFs the cold one did not finish are still being read.

In the same run, the baselines:

- **FTS5**: a fresh interpreter reads the same files, writes an SQLite FTS5 index of them
  (`fts5.build_fts5`) and answers the empty query: what "reading the files into an
  index" costs done the straightforward way;
- **bare Textual**: a Textual app that paints one line, shown the same way in tmux: the
  part of any start that is Python and Textual.

The machine is shared: read the ratios, not the seconds.

    python benchmarks/first_start.py --docs 20000 [--pdfs 200] [--runs 1] [--json] [--work-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import startup
import synth

from index.models import Paper

# The results' status line for any count ("20,000 of 20,000 papers": counts have thousands
# separators), never the build's "Indexing… 5,000 of 20,000 papers" (the clock would stop
# before a row is shown): no digit, comma or "… " right before the first count.
RESULTS = r"(?<![\d,])(?<!… )\d[\d,]* of [\d,]+ papers"
# ...of the whole library: a big first build shows a sample's rows before (index.store.preview)
# with "Indexing 35% · so far 12 of 1,000 papers".
EVERY = r"(?<![\d,])(?<!… )\d[\d,]* of {docs:,} papers"
FILES = 10
GROWN_FILE = "library-00.jsonl"


def _fts5_child(library: Path, db: Path) -> None:
    """In a fresh interpreter: read the files, index them with FTS5, answer one query."""
    import fts5

    from index.models import Paper, SearchRequest

    papers = []
    for path in sorted(library.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            year = record["update_date"][:4]
            papers.append(
                Paper(
                    id=record["id"],
                    title=record["title"],
                    authors=tuple(record["authors"].split(", ")),
                    year=int(year),
                    venue=record.get("journal-ref"),
                    abstract=record["abstract"],
                )
            )
    fts5.build_fts5(papers, db)
    index = fts5.Fts5Index(db)
    result = index.search(SearchRequest(query=""))
    index.close()
    print(json.dumps({"total": result.total}))


def _time_fts5(library: Path, db: Path) -> float:
    """Seconds from spawning the FTS5 child to its first answer (interpreter start included)."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, __file__, "--child-fts5", str(library), str(db)],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def arxiv_record(paper: Paper, number: int) -> dict[str, Any]:
    """`paper` as a line of the arXiv metadata dump, the shape big JSONL libraries have."""
    year = paper.year or 2020
    return {
        "id": f"{year % 100:02d}{number // 100000 + 1:02d}.{number % 100000:05d}",
        "submitter": paper.authors[0] if paper.authors else None,
        "authors": ", ".join(paper.authors),
        "title": paper.title,
        "comments": None,
        "journal-ref": None if paper.venue == "arXiv" else f"{paper.venue} {year}",
        "doi": None,
        "categories": "cs.DC cs.LG",
        "abstract": paper.abstract,
        "versions": [{"version": "v1", "created": f"Mon, 2 Mar {year} 10:00:00 GMT"}],
        "update_date": f"{year}-03-02",
        "authors_parsed": [[*reversed(name.rsplit(" ", 1)), ""] for name in paper.authors],
    }


def write_inputs(docs: int, seed: int, directory: Path) -> list[Path]:
    """N papers as arXiv-style records in `FILES` JSONL files (nine bulk, synth's "recent")."""
    directory.mkdir(parents=True, exist_ok=True)
    by_file: dict[str, list[str]] = {}
    for number, paper in enumerate(synth.generate_papers(docs, seed, files=FILES - 1)):
        by_file.setdefault(paper.sources[0].path, []).append(
            json.dumps(arxiv_record(paper, number), ensure_ascii=False)
        )
    for name, lines in by_file.items():
        (directory / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [directory / name for name in by_file]


def grow_one_file(directory: Path, seed: int) -> None:
    """Appends one new record, unlike any other, to one of the library's files.

    Its arXiv number is the count of records already in the folder, and its title and
    abstract carry it: a folder grown twice gains two papers, not a duplicate pair.
    """
    number = sum(path.read_bytes().count(b"\n") for path in sorted(directory.glob("*.jsonl")))
    paper = synth.generate_papers(1, seed + 7919, files=1)[0]
    fresh = arxiv_record(paper, number)
    fresh["title"] = f"Zymurgical Telemetry {number} for {paper.title}"
    fresh["abstract"] = f"Record {number}, added after the first start. " + paper.abstract
    with (directory / GROWN_FILE).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(fresh, ensure_ascii=False) + "\n")


def attach_pdfs(library: Path, pdf_dir: Path, count: int) -> None:
    """`count` more papers, in `attached.bib`, each with a distinct PDF attached."""
    import fulltext_extract

    pdf_dir.mkdir(parents=True, exist_ok=True)
    pdfs = fulltext_extract.write_pdfs(pdf_dir, count, 10)
    (library / "attached.bib").write_text(
        "".join(
            f"@article{{attached{n},\n  title = {{Attached paper {n} on paged attention}},\n"
            f"  author = {{Writer, Pat}},\n  year = {{2023}},\n  file = {{:{path}:PDF}}\n}}\n"
            for n, path in enumerate(pdfs)
        ),
        encoding="utf-8",
    )


def measure(
    docs: int, seed: int, runs: int, work: Path, timeout: float, pdfs: int = 0
) -> dict[str, Any]:
    """Median seconds of every start and baseline over `runs` fresh runs, with ratios."""
    paperscope = Path(sys.executable).with_name("paperscope")
    if shutil.which("tmux") is None or not paperscope.exists():
        raise SystemExit("needs tmux and the installed paperscope command")
    bare_script = work / "bare.py"
    bare_script.write_text(startup.BARE_APP)
    names = ("bare", "fts5", "cold_first", "cold", "warm", "grown_first", "grown")
    if pdfs:
        names += ("cold_first_off", "cold_off", "warm_off")
    times: dict[str, list[float]] = {name: [] for name in names}
    every = EVERY.format(docs=docs + pdfs)
    for run in range(runs):
        base = work / f"run{run}"
        library = base / "library"
        write_inputs(docs, seed, library)
        if pdfs:
            attach_pdfs(library, base / "pdfs", pdfs)
        env = {
            "PAPERSCOPE_CACHE_DIR": str(base / "cache"),
            "PAPERSCOPE_DATA_DIR": str(base / "data"),
            "PAPERSCOPE_CONFIG": str(base / "config.toml"),
            "TERM": "xterm-256color",
        }
        if os.environ.get("PYTHONPATH"):  # a pinned snapshot of the code (see the README)
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        command = f"{paperscope} --corpus {library}"
        times["bare"].append(
            startup._time_to_screen(f"{sys.executable} {bare_script}", "bare app ready", env)
        )
        times["fts5"].append(_time_fts5(library, base / "fts5.db"))
        if pdfs:  # the same starts with full text off, on a cache of their own
            off = dict(env, PAPERSCOPE_CACHE_DIR=str(base / "cache-off"))
            off["PAPERSCOPE_CONFIG"] = str(base / "config-off.toml")
            (base / "config-off.toml").write_text("fulltext = false\n", encoding="utf-8")
            first, cold = startup.times_to_screen(command, [RESULTS, every], off, timeout)
            times["cold_first_off"].append(first)
            times["cold_off"].append(cold)
            times["warm_off"].append(startup._time_to_screen(command, every, off, timeout))
        first, cold = startup.times_to_screen(command, [RESULTS, every], env, timeout)
        times["cold_first"].append(first)
        times["cold"].append(cold)
        times["warm"].append(startup._time_to_screen(command, every, env, timeout))
        grow_one_file(library, seed)
        # First the papers as they were, while the grown file is read (tui.library_host);
        # then the whole library with the new record, a new paper.
        as_they_were = f"{every}|Reading {GROWN_FILE}"
        grown = EVERY.format(docs=docs + pdfs + 1)
        first, whole = startup.times_to_screen(command, [as_they_were, grown], env, timeout)
        times["grown_first"].append(first)
        times["grown"].append(whole)
        print(
            f"run {run + 1}/{runs}: "
            + ", ".join(f"{name} {values[-1]:.2f} s" for name, values in times.items()),
            file=sys.stderr,
        )
    figures: dict[str, Any] = {"docs": docs, "files": FILES, "runs": runs, "pdfs": pdfs}
    for name, values in times.items():
        figures[f"{name}_s"] = round(statistics.median(values), 3)
    figures["cold_first_vs_fts5"] = round(figures["cold_first_s"] / figures["fts5_s"], 2)
    figures["cold_vs_fts5"] = round(figures["cold_s"] / figures["fts5_s"], 2)
    figures["cold_vs_bare"] = round(figures["cold_s"] / figures["bare_s"], 2)
    figures["warm_vs_bare"] = round(figures["warm_s"] / figures["bare_s"], 2)
    figures["grown_first_vs_bare"] = round(figures["grown_first_s"] / figures["bare_s"], 2)
    figures["grown_vs_bare"] = round(figures["grown_s"] / figures["bare_s"], 2)
    figures["grown_vs_fts5"] = round(figures["grown_s"] / figures["fts5_s"], 2)
    if pdfs:
        for name in ("cold_first", "cold", "warm"):
            figures[f"{name}_on_vs_off"] = round(figures[f"{name}_s"] / figures[f"{name}_off_s"], 2)
    return figures


def print_report(f: dict[str, Any]) -> None:
    print(
        f"first start, {f['docs']} synthetic papers in {f['files']} JSONL files "
        f"(median of {f['runs']} run(s)), time to the first result rows"
    )
    print(f"  bare Textual app          {f['bare_s']:8.2f} s   baseline")
    print(f"  FTS5 reads + indexes      {f['fts5_s']:8.2f} s   baseline")
    print(
        f"  paperscope cold, any rows {f['cold_first_s']:8.2f} s   "
        f"x{f['cold_first_vs_fts5']:.2f} FTS5   target <= 3x FTS5"
    )
    print(f"  paperscope cold, all rows {f['cold_s']:8.2f} s   x{f['cold_vs_fts5']:.2f} FTS5")
    print(
        f"  paperscope warm           {f['warm_s']:8.2f} s   x{f['warm_vs_bare']:.2f} bare   "
        f"target <= 2.5x bare"
    )
    print(
        f"  one file gained a record  {f['grown_first_s']:8.2f} s   "
        f"x{f['grown_first_vs_bare']:.2f} bare   target <= 3x bare (the papers as they were)"
    )
    print(f"    ...with the new record  {f['grown_s']:8.2f} s   x{f['grown_vs_bare']:.2f} bare")
    if f.get("pdfs"):
        print(f"  {f['pdfs']} papers with a PDF: the starts above read them (full text on); off:")
        for name, label in (
            ("cold_first", "cold, any rows"),
            ("cold", "cold, all rows"),
            ("warm", "warm"),
        ):
            print(
                f"  full text off, {label:14} {f[f'{name}_off_s']:6.2f} s   "
                f"on/off x{f[f'{name}_on_vs_off']:.2f}   target 1x (the PDFs come after)"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pdfs", type=int, default=0, help="papers with a PDF attached; times full text off too"
    )
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--timeout",
        type=float,
        default=1800,
        help="seconds to wait for one start's first rows (default 1800)",
    )
    parser.add_argument("--work-dir", type=Path, help="keep the library and caches here")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child-fts5", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_fts5:
        _fts5_child(*args.child_fts5)
        return 0
    if args.work_dir is not None:
        args.work_dir.mkdir(parents=True, exist_ok=True)
        figures = measure(args.docs, args.seed, args.runs, args.work_dir, args.timeout, args.pdfs)
    else:
        with tempfile.TemporaryDirectory(prefix="first-start-") as tmp:
            figures = measure(args.docs, args.seed, args.runs, Path(tmp), args.timeout, args.pdfs)
    if args.json:
        print(json.dumps(figures))
    else:
        print_report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
