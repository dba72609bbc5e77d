"""The app's first start on a library with no index: it shows at once and reads the files.

A mixin for `PaperscopeApp`, as `tui.library_host` is for reloads. `tui.cli.run_app`
starts the app with `load_corpus` when no index can be served; the index worker
(`PaperscopeApp.build_index`) then reads the library here, its steps in the status line
(`IndexProgress` with a step). As soon as the files are read, their records show and
answer plain searches (`RecordsRead`, `index.library.first_rows`): the first page of any
library comes before merging, tagging and indexing. A big library's early sample
(`index.library.early_sample`) is indexed by a build process and answers the searches
the records cannot (filters, query syntax) while its duplicates are merged. Once loaded,
the library replaces the sample's papers for every copy: a key copied from the sample
waits for it (`as_loaded`), since merging can change a key. The load's problems are
listed in the app and printed by the command line after the app exits; a library with
no paper ends the app with exit code 2.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

from index.library.first_rows import ReadRecords
from index.models import Library, Paper
from tui.messages import IndexPreview, IndexProgress, RecordsRead
from tui.services.papers import PaperData
from tui.startup import collector_paused

if TYPE_CHECKING:
    from index.library.parallel import LoadPool
    from index.store.child import BuildProcess

__all__ = ["FirstStart", "LibraryLoaded"]

# How long a load waits for its early sample to reach the sample's build process.
SAMPLE_FEED_WAIT_S = 1.0
# The interpreter's thread switch while a handed-off app exits (`hold_load`): its shutdown
# gets the interpreter lock within half a millisecond of asking, not Python's 5 ms.
EXIT_SWITCH_S = 0.0005


@dataclass
class LibraryLoaded(Message):
    """The app's own load is done (posted, never waited for: the user may have quit)."""

    library: Library


