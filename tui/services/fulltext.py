"""Reading the library's attached PDFs in the background, run after run, for the app and the CLI.

The text of a PDF is worth searching only once the library itself is: this runs after the
index is open, never on the event loop (the app runs it in a named worker, the CLI in its
own thread), and hands what it reads to the searchable full text in batches, so results
come as the reading goes on. The extraction itself is `index.fulltext` (niced worker
processes, each file stored as it is read): a quit half-way keeps every file read.

A `FulltextReading` lives as long as the app: it remembers which attachments it handled
(path and stat), so a reload reads only a new or changed PDF and forgets a removed one,
and it keeps one problem line per file that gave no text (encrypted, damaged, empty, a
web page or a pipe named `.pdf`, a scan without a text layer), listed with the library's
load problems. A missing file is no problem here: the detail already marks it missing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from index.models import LoadWarning, PageMatch, Paper

if TYPE_CHECKING:
    from index.fulltext.pool import Job

__all__ = [
    "BATCH_FILES",
    "BATCH_SECONDS",
    "FulltextReading",
    "ReadSummary",
    "attachment_jobs",
    "described",
    "page_of",
    "problem_line",
    "sync_in_background",
    "sync_searchable",
]

# The searchable text follows the store after this many files read, or this many seconds,
# whichever comes first (a sync commits an index: not after every file).
BATCH_FILES = 50
BATCH_SECONDS = 10.0

Progress = Callable[[int, int], None]
Sync = Callable[[Path, Sequence[Paper], Callable[[], bool]], bool]
Stamp = tuple[int, int, int]


def sync_searchable(
    cache_dir: Path, papers: Sequence[Paper], cancelled: Callable[[], bool]
) -> bool:
    """Make the searchable full text that of `papers`' attachments as stored; True if it
    changed. `papers` is every paper of the library, those without PDFs too: the sync
    drops the pages of what the papers given no longer have."""
    from index.fulltext import sync_fulltext

    return bool(sync_fulltext(cache_dir, papers, cancelled=cancelled).changed)


def sync_in_background(
    cache_dir: Path, papers: Sequence[Paper], cancelled: Callable[[], bool]
) -> bool:
    """`sync_searchable` in a niced child process (index.fulltext.sync_child), for the app:
    writing a large sync's postings is minutes of Python that would hold the GIL against
    the UI. This thread only waits; `cancelled()` ends the child at once."""
    from index.fulltext.sync_child import sync_in_child

    return bool(sync_in_child(cache_dir, papers, cancelled=cancelled).changed)


def page_of(match: PageMatch | None) -> tuple[str, int | None] | None:
    """A search's match in an attachment's text as (the file, its 1-based page or None for
    unpaged text); None for no match."""
    if match is None:
        return None
    page = match.page
    return match.path, page if page is not None and page > 0 else None


def _is_zotero(paper: Paper, path: str) -> bool:
    """Whether Zotero may have cached the file's text beside it (`storage/<KEY>/`)."""
    if any(source.path.lower().endswith(".sqlite") for source in paper.sources):
        return True
    return Path(path).parent.parent.name == "storage"


def attachment_jobs(papers: Iterable[Paper]) -> dict[str, Job]:
    """Every PDF attached to `papers`, once each (a file two papers share is read once).

    Only files named `.pdf`: a Zotero web snapshot (`.html`) is no PDF that failed.
    """
    from index.fulltext.pool import Job

    jobs: dict[str, Job] = {}
    for paper in papers:
        for path in paper.attachments:
            if not path.lower().endswith(".pdf"):
                continue
            zotero = _is_zotero(paper, path)
            known = jobs.get(path)
            if known is None or (zotero and not known.zotero):
                jobs[path] = Job(path, zotero=zotero)
    return jobs


