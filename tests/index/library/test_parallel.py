"""A big load parses and tags on every core, and gives exactly what one core gives.

`index.library.parallel.LoadPool` sends files to parse and papers to tag to spawned
worker interpreters when there is enough work. These tests lower its thresholds so the
small fixture library goes to real workers, and compare with the load done in-process:
the same papers, labels, warnings and order, with and without the library cache. When the
workers cannot start, or die part-way, the rest is done in-process with the same result.
"""

from __future__ import annotations

import json
import os
import shutil
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

import index.library.labelling as labelling
import index.library.parallel as parallel
import index.library.pipeline as pipeline
from index.facets.tagger import tag_paper
from index.facets.taxonomy import load_taxonomy
from index.library.cache import unpack_file_result
from index.library.load import load_library
from index.library.parallel import LoadPool
from index.models import Library
from tests.index.library.pool_probes import die, loud_pid, niceness, pid

TAXONOMY = load_taxonomy()
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"


@pytest.fixture
def every_step_parallel(monkeypatch: pytest.MonkeyPatch) -> list[LoadPool]:
    """Loads use two workers for any amount of work; returns the pools they made."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_TAGS", 1)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(parallel, "TAG_CHUNK", 3)  # several tasks, answered out of order
    pools: list[LoadPool] = []

    class Recorded(LoadPool):
        """A pool that remembers how many papers and files it was given."""

        def __init__(self, taxonomy: Any) -> None:
            super().__init__(taxonomy, workers=2)
            self.given = {"papers": 0, "files": 0}
            pools.append(self)

        def tag(self, papers: Any) -> Any:  # `tag_ahead` sends its papers through here
            self.given["papers"] += len(papers)
            return super().tag(papers)

        def parse(self, files: Any) -> Any:
            self.given["files"] += len(files)
            return super().parse(files)

    monkeypatch.setattr(pipeline, "LoadPool", Recorded)
    return pools


def _library_folder(tmp_path: Path) -> Path:
    """The fixture library (BibTeX, RIS-free JSON, CSL, text, a malformed file), copied."""
    folder = tmp_path / "library"
    shutil.copytree(FIXTURES, folder)
    return folder


def _serial(folder: Path, cache: Path | None) -> Library:
    return load_library([folder], TAXONOMY, cache_dir=cache)


@pytest.mark.parametrize("cached", [False, True], ids=["no cache", "cache"])
def test_a_load_on_two_workers_equals_one_on_one_core(
    tmp_path: Path, every_step_parallel: list[LoadPool], cached: bool
) -> None:
    folder = _library_folder(tmp_path)
    cache = tmp_path / "cache-parallel" if cached else None
    loaded = load_library([folder], TAXONOMY, cache_dir=cache)
    assert every_step_parallel and every_step_parallel[0].started
    every_step_parallel.clear()
    with pytest.MonkeyPatch.context() as serial:
        serial.setattr(pipeline, "LoadPool", lambda taxonomy: LoadPool(taxonomy, workers=1))
        expected = _serial(folder, tmp_path / "cache-serial" if cached else None)
    assert loaded.papers == expected.papers
    # ...and each paper has its own labels (tagging is idempotent: a fixpoint of tag_paper)
    assert loaded.papers == tuple(tag_paper(paper, TAXONOMY) for paper in loaded.papers)
    assert loaded.warnings == expected.warnings and loaded.warnings  # the malformed file
    assert any(paper.topics for paper in loaded.papers)  # the tagger's work came back
    assert loaded.files == expected.files


def test_after_one_file_changed_only_it_is_parsed_and_only_new_texts_tagged(
    tmp_path: Path, every_step_parallel: list[Any]
) -> None:
    folder = _library_folder(tmp_path)
    cache = tmp_path / "cache"
    first = load_library([folder], TAXONOMY, cache_dir=cache)
    assert every_step_parallel[0].given["papers"] == len(first.papers)  # each text once
    os.utime(folder / "arxiv.jsonl", ns=(1, 1))  # same bytes, another mtime: parsed again
    again = load_library([folder], TAXONOMY, cache_dir=cache)
    assert again.papers == first.papers
    assert every_step_parallel[1].given == {"papers": 0, "files": 1}


@pytest.mark.parametrize("workers", [2, 1])
@pytest.mark.parametrize("cached", [False, True], ids=["no cache", "cache"])
def test_progress_counts_up_to_every_file_and_paper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, cached: bool
) -> None:
    monkeypatch.setattr(parallel, "PARALLEL_MIN_TAGS", 1)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(pipeline, "LoadPool", lambda taxonomy: LoadPool(taxonomy, workers))
    monkeypatch.setattr(labelling, "TAG_PROGRESS_EVERY", 4)
    steps: dict[str, list[tuple[int, int]]] = {}
    library = load_library(
        [_library_folder(tmp_path)],
        TAXONOMY,
        cache_dir=tmp_path / "cache" if cached else None,
        progress=lambda step, done, total: steps.setdefault(step, []).append((done, total)),
    )
    for step in ("reading files", "tagging"):
        counts = [done for done, _ in steps[step]]
        assert counts == sorted(counts) and counts[0] < counts[-1], step
        assert steps[step][-1][0] == steps[step][-1][1], step
        assert all(done <= total for done, total in steps[step]), step
    assert steps["tagging"][-1][1] == len(library.papers)


def test_work_runs_in_other_processes_that_write_nothing_to_the_terminal(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with LoadPool(TAXONOMY, workers=2) as pool:
        pids = list(pool._map(loud_pid, pid, list(range(4)), parallel=True))
        assert pool.started
    assert os.getpid() not in pids
    out, err = capfd.readouterr()
    assert "hello" not in out + err


def test_workers_run_nicer_than_this_process() -> None:
    """Dedupe here is what a load waits for; the workers' tagging beside it yields to it."""
    here = os.nice(0)
    with LoadPool(TAXONOMY, workers=2) as pool:
        levels = set(pool._map(niceness, niceness, list(range(4)), parallel=True))
        assert pool.started
    assert levels == {min(19, here + parallel.WORKER_NICENESS)}
    assert os.nice(0) == here  # this process is left as it was


