"""What the app does with the text inside the papers: reads their PDFs once it can search.

A mixin for `PaperscopeApp`, beside `library_host` (which reads the library itself). Once
the library is searchable (the index opened, or a first start's build done) and again
after each reload, a worker in the `fulltext` group reads every paper's attached PDFs
(tui.services.fulltext, in niced processes) and makes the searchable full text follow
them a batch at a time, each batch's sync in a niced child process too (its thread only
waits: writing a large sync's postings would otherwise hold the GIL against the UI). The status line says how far it is (`Reading PDFs 120 of 1,800`)
and goes quiet at the end; a file that gives no text is one line in "Load problems".
Quitting cancels the worker, whose reads and sync stop at once; what was read is kept,
and the page index is the one before the sync or after it.

`fulltext = false` in the config turns all of this off.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message
from textual.worker import get_current_worker

from index.models import LoadWarning

if TYPE_CHECKING:  # imported when the reading starts: the app's start pays nothing for it
    from tui.services.fulltext import FulltextReading, ReadSummary

__all__ = ["FulltextDone", "FulltextHost", "FulltextProgress", "FulltextSynced"]

# Seconds between two progress messages (a file is read every few ms once stored).
PROGRESS_EVERY = 0.25


@dataclass
class FulltextProgress(Message, bubble=False):
    """`done` of `total` attachments read from their PDFs so far; `total` 0: reading is over.
    `indexing`: what was read is being made searchable (a sync runs)."""

    done: int
    total: int
    indexing: bool = False


@dataclass
class FulltextSynced(Message, bubble=False):
    """The searchable full text changed (a batch of PDFs read): searches should run again."""


@dataclass
class FulltextDone(Message):
    """A reading run ended (not cancelled): its summary, for the problems' notice."""

    summary: ReadSummary


class FulltextHost:
    """The app's half of reading the attachments (see the module docstring)."""

    # Extraction processes (None: one per core). Tests set 0: read, and sync the page
    # index, in the worker's thread (else the sync runs in a child process).
    fulltext_workers: int | None = None
    # Seconds from "searchable" to the reading's start: the first rows are drawn and the
    # first keys typed before the workers start (two interpreters: the cores for a moment)
    # or a start on the index alone decodes its papers (once per index).
    fulltext_delay: float = 1.0
    _fulltext: FulltextReading | None = None
    # The problems the last notice was about: a run that finds no new one says nothing.
    _fulltext_told: tuple[LoadWarning, ...] = ()

    @property
    def fulltext_problems(self) -> tuple[LoadWarning, ...]:
        """The attachments that gave no text, for "Load problems"."""
        return self._fulltext.problems if self._fulltext is not None else ()

    def start_fulltext(self) -> None:
        """Read the library's PDFs in the background (after the index opened, or a reload)."""
        app: Any = self
        if not app.config.fulltext:
            return
        if self._fulltext is None:
            from tui.services.fulltext import (
                FulltextReading,
                sync_in_background,
                sync_searchable,
            )

            # The page index is written in a niced child (the UI keeps the GIL); with no
            # extraction processes (tests) in this thread, as the reading.
            self._fulltext = FulltextReading(
                Path(app.settings.cache_dir),
                workers=self.fulltext_workers,
                sync=sync_searchable if self.fulltext_workers == 0 else sync_in_background,
            )
        self.read_attachments()

    @work(
        thread=True,
        exclusive=True,
        group="fulltext",
        exit_on_error=False,
        description="Reading the attached PDFs",
    )
    def read_attachments(self) -> None:
        """Read what is new since the last run; a reload's run cancels the one before."""
        from tui.services.fulltext_papers import attached_papers

        app: Any = self
        reading = self._fulltext
        worker = get_current_worker()
        cache_dir = Path(app.settings.cache_dir)
        library = app.library.papers if app.library is not None and app.library.papers else None
        if library is not None:  # recorded for the next start on this index (cheap)
            attached_papers(app.engine, cache_dir, app._papers, library)
        deadline = time.monotonic() + self.fulltext_delay
        while time.monotonic() < deadline and not worker.is_cancelled:
            time.sleep(0.05)
        # A start on the index alone: those with PDFs, recorded, else decoded (once).
        papers = library or attached_papers(app.engine, cache_dir, app._papers)
        if reading is None or worker.is_cancelled:
            return
        shown = [0.0]
        counts = [0, 0]  # the last progress: what an indexing status counts

        def progress(done: int, total: int) -> None:
            counts[:] = [done, total]
            now = time.monotonic()
            if done == 0 or done == total or now - shown[0] >= PROGRESS_EVERY:
                shown[0] = now
                app.main_screen.post_message(FulltextProgress(done, total))

        def indexing(busy: bool) -> None:
            if counts[1]:  # a sync with nothing read this run says nothing
                app.main_screen.post_message(FulltextProgress(counts[0], counts[1], indexing=busy))

        def cancelled() -> bool:
            return worker.is_cancelled

        def synced() -> None:
            app.main_screen.post_message(FulltextSynced())

        try:
            summary = reading.run(papers, progress, cancelled, synced, indexing)
        finally:
            app.main_screen.post_message(FulltextProgress(0, 0))
        if not summary.cancelled:
            app.post_message(FulltextDone(summary))

    def on_fulltext_done(self, message: FulltextDone) -> None:
        """New problems with the attachments are said once, like the library's at start."""
        app: Any = self
        problems = self.fulltext_problems
        if problems and set(problems) - set(self._fulltext_told):
            count = len(problems)
            app.notify(
                f"{count} attached file{'s' * (count != 1)} gave no text: ctrl+p, "
                '"Load problems" lists them',
                title="Full text",
                severity="warning",
                timeout=8,
            )
        self._fulltext_told = problems
