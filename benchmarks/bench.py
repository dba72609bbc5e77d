"""Search-as-you-type benchmark: paperscope's engine against SQLite FTS5, in one run.

    python benchmarks/bench.py --docs 10000 [--seed 1] [--json] [--cache-dir DIR]

Phases (each build and the cold open run in a fresh interpreter, see measure.py):
1. generate N synthetic papers (synth.py) and write them as 10 JSONL source files;
2. build paperscope's index through `open_engine(..., rebuild=True)`: docs/s, peak RSS;
3. build the FTS5 baseline the same way;
4. cold open: a new process opens the existing index and answers one request;
5. replay every keystroke of the query mix (queries.py) against both, interleaved request
   by request so both see the same machine load; p50/p95/max per kind, stage and overall;
6. incremental update: rewrite the small source file holding the 100 most recent papers
   with every paper changed, and re-open.
Figures are printed, never asserted: the machine is shared, so read the ratios.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script from anywhere, or imported by the tests
    sys.path.insert(0, str(HERE))

import fts5  # noqa: E402
import measure  # noqa: E402
import queries  # noqa: E402
import synth  # noqa: E402

from index.models import SearchRequest  # noqa: E402

MARKER = "zqxupdatemarker"  # a word the generator never writes
PROBE = SearchRequest(query="memory", limit=20, as_you_type=True)
ENGINE = "index:open_engine"  # overridden by --engine, e.g. to try another build


def open_engine(*args: Any, **kwargs: Any) -> Any:
    """The engine factory named by `ENGINE`, imported on first use (imports are timed)."""
    module, _, name = ENGINE.partition(":")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _library_files(workdir: Path) -> list[Path]:
    return sorted((workdir / "library").glob("library-*.jsonl"))


def _action(engine: Any) -> str | None:
    """What `open_engine` did ("built", "up to date", "updated 100 papers"), when it says."""
    action = getattr(getattr(engine, "opened", None), "action", None)
    return action if isinstance(action, str) else None


def _engine_source() -> dict[str, Any]:
    """Which code was measured: the `index` package's folder and its git commit, if any.

    Other people edit the working tree while benchmarks run; a figure is only worth quoting
    with the commit it measured (run from a `git archive` snapshot on PYTHONPATH to pin it).
    """
    import index

    folder = Path(index.__file__).resolve().parent
    info: dict[str, Any] = {"index_dir": str(folder), "commit": None, "dirty": None}
    try:
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        info["dirty"] = bool(
            subprocess.run(
                ["git", "status", "--porcelain", "."],
                cwd=folder,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        )
    except (OSError, subprocess.CalledProcessError):
        pass  # a snapshot outside git: the folder says which
    return info


def _close(engine: Any) -> None:
    close = getattr(engine, "close", None)
    if callable(close):
        close()


# ---- child phases: each prints one JSON line on stdout -------------------------------------


def _read_inputs(workdir: Path) -> tuple[Any, Any, float, float, float]:
    """Import the engine, read the library and load the taxonomy, as every child phase does.

    Returns the library, the taxonomy and the perf_counter marks: started, imported, loaded.
    """
    started = time.perf_counter()
    from index.facets.taxonomy import load_taxonomy

    importlib.import_module(ENGINE.partition(":")[0])
    imported = time.perf_counter()
    library = synth.read_library(_library_files(workdir))
    taxonomy = load_taxonomy()
    return library, taxonomy, started, imported, time.perf_counter()


def child_build_engine(workdir: Path) -> dict[str, Any]:
    library, taxonomy, started, imported, loaded = _read_inputs(workdir)
    before = measure.peak_rss_mb()
    engine = open_engine(library, taxonomy, workdir / "cache", rebuild=True, progress=None)
    built = time.perf_counter()
    action = _action(engine)
    # The build's own process tree, when the engine built in a fresh process (index.
    # build_child): the caller's library is not build memory.
    tree = getattr(getattr(engine, "opened", None), "build_peak_mb", None)
    _close(engine)
    peak = measure.peak_rss_mb()
    return {
        "action": action,
        "build_tree_mb": tree,
        "import_s": imported - started,
        "load_s": loaded - imported,
        "build_s": built - loaded,
        "rss_before_build_mb": before["self_mb"],
        "peak_self_mb": peak["self_mb"],
        "peak_children_mb": peak["children_mb"],
    }


def child_build_fts5(workdir: Path) -> dict[str, Any]:
    library = synth.read_library(_library_files(workdir))
    before = measure.peak_rss_mb()
    started = time.perf_counter()
    fts5.build_fts5(library.papers, workdir / "fts5.db")
    built = time.perf_counter()
    peak = measure.peak_rss_mb()
    return {
        "build_s": built - started,
        "rss_before_build_mb": before["self_mb"],
        "peak_self_mb": peak["self_mb"],
    }


def child_cold_open(workdir: Path) -> dict[str, Any]:
    library, taxonomy, started, imported, loaded = _read_inputs(workdir)
    engine = open_engine(library, taxonomy, workdir / "cache", rebuild=False, progress=None)
    opened = time.perf_counter()
    result = engine.search(PROBE)
    answered = time.perf_counter()
    second = engine.search(SearchRequest(query="memory", limit=20))
    again = time.perf_counter()
    action = _action(engine)
    _close(engine)
    return {
        "action": action,
        "import_ms": _ms(imported - started),
        "load_library_ms": _ms(loaded - imported),
        "open_ms": _ms(opened - loaded),
        "first_query_ms": _ms(answered - opened),
        "second_query_ms": _ms(again - answered),
        "first_total": result.total,
        "second_total": second.total,
    }


def child_pipeline_load(workdir: Path) -> dict[str, Any]:
    """The same files through paperscope's loaders and tagger, when they accept them."""
    from index.facets.taxonomy import load_taxonomy
    from index.library.load import load_library

    started = time.perf_counter()
    gc.disable()  # as the `paperscope` command loads (tui/startup.py): collector paused
    library = load_library(_library_files(workdir), load_taxonomy())
    gc.collect()
    gc.enable()
    elapsed = time.perf_counter() - started
    return {
        "load_s": elapsed,
        "papers": len(library.papers),
        "warnings": len(library.warnings),
        "peak_self_mb": measure.peak_rss_mb()["self_mb"],
    }


