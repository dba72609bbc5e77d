"""What the app does while its search index opens or is built, and when a worker fails.

A mixin for `PaperscopeApp`, beside `first_start` (which reads the library on a first
start) and `library_host` (which reloads it). `build_index` opens the index in a thread
worker of the `index` group, or builds it on a first run; a big library's early sample
and lean index are served meanwhile (`IndexPreview`), then the full one (`IndexReady`),
each forwarded to the main screen. A failed worker of any group is said to the user here,
and a failed build tells the main screen no index will come (`IndexFailed`).
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.worker import Worker, WorkerState

from index.models import Library
from tui.messages import IndexFailed, IndexPreview, IndexProgress, IndexReady
from tui.startup import freeze_long_lived

__all__ = ["IndexHost"]


class IndexHost:
    """The app's half of opening the index (see the module docstring)."""

    @work(
        thread=True,
        exclusive=True,
        group="index",
        exit_on_error=False,
        description="Building the search index",
    )
    def build_index(self) -> None:
        """Open (or build, on first run) the index without freezing the UI; on a first
        start with no index, read the library first (tui.first_start)."""
        from index import open_engine
        from index.store.leaving import BuildDetached

        app: Any = self
        app.index_finished.clear()
        app.papers_in_writer = False  # this build's, from its first paper
        try:
            library = app.library
            if app.load_corpus:
                try:
                    library = app.read_library()
                except BaseException:
                    app.library_loaded.set()  # no library will come: waiting copies go on
                    raise
                if library is None:
                    return
            step = max(1, len(library.papers) // 100) if library else 1
            posted = [-step]

            def progress(done: int, total: int) -> None:
                # Leaving costs nothing once the build process has every paper; it keeps
                # them for the full build after a lean index's (whose count starts again).
                app.papers_in_writer = app.papers_in_writer or 0 < total <= done
                # At most ~100 messages however large the library: the UI only shows a count.
                # A count that goes back is the full build after the lean index's.
                if done == total or done < posted[0] or done - posted[0] >= step:
                    posted[0] = done
                    app.main_screen.post_message(IndexProgress(done, total))

            def preview(engine: Any) -> None:  # a big library's lean index (index.store.lean)
                if app.sampling is not None:  # the early sample's engine is handed over first
                    app.sampling.join()
                app.post_message(IndexPreview(engine))

            try:
                engine = open_engine(
                    library or Library(papers=()),
                    app.taxonomy,
                    app.settings.cache_dir,
                    progress=progress,
                    preview=preview,
                    leave=app.leave_builds,
                )
            except BuildDetached:  # the user quit: the build process finishes it alone
                return
        finally:
            if app.sampling is not None:  # its engine is handed over before the full one
                app.sampling.join()
            app.index_finished.set()
        freeze_long_lived()
        app.post_message(IndexReady(engine))

    # Named handlers, not `@on`: Textual collects `@on` only from its own classes, and this
    # is a plain mixin.
    def on_index_preview(self, message: IndexPreview) -> None:
        """Search the early sample, then the lean index, until the full index is ready
        (index.store.preview, index.store.lean)."""
        app: Any = self
        self._drop_preview()  # the early sample's, when the lean index replaces it
        app.engine = message.engine
        app.previewing = True
        app.main_screen.post_message(IndexPreview(message.engine))

    def on_index_ready(self, message: IndexReady) -> None:
        """Keep the engine, then tell the main screen it can search."""
        app: Any = self
        self._drop_preview()
        app.engine = message.engine
        app.main_screen.post_message(IndexReady(message.engine))
        app._library_ready()

    def _drop_preview(self) -> None:
        """Stop serving a sample's engine; it is closed once no search can run on it."""
        app: Any = self
        if app.previewing and app.engine is not None:
            app.retire(app.engine)
            app.engine = None
        app.previewing = False

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.report_worker_state(event.worker)

    def report_worker_state(self, worker: Worker[Any]) -> None:
        """The one place a failed worker becomes a message for the user."""
        app: Any = self
        if worker.state == WorkerState.ERROR:
            message = f"{worker.description} failed: {worker.error}"
            app.notify(message, title="Error", severity="error", markup=False, timeout=10)
            if worker.group == "index":
                self._drop_preview()  # no full index will come
                app.main_screen.post_message(IndexFailed(message))