def test_a_small_step_starts_no_workers() -> None:
    papers = load_library(None, TAXONOMY).papers[:10]
    with LoadPool(TAXONOMY, workers=2) as pool:
        labels = list(pool.tag(papers))
        assert not pool.started
    assert labels == [(p.topics, p.hardware) for p in (tag_paper(q, TAXONOMY) for q in papers)]


def test_workers_that_cannot_start_leave_the_work_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_processes(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no semaphores here")

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", no_processes)
    with LoadPool(TAXONOMY, workers=2) as pool:
        pids = list(pool._map(pid, pid, list(range(3)), parallel=True))
        assert pool.workers == 1 and not pool.started
    assert pids == [os.getpid()] * 3


def test_a_worker_that_dies_leaves_the_rest_to_this_process() -> None:
    with LoadPool(TAXONOMY, workers=2) as pool:
        pids = list(pool._map(die, pid, list(range(5)), parallel=True))
        assert pool.workers == 1  # later steps run here too
    assert pids == [os.getpid()] * 5


def test_one_core_means_no_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    with LoadPool(TAXONOMY) as pool:
        assert pool.workers == 1
        assert list(pool._map(pid, pid, [0, 1], parallel=True)) == [os.getpid()] * 2
        assert not pool.started


def test_a_merged_paper_is_tagged_on_its_merged_text_not_a_part_tagged_ahead(
    tmp_path: Path, every_step_parallel: list[LoadPool]
) -> None:
    folder = tmp_path / "two"
    folder.mkdir()
    (folder / "refs.bib").write_text(
        "@inproceedings{lee2024,\n  title = {Fast Attention Kernels},\n"
        "  author = {Lee, Ana},\n  year = {2024},\n  doi = {10.1145/3600006.3613165},\n"
        "  booktitle = {Proceedings of SOSP},\n  keywords = {compilers},\n}\n"
    )
    record = {
        "id": "2401.00001",
        "title": "Fast Attention Kernels",
        "authors": "Ana Lee",
        "doi": "10.1145/3600006.3613165",
        "abstract": "We write fused CUDA kernels for attention on NVIDIA GPUs.",
        "update_date": "2024-01-02",
    }
    (folder / "arxiv.jsonl").write_text(json.dumps(record) + "\n")
    library = load_library([folder], TAXONOMY)
    (paper,) = library.papers
    assert len(paper.sources) == 2  # one paper from both files, with text from each
    assert paper.venue and paper.abstract and paper.keywords
    assert every_step_parallel[0].started
    # the labels need both parts: hardware from the abstract, a topic from the keyword
    assert paper.hardware and "compilers" in [label.value for label in paper.topics]
    assert paper == tag_paper(paper, TAXONOMY)


def test_the_biggest_files_are_sent_first_and_each_result_names_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big export listed after many small files is not started last (one worker then
    parses it alone at the end): sent first, the other worker takes the small ones."""
    sent: list[str] = []

    class Recording:
        """Runs each job at once, here, noting the order it was sent in."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def submit(self, function: Any, job: Any) -> Future[Any]:
            sent.append(job[1])
            future: Future[Any] = Future()
            future.set_result(function(job))
            return future

        def shutdown(self, *args: Any, **kwargs: Any) -> None:
            pass

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    entry = "@article{k%d,\n  title = {Paper %d},\n  year = {2020},\n}\n"
    files = []
    for name, count in (("a.bib", 1), ("b.bib", 5), ("c.bib", 2), ("d.bib", 9)):
        path = tmp_path / name
        path.write_text("".join(entry % (n, n) for n in range(count)), encoding="utf-8")
        files.append((path, name))
    with LoadPool(TAXONOMY, workers=2) as pool:
        parsed = pool.parse(files)
        assert sent == ["d.bib", "b.bib", "c.bib", "a.bib"]  # now, before a result is asked for
        results = {n: (result, packed) for n, result, packed in parsed}
    assert [len(results[n][0].papers) for n in range(4)] == [1, 5, 2, 9]  # at their positions
    for result, packed in results.values():  # packed by the worker, for the file cache
        assert packed is not None
        assert unpack_file_result(packed) == result


def test_parse_results_come_as_the_workers_finish_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The load writes each to its cache while the others are parsed."""
    futures: list[Future[Any]] = []
    jobs: list[Any] = []

    class Pending:
        """Hands out futures the test finishes, in an order of its choosing."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def submit(self, function: Any, job: Any) -> Future[Any]:
            futures.append(Future())
            jobs.append((function, job))
            return futures[-1]

        def shutdown(self, *args: Any, **kwargs: Any) -> None:
            pass

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Pending)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    files = []
    for n in range(3):
        path = tmp_path / f"{n}.bib"
        path.write_text(f"@article{{k{n},\n  title = {{Paper {n}}},\n}}\n", encoding="utf-8")
        files.append((path, path.name))
    with LoadPool(TAXONOMY, workers=2) as pool:
        parsed = pool.parse(files)
        came = []
        for sent in (1, 2, 0):  # the futures in the order sent (all of one size: as listed)
            function, job = jobs[sent]
            futures[sent].set_result(function(job))
            position, result, _ = next(parsed)
            came.append((position, result.papers[0].title))
        assert list(parsed) == []
    assert came == [(1, "Paper 1"), (2, "Paper 2"), (0, "Paper 0")]


def test_workers_started_ahead_are_stopped_by_a_load_from_the_cache(tmp_path: Path) -> None:
    """A first start's workers start before its load knows the library is cached."""
    folder = _library_folder(tmp_path)
    cache = tmp_path / "cache"
    load_library([folder], TAXONOMY, cache_dir=cache)
    pool = LoadPool(TAXONOMY, workers=2)
    pool.start_workers()
    assert pool.started and pool._executor is not None
    assert len(pool._executor._processes) == 2
    again = load_library([folder], TAXONOMY, cache_dir=cache, pool=pool)
    assert again.from_cache
    assert pool._executor is None