CHILDREN = {
    "build-engine": child_build_engine,
    "build-fts5": child_build_fts5,
    "cold-open": child_cold_open,
    "pipeline-load": child_pipeline_load,
}


# ---- the parent: replay and report ---------------------------------------------------------


def replay(engine: Any, baseline: fts5.Fts5Index, repeat: int) -> list[dict[str, Any]]:
    """Every keystroke request against both, one after the other, `repeat` times."""
    rows = []
    seen: set[SearchRequest] = set()
    for _ in range(repeat):
        for typed in queries.typed_requests():
            # A request typed before (the "t" of "training" and of "tensor") may be answered
            # from the engine's cache; FTS5 has none. Marked so the report can say how many.
            row: dict[str, Any] = {
                "kind": typed.kind,
                "stage": typed.stage,
                "query": typed.request.query,
                "repeat": typed.request in seen,
            }
            seen.add(typed.request)
            started = time.perf_counter()
            try:
                result = engine.search(typed.request)
                row["ms"] = (time.perf_counter() - started) * 1000
                row["total"] = result.total
                row["partial"] = bool(getattr(result, "partial", False))
            except Exception as error:  # a failing request is a finding, not a crash
                row["ms"] = (time.perf_counter() - started) * 1000
                row["error"] = f"{type(error).__name__}: {error}"
            started = time.perf_counter()
            base = baseline.search(typed.request)
            row["fts5_ms"] = (time.perf_counter() - started) * 1000
            row["fts5_total"] = base.total
            rows.append(row)
    return rows


