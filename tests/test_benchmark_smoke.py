"""The benchmark runs end to end at a small size and reports what it promises.

Speed is never asserted (the CI machine is shared and noisy); these tests only prove that
`benchmarks/bench.py` still works against the current engine, that its JSON carries the
documented keys with usable values, and that its generator and baseline behave.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import fts5  # noqa: E402
import queries  # noqa: E402
import synth  # noqa: E402

from index.models import SearchRequest  # noqa: E402

# One worker runs the whole module, so the benchmark run behind `report` (a module
# fixture, several seconds) happens once, not once per worker.
pytestmark = pytest.mark.xdist_group("benchmark-smoke")

# The smallest library on which every query kind and stage still has papers to find.
DOCS = 100

NUMBERS = (
    "build_docs_per_s",
    "peak_rss_mb",
    "p50_ms",
    "p95_ms",
    "max_ms",
    "fts5_p50_ms",
    "fts5_p95_ms",
    "fts5_build_docs_per_s",
    "cold_open_ms",
    "update_reopen_s",
)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The work folder of the run behind `report` (its library, index and FTS5 database)."""
    return tmp_path_factory.mktemp("bench")


@pytest.fixture(scope="module")
def report(work: Path) -> dict:
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "bench.py"),
            "--docs",
            str(DOCS),
            "--seed",
            "3",
            "--json",
            "--cache-dir",
            str(work),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout)


def test_json_has_the_documented_keys_with_sane_values(report: dict) -> None:
    assert report["docs"] == DOCS
    for key in NUMBERS:
        value = report[key]
        assert isinstance(value, (int, float)) and not isinstance(value, bool), key
        assert math.isfinite(value) and value > 0, (key, value)
    assert report["p50_ms"] <= report["p95_ms"] <= report["max_ms"]
    assert report["requests"] == len(queries.typed_requests())


def test_every_query_kind_and_stage_is_reported(report: dict) -> None:
    kinds = {kind for kind, *_ in queries.SCRIPTS}
    assert set(report["per_kind"]) == kinds
    assert {"prefix-1-2", "prefix-3+", "complete"} <= set(report["per_stage"])
    assert sum(group["n"] for group in report["per_kind"].values()) == report["requests"]
    for group in report["per_kind"].values():
        assert group["p50_ms"] <= group["p95_ms"] <= group["max_ms"]


def test_the_engine_answers_the_mix_and_sees_the_update(report: dict) -> None:
    assert report["errors"] == 0, report["error_examples"]
    assert report["update_changed"] == DOCS // 10  # a tenth of them, in one source file
    assert report["update_found"] == report["fts5_update_found"] == DOCS // 10


def test_generator_is_deterministic_and_realistic() -> None:
    first = synth.generate_papers(200, seed=5)
    assert first == synth.generate_papers(200, seed=5)
    assert first != synth.generate_papers(200, seed=6)
    words = [len(paper.abstract.split()) for paper in first]
    assert 150 <= sum(words) / len(words) <= 260
    assert all(3 <= len(set(paper.authors)) == len(paper.authors) <= 8 for paper in first)
    assert all(2010 <= (paper.year or 0) <= 2026 for paper in first)
    assert any(not name.isascii() for paper in first for name in paper.authors)
    for paper in first:  # a hardware leaf always brings its parent
        ids = set(paper.hardware_ids)
        assert all(synth.HARDWARE_PARENTS[h] in ids for h in ids if h in synth.HARDWARE_PARENTS)


def test_the_author_pool_fills_for_a_million_papers() -> None:
    """One middle initial gave ~154,000 names at most: a million papers' pool never filled."""
    import random

    pool = synth._author_pool(random.Random("papers-1"), 200_000)
    assert len(set(pool)) == 200_000
    # Pools the benchmark's figures were measured on (up to 100,000 names) are unchanged.
    assert synth._author_pool(random.Random("papers-1"), 40_000) == pool[:40_000]


def test_library_round_trips_through_its_files(tmp_path: Path) -> None:
    papers = synth.generate_papers(50, seed=2, files=3)
    files = synth.write_library(papers, tmp_path)
    library = synth.read_library(files)
    assert len(files) == 3 + 1 and len(library.papers) == 50  # + the small "recent" file
    assert [p.abstract for p in library.papers] == [p.abstract for p in papers]
    assert all(p.sources[0].path in library.files for p in library.papers)


def test_fts5_baseline_counts_match_brute_force(tmp_path: Path) -> None:
    papers = synth.generate_papers(300, seed=4)
    fts5.build_fts5(papers, tmp_path / "f.db")
    index = fts5.Fts5Index(tmp_path / "f.db")
    try:
        result = index.search(SearchRequest(query="", topics=frozenset({"training"})))
        expected = sum("training" in p.topic_ids for p in papers)
        assert result.total == expected
        counted = result.facets["hardware"].get("gpu", 0)
        assert counted == sum("gpu" in p.hardware_ids for p in papers if "training" in p.topic_ids)
        typed = index.search(SearchRequest(query="tractograph", as_you_type=True))
        finished = index.search(SearchRequest(query="tractography"))
        assert (
            typed.total
            == finished.total
            == sum("tractography" in p.abstract.lower() for p in papers)
        )
    finally:
        index.close()