def problem_line(path: str, problem: str | None, truncated: bool = False) -> LoadWarning | None:
    """What "Load problems" says of an attachment that gave no (or only part of its) text."""
    if problem is not None:
        return LoadWarning(path, f"attachment {problem}; its text is not searchable")
    if truncated:
        from index.fulltext.extract import MAX_PAGES

        return LoadWarning(
            path, f"attachment is very long: only its first {MAX_PAGES:,} pages are searchable"
        )
    return None


def _stamp(path: str) -> Stamp | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino


@dataclass(frozen=True)
class ReadSummary:
    """What one run did: files read now, files already stored, problems, whether it stopped."""

    read: int = 0
    stored: int = 0
    problems: int = 0  # files of the library that gave no text (or only part of it)
    pages: int = 0  # pages with text in the files of this run
    synced: bool = False
    cancelled: bool = False


class FulltextReading:
    """The app's (or a command's) reading of its library's attachments; see the module docstring.

    Args:
        cache_dir: the cache folder (the texts go under `<cache_dir>/fulltext/`).
        workers: extraction processes (None: one per core; 0: in this process, for tests).
        sync: makes the searchable text follow the store (`sync_searchable`).
    """

    def __init__(
        self, cache_dir: Path, *, workers: int | None = None, sync: Sync = sync_searchable
    ) -> None:
        self.cache_dir = Path(cache_dir)
        self.workers = workers
        self.sync = sync
        self.batch_files = BATCH_FILES
        self.batch_seconds = BATCH_SECONDS
        # Path -> its stat when it was handled (read, or found stored): not read again.
        self._handled: dict[str, Stamp] = {}
        self._problems: dict[str, LoadWarning] = {}
        self._shown: tuple[LoadWarning, ...] = ()
        # One run at a time: a run superseded by a reload stops, and the next waits for it.
        self._lock = threading.Lock()
        self._synced: Callable[[], None] = lambda: None
        self._indexing: Callable[[bool], None] = lambda busy: None

    @property
    def problems(self) -> tuple[LoadWarning, ...]:
        """One line per attachment that gave no text, in the order they were found (a
        snapshot: the UI thread reads it while a run changes the problems)."""
        return self._shown

    def run(
        self,
        papers: Sequence[Paper],
        progress: Progress | None = None,
        cancelled: Callable[[], bool] = lambda: False,
        synced: Callable[[], None] = lambda: None,
        indexing: Callable[[bool], None] = lambda busy: None,
    ) -> ReadSummary:
        """Read the attachments of `papers` not handled yet, then sync; blocks (a thread's work).

        `papers` is the whole library (what the searchable text is made to follow).
        `progress(done, total)` counts the files read from PDFs in this run, never those
        already stored; it is not called when there is nothing to read. `synced()` is
        called after each sync that changed the searchable text; `indexing(True)` before each
        sync and `indexing(False)` after it (the status says so: a large batch takes a
        while to index after its files were all read).
        """
        with self._lock:
            self._synced = synced
            self._indexing = indexing
            return self._run(papers, progress or (lambda done, total: None), cancelled)

    def _note(self, path: str, line: LoadWarning | None) -> None:
        """Remember `path` as handled, with its problem (or none any more)."""
        stamp = _stamp(path)
        if stamp is not None:
            self._handled[path] = stamp
        if line is None:
            self._problems.pop(path, None)
        else:
            self._problems[path] = line
        self._shown = tuple(self._problems.values())

    def _note_sync(self, line: LoadWarning | None) -> None:
        """The last sync's failure (or none any more) among the problems."""
        where = str(Path(self.cache_dir) / "fulltext")
        if line is None:
            if self._problems.pop(where, None) is not None:
                self._shown = tuple(self._problems.values())
        else:
            self._problems[where] = line
            self._shown = tuple(self._problems.values())

    def _sync(self, papers: Sequence[Paper], cancelled: Callable[[], bool]) -> bool:
        if cancelled():
            return False
        from index.fulltext.sync_child import SyncFailed

        where = str(Path(self.cache_dir) / "fulltext")
        self._indexing(True)
        try:
            changed = self.sync(self.cache_dir, papers, cancelled)
        except (SyncFailed, OSError) as error:
            # One line in Load problems; what was read stays stored, synced at the next run.
            self._note_sync(LoadWarning(where, f"{error}; the PDFs read are not searchable yet"))
            return False
        finally:
            self._indexing(False)
        self._note_sync(None)
        if changed and not cancelled():
            self._synced()
        return changed

    def _run(
        self, papers: Sequence[Paper], progress: Progress, cancelled: Callable[[], bool]
    ) -> ReadSummary:
        jobs = attachment_jobs(papers)
        if not jobs and not self._handled:
            # No PDF now nor in this session: nothing to read or to take out of the search
            # (the bundled corpus, and most libraries without attachments).
            return ReadSummary(cancelled=cancelled())
        for gone in [path for path in self._handled if path not in jobs]:
            del self._handled[gone]  # detached: forgotten (and out of the search at the sync)
        for gone in [path for path in self._problems if path not in jobs]:
            del self._problems[gone]
        todo: list[Job] = []
        for path, job in jobs.items():
            stamp = _stamp(path)
            if stamp is None:  # missing: the detail says so; looked for again next run
                self._problems.pop(path, None)
                self._handled.pop(path, None)
            elif self._handled.get(path) != stamp:
                todo.append(job)
        self._shown = tuple(self._problems.values())
        if not todo:
            synced = self._sync(papers, cancelled)
            return ReadSummary(problems=len(self._problems), synced=synced, cancelled=cancelled())
        from index.fulltext.extract import _precheck
        from index.fulltext.pool import ExtractionPool

        pool = ExtractionPool(self.cache_dir, self.workers)
        # A file that is no PDF at all (empty, a pipe, a web page) is said at once, without
        # a worker: it is not stored (it may be fixed), so it would count as read each run.
        for job in list(todo):
            problem = None if pool.store.known_digest(Path(job.path)) else _precheck(Path(job.path))
            if problem is not None:
                todo.remove(job)
                self._note(job.path, problem_line(job.path, problem))
        if not todo:
            return ReadSummary(problems=len(self._problems), synced=self._sync(papers, cancelled))
        counts = {"read": 0, "stored": 0, "pages": 0}
        base: list[int] = []  # files found stored, known at the pool's first progress call
        last_sync, since_sync, synced = time.monotonic(), 0, False

        def counted(done: int, total: int) -> None:
            if not base:
                base.append(done)
            if total > base[0]:
                progress(done - base[0], total - base[0])

        for job, _, extracted in pool.read(todo, progress=counted, cancelled=cancelled):
            self._note(job.path, problem_line(job.path, extracted.problem, extracted.truncated))
            counts["pages"] += sum(1 for page in extracted.pages if page)
            if base:  # the pool reports its first progress once the stored ones are given
                counts["read"] += 1
                since_sync += 1
            else:
                counts["stored"] += 1
            if since_sync and (
                since_sync >= self.batch_files or time.monotonic() - last_sync >= self.batch_seconds
            ):
                pool.store.save_files()  # the sync finds files by the digests recorded
                synced |= self._sync(papers, cancelled)
                last_sync, since_sync = time.monotonic(), 0
        if since_sync or not base:  # read since the last sync, or all found stored
            synced |= self._sync(papers, cancelled)
        return ReadSummary(
            read=counts["read"],
            stored=counts["stored"],
            problems=len(self._problems),
            pages=counts["pages"],
            synced=synced,
            cancelled=cancelled(),
        )


def described(summary: ReadSummary) -> str:
    """One line for the end of a run: "3 PDFs read now, 12 before (340 pages of text)"."""
    line = (
        f"{summary.read:,} PDF{'s' * (summary.read != 1)} read now, {summary.stored:,} before "
        f"({summary.pages:,} pages of text)"
    )
    if summary.problems:
        line += f"; {summary.problems:,} with a problem"
    return line