def _group(rows: list[dict[str, Any]], key: str | None) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups["overall" if key is None else row[key]].append(row)
    report = {}
    for name, members in groups.items():
        ours = measure.summary([r["ms"] for r in members])
        base = measure.summary([r["fts5_ms"] for r in members])
        report[name] = {
            **ours,
            **{f"fts5_{k}": v for k, v in base.items() if k != "n"},
            "ratio_p50": round(ours["p50_ms"] / max(base["p50_ms"], 1e-3), 2),
            "ratio_p95": round(ours["p95_ms"] / max(base["p95_ms"], 1e-3), 2),
            "same_total": sum(r.get("total") == r["fts5_total"] for r in members),
            "partial": sum(r.get("partial", False) for r in members),
            "errors": sum("error" in r for r in members),
        }
    return report


def update_phase(workdir: Path, library: Any, count: int, marker: str = MARKER) -> dict[str, Any]:
    """Rewrites one source file with `count` changed papers; times re-open and the FTS5 update.

    `marker` is the word the changed papers get: another one for each update of the same
    work folder (`--update-only`), or the papers would not change."""
    from index.facets.taxonomy import load_taxonomy

    files = _library_files(workdir)
    target = str(workdir / "library" / synth.RECENT_FILE)
    papers = synth.changed_papers(library.papers, target, count, marker)
    changed = [(i, p) for i, p in enumerate(papers, 1) if marker in p.title]
    synth.write_library([p for p in papers if p.sources[0].path == target], workdir / "tmp")
    Path(workdir / "tmp" / Path(target).name).replace(target)
    new_library = synth.read_library(files)
    # CPU time beside the wall clock: on a shared machine the wall clock of one update
    # swings several-fold with the load; the CPU it took far less (an update is one thread).
    # The collector off over the update, as the app's reload and the command line open it
    # (tui.startup collector_paused / collector_off; the library itself sets no policy).
    was_collecting = gc.isenabled()
    gc.disable()
    try:
        started, cpu = time.perf_counter(), time.process_time()
        engine = open_engine(new_library, load_taxonomy(), workdir / "cache", rebuild=False)
        opened, cpu = time.perf_counter(), time.process_time() - cpu
    finally:
        if was_collecting:
            gc.enable()
    found = engine.search(SearchRequest(query=marker, limit=20)).total
    answered = time.perf_counter()
    # A first keystroke right after the update: its match set should still come stored.
    letter_ms = []
    for letter in "mtcdpsa":
        begun = time.perf_counter()
        engine.search(SearchRequest(query=letter, as_you_type=True, limit=20))
        letter_ms.append(_ms(time.perf_counter() - begun))
    action = _action(engine)
    _close(engine)
    baseline = fts5.Fts5Index(workdir / "fts5.db")
    started_fts5, fts5_cpu = time.perf_counter(), time.process_time()
    baseline.update(changed)
    fts5_s, fts5_cpu = time.perf_counter() - started_fts5, time.process_time() - fts5_cpu
    fts5_found = baseline.search(SearchRequest(query=marker, limit=20)).total
    baseline.close()
    return {
        "update_action": action,
        "update_changed": len(changed),
        "update_reopen_s": round(opened - started, 3),
        "update_reopen_cpu_s": round(cpu, 3),
        "update_first_query_ms": _ms(answered - opened),
        "update_found": found,
        "update_one_letter_ms": {"p50": statistics.median(letter_ms), "max": max(letter_ms)},
        "fts5_update_s": round(fts5_s, 3),
        "fts5_update_cpu_s": round(fts5_cpu, 3),
        "fts5_update_found": fts5_found,
    }


def update_again(workdir: Path, docs: int) -> dict[str, Any]:
    """The update phase alone, on an earlier run's work folder, with a fresh marker word."""
    started = time.perf_counter()
    library = synth.read_library(_library_files(workdir))
    # Letters only, unlike any generated word: a word the index has never seen.
    stamp = "".join(chr(ord("a") + int(d)) for d in str(time.time_ns())[-8:])
    report = update_phase(workdir, library, synth.recent_count(docs), f"zqx{stamp}marker")
    return {"docs": docs, "read_library_s": round(time.perf_counter() - started, 1), **report}


