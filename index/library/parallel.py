"""A big load parses its files and tags its papers on every core.

Parsing files and tagging papers are independent per file and per paper, and together
they were two thirds of a first load (20,000 arXiv-style papers: 7.6 s parsing and 15 s
tagging of 35 s, on one core). `LoadPool` hands them to worker interpreters when there is
enough of it to pay for starting them (~0.3 s each, started once per load and only when
needed, or ahead by a caller that knows a big load is coming: `start_workers`); a small
load, a one-core machine or a platform where the workers cannot start runs everything in
this process as before, with the same results.

Why "spawn", not fork: the app loads in a worker thread, and forking a process that runs
threads can deadlock (Python 3.12+ warns); a spawned interpreter also holds only what it
is sent, not the caller's library. The workers' stdout and stderr go to /dev/null: they
share the app's terminal, and a stray warning would be drawn over its screen. Their
results (and any exception) come back pickled, so nothing of theirs needs printing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace as dataclass_replace
from multiprocessing import get_context
from pathlib import Path
from typing import TypeVar

from index.background import become_background
from index.facets.tagger import tag_paper
from index.facets.taxonomy import Taxonomy
from index.library.cache import Tags, pack_file_result, unpack_file_result
from index.library.loaders import FileResult, load_file
from index.models import Paper

__all__ = ["PARALLEL_MIN_BYTES", "PARALLEL_MIN_TAGS", "LoadPool", "cores", "file_bytes"]

# Fewer papers to tag than this are tagged here: ~0.75 ms each, so 2,000 is ~1.5 s, about
# what starting the workers and sending them the papers costs.
PARALLEL_MIN_TAGS = 2000
# Files to parse are sent out when they are at least two and hold this many bytes together
# (20,000 arXiv records are 47 MB and took 7.6 s to parse).
PARALLEL_MIN_BYTES = 4_000_000
# Papers per tagging task: small enough for honest progress and an even share per core.
TAG_CHUNK = 500
# No more workers than this, however many cores: each holds its share of the papers.
MAX_WORKERS = 8
# How much nicer than the caller a worker runs: on two cores, this process's dedupe and
# two workers' tagging share them, and dedupe is what the load waits for (see
# `_start_worker`; 5 gained about half of what 10 and 19 did).
WORKER_NICENESS = 10

T = TypeVar("T")
R = TypeVar("R")

_taxonomy: Taxonomy | None = None  # a worker's copy, set by `_start_worker`


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _start_worker(taxonomy: Taxonomy) -> None:
    """In a worker: keep the taxonomy, write nothing to the caller's terminal, yield to it.

    The workers tag while the caller merges duplicates, and the load ends when dedupe
    does: at equal priority, two workers and dedupe share two cores and dedupe gets about
    two thirds of one. Niced, the workers share one core between them and dedupe keeps
    the other (the workers' tagging still ends first), and an app reloading a library
    keeps its keystrokes ahead of them. Where the cores outnumber the work, nothing changes.
    """
    global _taxonomy
    _taxonomy = taxonomy
    become_background(WORKER_NICENESS)


def _labels(papers: list[Paper], taxonomy: Taxonomy) -> list[Tags]:
    """The labels `tag_paper` gives each paper (only they travel back from a worker).

    The module's own `tag_paper` and `load_file` are called, here and in `_parse_file`:
    tests count the calls a load makes in this process.
    """
    tagged = (tag_paper(paper, taxonomy) for paper in papers)
    return [(paper.topics, paper.hardware) for paper in tagged]


def _tag_chunk(papers: list[Paper]) -> list[Tags]:
    """In a worker: `_labels` with the taxonomy it was started with."""
    assert _taxonomy is not None, "the worker was started without a taxonomy"
    return _labels(papers, _taxonomy)


def _parse_file(job: tuple[Path, str]) -> FileResult:
    """One (path, shown) file's parse result, as `load_file` gives it (here)."""
    return load_file(*job)


def _parse_file_packed(job: tuple[Path, str]) -> bytes:
    """In a worker: `_parse_file`'s result packed for the file cache (`pack_file_result`):
    the caller unpacks it once and writes the same bytes."""
    return pack_file_result(_parse_file(job))


class LoadPool:
    """Worker interpreters for one load, started the first time a step is big enough.

    Use it as a context manager: leaving it stops the workers (and drops work not begun
    when the load failed or was abandoned).
    """

    def __init__(self, taxonomy: Taxonomy, workers: int | None = None) -> None:
        self._taxonomy = taxonomy
        self._workers = min(MAX_WORKERS, workers if workers is not None else cores())
        self._executor: ProcessPoolExecutor | None = None
        self._broken = self._workers < 2
        self._started = False

    def __enter__(self) -> LoadPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stops the workers, if started (work not begun is dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    @property
    def workers(self) -> int:
        """How many interpreters a parallel step uses (1: every step runs here)."""
        return 1 if self._broken else self._workers

    @property
    def started(self) -> bool:
        """Whether this load started its workers (a step was big enough)."""
        return self._started

    def start_workers(self) -> None:
        """Starts the worker interpreters now, not with the first step big enough: a
        caller that knows a big load is coming (`tui.cli.run_app` on a first start) has
        their start (~0.15 s) overlap its own. They are stopped with the pool, used or not.
        """
        executor = self._start()
        if executor is None:
            return
        try:  # the executor starts one worker for each task it has no idle worker for
            for _ in range(self._workers):
                executor.submit(os.getpid)
        except (BrokenProcessPool, OSError, RuntimeError):
            self._give_up()

    def tag(self, papers: Sequence[Paper]) -> Iterator[Tags]:
        """Each paper's labels (what `tag_paper` gives it), in order.

        Papers sent to the workers are sent now, not when the labels are first asked for.
        """
        chunks = [list(papers[i : i + TAG_CHUNK]) for i in range(0, len(papers), TAG_CHUNK)]
        results = self._map(_tag_chunk, self._tag_here, chunks, self.sends(len(papers)))
        return (tags for labels in results for tags in labels)

    def tag_ahead(self, papers: Sequence[Paper]) -> Iterator[Tags] | None:
        """Starts tagging `papers` in the workers now; None when they are too few for that.

        Iterating the result yields each paper's labels in order, waiting for them as
        needed: the caller does other work (dedupe) while the workers tag.
        """
        if not self.sends(len(papers)) or self._start() is None:
            return None
        return self.tag(papers)

    def parse(
        self, files: Sequence[tuple[Path, str]]
    ) -> Iterator[tuple[int, FileResult, bytes | None]]:
        """Each (path, shown) file's position and `load_file` result, as the workers
        finish them (in order when parsed here), so the caller's work on one (the load
        writes it to its cache) overlaps the parsing of the others; with the result as
        `pack_file_result` packs it when a worker parsed it (else None). The files are
        sent to the workers now, not when the first result is asked for.

        The biggest files are sent first, so that a big export listed after many small
        files does not start last and leave the other worker idle at the end. The real
        exports' folder (30 files, the biggest 3.5 MB, two workers): 3.09-3.24 s in folder
        order, 2.94-2.96 s biggest first.
        """
        jobs = list(files)
        sizes = [file_bytes(path) for path, _ in jobs]
        parallel = len(jobs) >= 2 and sum(sizes) >= PARALLEL_MIN_BYTES
        biggest_first = sorted(range(len(jobs)), key=lambda n: -sizes[n])
        futures = self._send(_parse_file_packed, jobs, biggest_first) if parallel else None
        return self._unpacked(self._results_as_done(futures, _parse_file, jobs))

    @staticmethod
    def _unpacked(
        results: Iterator[tuple[int, FileResult | bytes]],
    ) -> Iterator[tuple[int, FileResult, bytes | None]]:
        for n, result in results:
            if isinstance(result, bytes):
                yield n, unpack_file_result(result), result
            else:
                yield n, result, None

    def sends(self, papers: int) -> bool:
        """Whether tagging this many papers is worth sending to the workers."""
        return papers >= PARALLEL_MIN_TAGS and self.workers > 1

    def _tag_here(self, chunk: list[Paper]) -> list[Tags]:
        return _labels(chunk, self._taxonomy)

    def _map(
        self,
        remote: Callable[[T], R],
        here: Callable[[T], R],
        items: list[T],
        parallel: bool,
    ) -> Iterator[R]:
        """`here(item)` for each item in order, or `remote` in the workers when `parallel`.

        Every item is sent at once, now (not when the results are first asked for), and
        the results are yielded in the items' order as they come. When the workers cannot
        start or die, what they had not returned is done here.
        """
        futures = self._send(remote, items) if parallel else None
        return self._results(futures, here, items)

    def _send(
        self, remote: Callable[[T], R], items: list[T], order: Sequence[int] | None = None
    ) -> list[Future[R]] | None:
        executor = self._start()
        if executor is None:
            return None
        sent: dict[int, Future[R]] = {}
        try:
            for n in order if order is not None else range(len(items)):
                sent[n] = executor.submit(remote, items[n])
        except (BrokenProcessPool, OSError, RuntimeError):
            self._give_up()
            return None
        return [sent[n] for n in range(len(items))]

    def _results(
        self, futures: list[Future[R]] | None, here: Callable[[T], R], items: list[T]
    ) -> Iterator[R]:
        if futures is None:
            yield from map(here, items)
            return
        for item, future in zip(items, futures):
            if not self._broken:
                try:
                    yield future.result()
                    continue
                except (BrokenProcessPool, OSError, CancelledError):
                    self._give_up()
            yield here(item)

    def _results_as_done(
        self,
        futures: Sequence[Future[bytes]] | None,
        here: Callable[[T], FileResult],
        items: list[T],
    ) -> Iterator[tuple[int, FileResult | bytes]]:
        """`_results` in the order the workers finish, each with its item's position;
        `futures` were sent in any order (`_send`)."""
        if futures is None:
            yield from enumerate(map(here, items))
            return
        position = {future: n for n, future in enumerate(futures)}
        left = set(range(len(items)))
        try:
            for future in as_completed(futures):
                n = position[future]
                result = future.result()
                left.discard(n)
                yield n, result
        except (BrokenProcessPool, OSError, CancelledError):
            self._give_up()
        for n in sorted(left):
            yield n, here(items[n])

    def _start(self) -> ProcessPoolExecutor | None:
        if self._broken:
            return None
        if self._executor is None:
            try:
                self._executor = ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=get_context("spawn"),
                    initializer=_start_worker,
                    # A fresh copy: the original carries its compiled rules (index.facets.tagger).
                    initargs=(dataclass_replace(self._taxonomy),),
                )
            except (OSError, ValueError, ImportError):  # no semaphores, no interpreter
                self._broken = True
                return None
            self._started = True
        return self._executor

    def _give_up(self) -> None:
        """The workers failed: the rest of this load runs here."""
        self._broken = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def file_bytes(path: Path) -> int:
    """The file's size (0 if it cannot be read: its load will say why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0
