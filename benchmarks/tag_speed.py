"""The CPU tagging takes per paper, against another commit's tagger in the same run.

A first start tags every paper (`index.facets.tagger.tag_paper`, in worker interpreters
beside dedupe), so its CPU is part of how soon a big library is searchable. This tags the
same papers with this checkout's code and, alternating with it, with another commit's
(`--baseline-code DIR`: a checkout or `git archive` holding `index` and `assets`), each
run in a fresh interpreter with its code first on `sys.path`; the papers are read (or
generated) once, in this process, and handed to each run as a pickle, so both tag the
very same papers. The taxonomy is compiled before the clock starts and the collector is
off, as in the start's own stage measurements. Every run also digests its labels and
reasons: the two codes' digests must be equal, or the comparison says so.

    python benchmarks/tag_speed.py [--papers 20000] [--library FILE_OR_FOLDER ...]
        [--runs 3] [--baseline-code DIR] [--json]

Without `--library`, `--papers` synthetic papers (`synth.py`); with it, the papers of
those files as the loaders read them, before any merge (`--papers` then caps them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def read_papers(library: list[Path], limit: int | None) -> list[Any]:
    """The papers of the files (folders walked), each file as the loaders read it."""
    sys.path.insert(0, str(ROOT))
    from index.library.loaders import SUPPORTED_SUFFIXES, load_file

    files: list[Path] = []
    for path in library:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix.lower() in SUPPORTED_SUFFIXES)
        else:
            files.append(path)
    papers = [paper for path in files for paper in load_file(path, path.name).papers]
    return papers[:limit] if limit is not None else papers


def synthetic_papers(count: int) -> list[Any]:
    """`count` generated papers (synth.py, seed 1), without labels: the tagger sets them."""
    sys.path[:0] = [str(ROOT), str(HERE)]
    import synth

    from index.models import replace

    return [replace(p, topics=(), hardware=()) for p in synth.generate_papers(count, seed=1)]


def _child(code: Path, papers_file: Path) -> dict[str, Any]:
    """In a fresh interpreter: tag the pickled papers with the `index` of `code`."""
    sys.path.insert(0, str(code))
    import gc

    import index
    from index.facets.tagger import tag_paper
    from index.facets.taxonomy import load_taxonomy

    papers = pickle.loads(papers_file.read_bytes())
    taxonomy = load_taxonomy()
    tag_paper(papers[0], taxonomy)  # the rules compiled, outside the clock
    gc.disable()
    cpu = time.process_time()
    tagged = [tag_paper(paper, taxonomy) for paper in papers]
    cpu = time.process_time() - cpu
    gc.enable()
    digest = hashlib.sha256()
    for paper in tagged:
        digest.update(repr((paper.id, paper.topics, paper.hardware)).encode())
    return {
        "source": str(Path(index.__file__).parent),
        "papers": len(tagged),
        "cpu_s": cpu,
        "labelled": sum(1 for p in tagged if p.topics or p.hardware),
        "digest": digest.hexdigest()[:16],
    }


def _run(code: Path, papers_file: Path) -> dict[str, Any]:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        str(code),
        str(papers_file),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no output"]
        raise SystemExit(f"tagging with {code} failed: {lines[-1]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(papers: list[Any], runs: int, baseline: Path | None) -> dict[str, Any]:
    """Median CPU per code over `runs` rounds (the codes' order alternating), and ratios."""
    codes = {"this": ROOT} | ({"baseline": baseline} if baseline is not None else {})
    seen: dict[str, list[dict[str, Any]]] = {name: [] for name in codes}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as work:
        papers_file = Path(work) / "papers.pickle"
        papers_file.write_bytes(pickle.dumps(papers))
        for run in range(runs):
            order = list(codes.items())
            for name, code in order if run % 2 == 0 else order[::-1]:
                result = _run(code, papers_file)
                result["load"] = os.getloadavg()[0]
                seen[name].append(result)
                print(
                    f"run {run + 1}/{runs} {name}: CPU {result['cpu_s']:.2f} s, "
                    f"load {result['load']:.2f}",
                    file=sys.stderr,
                )
    figures: dict[str, Any] = {
        "papers": len(papers),
        "runs": runs,
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }
    medians = {
        name: statistics.median(r["cpu_s"] for r in results) for name, results in seen.items()
    }
    for name, results in seen.items():
        figures[name] = {
            "source": results[0]["source"],
            "cpu_s": round(medians[name], 3),
            "ms_per_paper": round(medians[name] / max(1, len(papers)) * 1000, 4),
            "labelled": results[0]["labelled"],
            "runs_cpu_s": [round(r["cpu_s"], 3) for r in results],
        }
    if baseline is not None:
        figures["cpu_vs_baseline"] = round(medians["this"] / medians["baseline"], 3)
        figures["per_run_cpu_vs_baseline"] = [  # each round's two runs back to back
            round(a["cpu_s"] / b["cpu_s"], 3) for a, b in zip(seen["this"], seen["baseline"])
        ]
        digests = {r["digest"] for results in seen.values() for r in results}
        figures["same_labels"] = len(digests) == 1
    return figures


def print_report(f: dict[str, Any]) -> None:
    print(
        f"tagging {f['papers']:,} papers, CPU (median of {f['runs']}; "
        f"load {f['load_before']} -> {f['load_after']})"
    )
    for name in ("baseline", "this"):
        if name in f:
            g = f[name]
            print(
                f"  {name:8} {g['cpu_s']:8.2f} s  {g['ms_per_paper']:.4f} ms/paper  "
                f"{g['labelled']:,} labelled   ({g['source']})"
            )
    if "cpu_vs_baseline" in f:
        per_run = ", ".join(f"x{ratio:.3f}" for ratio in f["per_run_cpu_vs_baseline"])
        same = "the same labels and reasons" if f["same_labels"] else "LABELS DIFFER"
        print(f"  this / baseline: CPU x{f['cpu_vs_baseline']:.3f} (each run: {per_run}); {same}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, help="how many (default 20,000 synthetic)")
    parser.add_argument("--library", type=Path, nargs="+", help="tag these files' papers")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline-code", type=Path, help="another checkout's root (its index)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(*args.child)))
        return 0
    if args.baseline_code is not None and not (args.baseline_code / "index").is_dir():
        parser.error(f"{args.baseline_code}: no index package there")
    if args.library:
        missing = [str(p) for p in args.library if not p.exists()]
        if missing:
            parser.error(f"no such file or folder: {', '.join(missing)}")
        papers = read_papers(args.library, args.papers)
    else:
        papers = synthetic_papers(args.papers or 20000)
    if not papers:
        parser.error("no papers to tag")
    figures = measure(papers, args.runs, args.baseline_code)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