def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(args.cache_dir) if args.cache_dir else Path(tempfile.mkdtemp(prefix="bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr))
    started = time.perf_counter()
    papers = synth.generate_papers(args.docs, args.seed)
    for old in _library_files(workdir):
        old.unlink()
    synth.write_library(papers, workdir / "library")
    del papers
    say(f"generated {args.docs} papers in {time.perf_counter() - started:.1f} s -> {workdir}")
    options = ["--cache-dir", str(workdir), "--engine", ENGINE]
    script = Path(__file__).resolve()
    built = measure.run_child(script, "build-engine", options)
    say(f"paperscope build: {built}")
    base_built = measure.run_child(script, "build-fts5", options)
    say(f"fts5 build: {base_built}")
    cold = measure.run_child(script, "cold-open", options)
    say(f"cold open: {cold}")
    pipeline = measure.run_child(script, "pipeline-load", options) if args.pipeline else {}

    from index.facets.taxonomy import load_taxonomy

    library = synth.read_library(_library_files(workdir))
    opened = time.perf_counter()
    engine = open_engine(library, load_taxonomy(), workdir / "cache", rebuild=False)
    warm_open = time.perf_counter() - opened
    warm_action = _action(engine)
    baseline = fts5.Fts5Index(workdir / "fts5.db")
    rows = replay(engine, baseline, args.repeat)
    _close(engine)
    baseline.close()
    update = update_phase(workdir, library, synth.recent_count(args.docs))
    overall = _group(rows, None)["overall"]
    caller_peak = built["peak_self_mb"] + built["peak_children_mb"]
    peak = built.get("build_tree_mb") or caller_peak
    report: dict[str, Any] = {
        "docs": args.docs,
        "seed": args.seed,
        "requests": len(rows),
        "repeated_requests": sum(r["repeat"] for r in rows),
        "build_s": round(built["build_s"], 2),
        "build_docs_per_s": round(args.docs / built["build_s"], 1),
        "peak_rss_mb": round(peak, 1),
        "caller_peak_rss_mb": round(caller_peak, 1),
        "peak_rss_self_mb": built["peak_self_mb"],
        "peak_rss_children_mb": built["peak_children_mb"],
        "rss_before_build_mb": built["rss_before_build_mb"],
        "cold_open_ms": round(cold["open_ms"] + cold["first_query_ms"], 2),
        "cold": cold,
        "warm_open_ms": _ms(warm_open),
        "warm_open_action": warm_action,
        "build_action": built.get("action"),
        "engine_source": {**_engine_source(), "label": args.label},
        "p50_ms": overall["p50_ms"],
        "p95_ms": overall["p95_ms"],
        "max_ms": overall["max_ms"],
        "fts5_p50_ms": overall["fts5_p50_ms"],
        "fts5_p95_ms": overall["fts5_p95_ms"],
        "fts5_max_ms": overall["fts5_max_ms"],
        "ratio_p50": overall["ratio_p50"],
        "ratio_p95": overall["ratio_p95"],
        "fts5_build_docs_per_s": round(args.docs / base_built["build_s"], 1),
        "fts5_peak_rss_mb": base_built["peak_self_mb"],
        "fts5_rss_before_build_mb": base_built["rss_before_build_mb"],
        "errors": overall["errors"],
        "same_total": overall["same_total"],
        "per_kind": _group(rows, "kind"),
        "per_stage": _group(rows, "stage"),
        **update,
        "pipeline_load": pipeline,
        "error_examples": sorted({r["error"] for r in rows if "error" in r})[:5],
    }
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return report


def print_tables(r: dict[str, Any]) -> None:
    """The replay's figures per kind, per stage and overall (`r`: a report of `run`)."""
    header = (
        f"{'':14}{'n':>5}{'p50':>9}{'p95':>9}{'max':>9} | {'fts5 p50':>9}{'p95':>9}"
        f"{'max':>9} | {'x p50':>6}{'x p95':>7} same-total partial errors"
    )
    for title, table in (
        ("per kind", r["per_kind"]),
        ("per stage", r["per_stage"]),
        ("overall", {"overall": {**r, "n": r["requests"]}}),
    ):
        print(f"\n{title} (ms; x = paperscope / fts5)\n{header}")
        for name, s in table.items():
            print(
                f"{name:14}{s['n']:>5}{s['p50_ms']:>9}{s['p95_ms']:>9}{s['max_ms']:>9} | "
                f"{s['fts5_p50_ms']:>9}{s['fts5_p95_ms']:>9}{s['fts5_max_ms']:>9} | "
                f"{s['ratio_p50']:>6}{s['ratio_p95']:>7} {s['same_total']:>10} "
                f"{s.get('partial', '-'):>7} {s['errors']:>6}"
            )


def print_report(report: dict[str, Any]) -> None:
    r = report
    print(
        f"paperscope vs SQLite FTS5, {r['docs']} papers, seed {r['seed']}, "
        f"{r['requests']} keystroke requests ({r.get('repeated_requests', '?')} typed before)"
    )
    print(
        f"build: {r['build_docs_per_s']} docs/s ({r['build_s']} s), peak RSS "
        f"{r['peak_rss_mb']} MB (build process tree: process + largest worker); caller "
        f"{r['peak_rss_self_mb']} + largest descendant {r['peak_rss_children_mb']} = "
        f"{r.get('caller_peak_rss_mb')} MB; {r['rss_before_build_mb']} MB before the build)"
    )
    print(
        f"fts5 build: {r['fts5_build_docs_per_s']} docs/s, peak RSS {r['fts5_peak_rss_mb']} MB "
        f"({r['fts5_rss_before_build_mb']} MB before)"
    )
    c = r["cold"]
    print(
        f"cold open: {r['cold_open_ms']} ms = open {c['open_ms']} + first query "
        f"{c['first_query_ms']} (import {c['import_ms']}, library load "
        f"{c['load_library_ms']}; engine said {c.get('action')!r}); warm open "
        f"{r['warm_open_ms']} ms ({r['warm_open_action']!r})"
    )
    print(f"engine measured: {r['engine_source']}")
    print_tables(r)
    print(
        f"\nupdate: {r['update_changed']} papers changed in one file: re-open "
        f"({r['update_action']!r}) "
        f"{r['update_reopen_s']} s, then query {r['update_first_query_ms']} ms, marker found "
        f"in {r['update_found']}; fts5 update {r['fts5_update_s']} s "
        f"(found {r['fts5_update_found']}); one-letter requests after it: "
        f"p50 {r['update_one_letter_ms']['p50']} ms, max {r['update_one_letter_ms']['max']} ms"
    )
    if r["pipeline_load"]:
        print(f"load through index.library.load.load_library: {r['pipeline_load']}")
    for example in r["error_examples"]:
        print(f"error: {example}")


def main(argv: list[str] | None = None) -> int:
    global ENGINE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000, help="papers to generate")
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--cache-dir", help="work folder (library, indexes); default: temp")
    parser.add_argument("--repeat", type=int, default=1, help="replay the mix this many times")
    parser.add_argument(
        "--pipeline",
        action="store_true",
        help="also time loading the files through index.library.load.load_library",
    )
    parser.add_argument("--label", help="a note kept in the report, e.g. the snapshot's commit")
    parser.add_argument("--rows", help="write every request's timing to this JSON file")
    parser.add_argument(
        "--engine", default=ENGINE, help="engine factory as module:function (default: %(default)s)"
    )
    parser.add_argument(
        "--update-only",
        action="store_true",
        help="only the update phase, on the library and indexes an earlier run left in "
        "--cache-dir (each run changes the same papers again, with a new marker word)",
    )
    parser.add_argument("--child", choices=sorted(CHILDREN), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    ENGINE = args.engine
    if args.child:
        print(json.dumps(CHILDREN[args.child](Path(args.cache_dir))))
        return 0
    if args.update_only:
        if not args.cache_dir:
            parser.error("--update-only needs the --cache-dir of an earlier run")
        print(json.dumps(update_again(Path(args.cache_dir), args.docs), ensure_ascii=False))
        return 0
    report = run(args)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
