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
            app.main_screen.post_message(IndexProgress(done, total, step))

        def read(records: ReadRecords) -> None:  # the first page, before dedupe
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

    def hand_off(self) -> bool:
        """The user quits during a first start that is not yet in a build process of its
        own: hand the start to one (`index.store.finish_alone`: it reads the files this
        load parsed from the library cache, builds under the build lock and publishes);
        whether it was handed (once however often the user quits)."""
        app: Any = self
        if not self.handed_off and self.load_corpus:
            from index.store.finish_alone import finish_alone

            started = finish_alone(app.corpus, app.taxonomy, app.settings.cache_dir)
            self.handed_off = started is not None
        return self.handed_off

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