class FirstStart:
    """The app's half of a first start that reads the library (see the module docstring)."""

    def init_first_start(self, load_corpus: bool, load_pool: LoadPool | None = None) -> None:
        """`load_corpus`: the app reads its `corpus` itself (neither library nor engine);
        `load_pool`: that load's worker interpreters, started ahead."""
        self.load_corpus = load_corpus
        self.load_pool = load_pool
        # Set once the papers served are the loaded library's (or the load is over).
        self.library_loaded = threading.Event()
        if not load_corpus:
            self.library_loaded.set()
        # What the load found, for the command line: its problems, or no paper at all.
        self.loaded_library: Library | None = None
        self.load_error: str | None = None
        self.sampling: threading.Thread | None = None  # indexes the early sample
        # The user quit before the index was built: a process of its own finishes the
        # start (`hand_off`), and this one exits without waiting (tui.cli.run_app).
        self.handed_off = False
        # Every paper of the build under way is in its writer (its progress said so): a
        # build process is then left to finish alone at no cost (`leave_first_start`).
        self.papers_in_writer = False
        # Cleared while a handed-off app exits: its load waits at its next step (`hold_load`).
        self.load_running = threading.Event()
        self.load_running.set()
        self._switch_interval = sys.getswitchinterval()
        # The command line ends the process right after a handed-off app (tui.cli.run_app):
        # its held load is never let go, not even while the terminal is given back.
        self.process_ends_after_hand_off = False

    def read_library(self) -> Library | None:
        """In the index worker: read the library, its progress in the status line and its
        early sample served meanwhile (`index.library.early_sample`: `sampling` indexes
        it, waiting on a build process while dedupe runs here). Returns the library, or
        None when it has no paper (the app exits, saying so).
        """
        from index import load_library, open_sample_engine, start_sample_build

        app: Any = self
        # The sample's build process, started while the files are read (at most one).
        started: list[BuildProcess] = []

        def progress(step: str, done: int, total: int) -> None:
            self.load_running.wait()  # held once the start is handed off (`hold_load`)
            app.main_screen.post_message(IndexProgress(done, total, step))

        def read(records: ReadRecords) -> None:  # the first page, before dedupe
            self.load_running.wait()
            app.main_screen.post_message(RecordsRead(records))

        def ahead() -> None:
            process = start_sample_build()
            if process is not None:
                started.append(process)

        def serve(papers: list[Paper], process: BuildProcess | None) -> None:
            try:
                engine = open_sample_engine(
                    app.corpus, papers, app.taxonomy, app.settings.cache_dir, process
                )
            finally:
                if process is not None:  # not given the build (no folder for the index)
                    process.close()
            if engine is not None:
                app.post_message(IndexPreview(engine))

        def sample(papers: list[Paper]) -> None:
            process = started.pop() if started else None
            self.sampling = threading.Thread(
                target=serve, args=(papers, process), name="paperscope-sample", daemon=True
            )
            self.sampling.start()
            if process is not None:
                # The load's next step (sending every paper to be tagged) holds this
                # process for ~0.4 s: the sample's papers go to its build first.
                process.encoded.wait(SAMPLE_FEED_WAIT_S)

        try:
            with collector_paused():  # a first load makes millions of objects (tui.startup)
                library = load_library(
                    app.corpus,
                    app.taxonomy,
                    cache_dir=app.settings.cache_dir / "library",
                    progress=progress,
                    sample=sample,
                    sample_ahead=ahead,
                    pool=self.load_pool,
                    read=read,
                )
        finally:
            for process in started:  # started for a sample that did not come
                process.close()
        self.loaded_library = library  # the command line prints its problems after the app
        # Posted, not called: after the user quit, a call from this thread would wait for
        # an event loop that is gone, and the index they were told is finished never would be.
        app.post_message(LibraryLoaded(library))
        return library if library.papers else None

    def leave_first_start(self) -> bool:
        """The user quits before the index is built: returns whether the start goes on
        without this process, so that the app exits at once (False only when no process
        could be started: the app then finishes the start itself, saying so).

        A build process that has every paper is left to finish and publish alone
        (`LeaveBuilds`). One still being fed is not: leaving it would encode and spool the
        papers not yet sent here, in the exiting app (3-5 s from `q` to the prompt at
        20,000 papers, more at 100,000). The start is handed to a process of its own
        instead (`hand_off`): this one exits, its build process sees its input end and
        stops without publishing, and the finisher builds from the library cache (the
        whole merged library by then) once the build lock is free.
        """
        app: Any = self
        if self.papers_in_writer and app.leave_builds.leave():
            return True
        return self.hand_off() or bool(app.leave_builds.leave())

    def hand_off(self) -> bool:
        """The user quits during a first start that is not yet in a build process of its
        own: hand the start to one (`index.store.finish_alone`: it reads the files this
        load parsed from the library cache, builds under the build lock and publishes);
        whether it was handed (once however often the user quits)."""
        app: Any = self
        if not self.handed_off and self.load_corpus:
            from index.store.finish_alone import finish_alone

            self.hold_load()  # first: starting the finisher is then quick too
            started = finish_alone(app.corpus, app.taxonomy, app.settings.cache_dir)
            self.handed_off = started is not None
            if not self.handed_off:
                self.release_load()  # the app finishes the start itself, as it says
        return self.handed_off

    def hold_load(self) -> None:
        """The load is no longer wanted (the start was handed off): it waits at its next
        step, and a merge under way at its next few texts (`pause_merging`), holding
        nothing, so the app's shutdown has the interpreter to itself.

        Running, the load held the interpreter lock against the shutdown for every one
        of its switches: `q` took 0.75-1.0 s to the prompt while 20,000 papers merged,
        1.67 s once at 6,315. The held thread never runs again in the command (tui.cli.run_app
        ends the process); an app run otherwise (tests) lets it go at unmount
        (`release_load`).
        """
        from index.library.dedupe import pause_merging

        self.load_running.clear()
        pause_merging()
        sys.setswitchinterval(EXIT_SWITCH_S)

    def release_load(self) -> None:
        """Undo `hold_load`: the load goes on (the app is gone, or finishes the start),
        unless the process ends with the app (`process_ends_after_hand_off`)."""
        from index.library.dedupe import resume_merging

        if self.handed_off and self.process_ends_after_hand_off:
            return
        sys.setswitchinterval(self._switch_interval)
        resume_merging()
        self.load_running.set()

    def on_library_loaded(self, message: LibraryLoaded) -> None:
        """The load is done: serve its papers, say what was wrong in its files; copies
        waiting for it go on (`as_loaded`)."""
        app: Any = self
        library = message.library
        if not library.papers:
            self.library_loaded.set()
            corpus: Sequence[object] = app.corpus or ()
            where = ", ".join(map(str, corpus)) if corpus else "the bundled corpus"
            self.load_error = f"no papers could be loaded from {where}"
            app.index_finished.set()  # nothing will be built: no "finishing the index"
            app.exit(return_code=2)
            return
        app.library = library
        before = app.papers
        app.papers = PaperData(app.taxonomy, library, lambda: app.engine)
        app.papers.extras, app.papers.records = before.extras, before.records
        self.library_loaded.set()
        if not app.index_finished.is_set():  # merged and tagged: shown so while indexed
            app.main_screen.post_message(RecordsRead(ReadRecords.of_library(library.papers)))
        app.notify_load_problems()

    def as_loaded(self, papers: list[Paper], what: str) -> list[Paper]:
        """In a copy worker: `papers` as the loaded library has them, waiting for it while
        they come from the early sample (its keys may change when duplicates merge).

        `what` is the copy as the notices name it ("APA 7 citation of smith2020").
        """
        app: Any = self
        if self.library_loaded.is_set():
            return papers
        app.call_from_thread(
            app.notify, f"Copying the {what} once the library is read…", title="Copy"
        )
        self.library_loaded.wait()
        loaded = app.papers.as_loaded(papers)
        if not loaded:
            app.call_from_thread(
                app.notify,
                f"Nothing copied ({what}): the paper is not in the loaded library",
                title="Copy",
            )
        return loaded