def test_word_stage_names_the_word_being_typed() -> None:
    assert queries.word_stage("") == "empty"
    assert queries.word_stage("kv c") == "prefix-1-2"
    assert queries.word_stage("author:mül") == "prefix-3+"
    assert queries.word_stage('"tensor compiler"') == "complete"
    assert queries.word_stage("memory ") == "complete"


def test_hostile_query_benchmark_reports_a_ratio_for_every_query(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import hostile_queries

    assert hostile_queries.main(["--runs", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    bundled = report["bundled (47)"]
    assert {row["query"] for row in bundled} == set(hostile_queries.HOSTILE_QUERIES)
    assert {row["mode"] for row in bundled} == {"submitted", "as-you-type"}
    assert all(row["ratio"] > 0 and row["normal_ms"] > 0 for row in bundled)
    assert len(report["wordy (300)"]) == 2 * len(hostile_queries.WILDCARD_QUERIES)


def test_the_replay_alone_runs_on_the_index_an_earlier_run_built(report: dict, work: Path) -> None:
    import replay_index

    replayed, rows = replay_index.run(work, repeat=1)
    assert replayed["docs"] == DOCS
    assert replayed["requests"] == len(rows) == report["requests"]
    assert replayed["errors"] == 0
    assert replayed["p50_ms"] <= replayed["p95_ms"] <= replayed["max_ms"]
    assert replayed["fts5_p95_ms"] > 0 and replayed["ratio_p95"] > 0
    assert set(replayed["per_stage"]) == set(report["per_stage"])
    # The same index answers as in the run that built it (the update changed no total).
    assert replayed["same_total"] == report["same_total"]


def test_the_updates_changed_papers_keep_their_size_round_after_round() -> None:
    """Each round replaces the last round's marker: the 100 papers of a reused work folder
    do not grow with every update the benchmark made of them."""
    papers = synth.generate_papers(40, 1)
    name = papers[0].sources[0].path
    once = synth.changed_papers(papers, name, 2, "zqxfirstq")
    twice = synth.changed_papers(once, name, 2, "zqxsecondq")
    assert sum(first != original for original, first in zip(papers, once)) == 2
    for original, first, second in zip(papers, once, twice):
        if first == original:
            continue
        assert first.title == f"{original.title} (revised zqxfirstq)"
        assert second.title == f"{original.title} (revised zqxsecondq)"
        assert second.abstract == f"{original.abstract} We revise this with zqxsecondq results."


def test_the_update_benchmark_times_both_updates(work: Path, report: dict) -> None:
    """update_speed.py's rounds on the work folder the run left (a library this small is
    rebuilt rather than updated in place; the figures are the same keys)."""
    import update_speed

    runs = update_speed.rounds(work, DOCS, 1)
    result = update_speed.report(DOCS, {"reused": True}, runs)
    assert result["changed"] == synth.recent_count(DOCS) and result["found_right"]
    assert result["median_s"] > 0 and result["fts5_median_s"] > 0
    assert result["ratio_median"] > 0 and result["cpu_ratio_median"] >= 0


def test_the_known_item_queries_are_timed_at_scale_by_two_codes(work: Path, report: dict) -> None:
    """known_item_scale.py: each code in a child of its own, on one run's index here."""
    root = BENCHMARKS.parent
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / "known_item_scale.py"), "--papers", "3", "--json"]
        + ["--code", str(root), "--dir", str(work)] * 2,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    found = json.loads(completed.stdout)
    (rows,) = found.values()  # the same code twice: one column
    kinds = {row["kind"] for row in rows}
    assert {"title fragment, one typo", "key, not in the library"} <= kinds
    assert all(row["ms"] > 0 for row in rows)
    # A title fragment typed right finds its paper in a library of a hundred.
    typed = [row for row in rows if row["kind"] == "title fragment, no typo"]
    assert typed and all(row["total"] > 0 for row in typed)


def test_the_memory_benchmark_reports_every_mode(work: Path, report: dict) -> None:
    """memory.py reads the engine's own structures by name: a rename must fail here first."""
    completed = subprocess.run(
        [sys.executable, str(BENCHMARKS / "memory.py"), "--cache-dir", str(work), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    modes = json.loads(completed.stdout)
    assert set(modes) == {"library", "engine", "stored"}
    for mode in ("engine", "stored"):
        assert modes[mode]["papers"] == DOCS
        parts = modes[mode]["parts"]
        assert parts and all(isinstance(mb, float) and mb >= 0 for mb in parts.values())


def test_the_search_profile_lists_functions(work: Path, report: dict) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "profile_search.py"),
            "--cache-dir",
            str(work),
            "--stage",
            "complete",
            "--top",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "function calls" in completed.stdout
