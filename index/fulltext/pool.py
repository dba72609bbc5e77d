"""Reading many attachments in worker processes at low priority, each result kept at once.

Extraction is the slow part (pdfium parses every page), independent per file, and should
never be in the way: it runs after the library is searchable, in spawned interpreters (the
app runs threads, so no fork; see `index.library.parallel`) niced below the app, with
their output sent to /dev/null so nothing is drawn over the app's screen. Each worker
stores what it read before it answers (`FulltextStore.put`), so a run stopped half-way
(the user quits) keeps every file read so far, and the next run reads only the rest.
A file whose text is stored under its digest is not sent to a worker at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from index.background import become_background
from index.fulltext.extract import Extracted, _precheck, extract_pdf
from index.fulltext.store import FulltextStore, file_digest
from index.fulltext.zotero_cache import zotero_text

__all__ = ["WORKER_NICENESS", "ExtractionPool", "Job", "read_one"]

# As the load's workers (index.library.parallel): the app's keystrokes come first.
WORKER_NICENESS = 10
# Seconds between looks at `cancelled()` while the workers read: a quit never waits for a
# 200-page PDF to finish.
CANCEL_POLL = 0.2

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Job:
    """One attachment to read; `zotero`: look for Zotero's text cache beside it first."""

    path: str
    zotero: bool = False


def read_one(job: Job, cache_dir: str) -> tuple[Job, str | None, Extracted]:
    """Reads one attachment (in a worker or here) and stores its text by digest.

    A file that cannot be opened as a PDF at all (missing, a FIFO, empty, too large, not a
    PDF) is not stored: it may be fixed, and checking it again is cheap. Returns the job,
    the file's digest (None when not read) and what was read.
    """
    path = Path(job.path)
    problem = _precheck(path)
    if problem is not None:
        return job, None, Extracted(problem=problem)
    store = FulltextStore(Path(cache_dir))
    try:
        digest = file_digest(path)
    except OSError as error:
        return job, None, Extracted(problem=f"cannot be read: {error.strerror or error}")
    stored = store.get(digest)
    if stored is not None:
        return job, digest, stored
    extracted = (zotero_text(path) if job.zotero else None) or extract_pdf(path)
    try:
        store.put(digest, extracted)
    except OSError:
        pass  # a full or read-only cache: the text is still returned, read again next time
    return job, digest, extracted


def _start_worker() -> None:
    """In a worker: yield to the app, and write nothing to its terminal."""
    become_background(WORKER_NICENESS)


class ExtractionPool:
    """Reads attachments' text on `workers` processes (0: in this process, for tests)."""

    def __init__(self, cache_dir: Path, workers: int | None = None) -> None:
        self.cache_dir = Path(cache_dir)
        self.store = FulltextStore(self.cache_dir)
        self.workers = max(1, (os.cpu_count() or 1)) if workers is None else workers

    def cached(self, job: Job) -> tuple[str, Extracted] | None:
        """The stored text of an unchanged file already read, without reading the file."""
        digest = self.store.known_digest(Path(job.path))
        if digest is None:
            return None
        stored = self.store.get(digest)
        return None if stored is None else (digest, stored)

    def read(
        self,
        jobs: Iterable[Job],
        progress: Progress | None = None,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> Iterator[tuple[Job, str | None, Extracted]]:
        """Each job's result as it is ready (stored ones first); stops when `cancelled()`.

        `progress(done, total)` counts every job, stored or read. A worker that dies is
        no error for the caller: the rest is read in this process.
        """
        todo: list[Job] = []
        jobs = list(jobs)
        done = 0
        for job in jobs:
            hit = self.cached(job)
            if hit is None:
                todo.append(job)
                continue
            done += 1
            yield job, hit[0], hit[1]
        if progress is not None:
            progress(done, len(jobs))
        try:
            for job, digest, extracted in self._read_all(todo, cancelled):
                if digest is not None:
                    self.store.digest_known(Path(job.path), digest)
                done += 1
                if progress is not None:
                    progress(done, len(jobs))
                yield job, digest, extracted
        finally:  # also when the caller stops early: what was read is known next time
            self.store.save_files()

    def _read_all(
        self, jobs: list[Job], cancelled: Callable[[], bool]
    ) -> Iterator[tuple[Job, str | None, Extracted]]:
        cache = str(self.cache_dir)
        if self.workers == 0 or len(jobs) <= 1:
            for job in jobs:
                if cancelled():
                    return
                yield read_one(job, cache)
            return
        left = list(jobs)
        try:
            executor = ProcessPoolExecutor(
                max_workers=min(self.workers, len(jobs)),
                mp_context=get_context("spawn"),
                initializer=_start_worker,
            )
        except (OSError, ValueError, ImportError):  # no semaphores, no interpreter
            executor = None
        if executor is not None:
            try:
                futures: dict[Future[tuple[Job, str | None, Extracted]], Job] = {
                    executor.submit(read_one, job, cache): job for job in jobs
                }
                pending = set(futures)
                while pending:
                    finished, pending = wait(pending, CANCEL_POLL, FIRST_COMPLETED)
                    for future in finished:
                        if cancelled():
                            return
                        result = future.result()
                        left.remove(futures[future])
                        yield result
                    if cancelled():
                        return
            except (BrokenProcessPool, OSError, CancelledError):
                pass
            finally:
                if cancelled():
                    _stop_now(executor)
                executor.shutdown(wait=False, cancel_futures=True)
        for job in left:
            if cancelled():
                return
            yield read_one(job, cache)


def _stop_now(executor: ProcessPoolExecutor) -> None:
    """End the workers' reads at once (the user quit): each file is stored atomically when
    read, so a read cut short leaves nothing behind, and it is read again next time.

    `shutdown(cancel_futures=True)` only drops the files not started; the executor has no
    public call that ends a running one, so its processes are terminated by hand.
    """
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            process.terminate()
        except (OSError, AttributeError):
            pass
