"""What the app holds for a living library: the user's layer, and reloading changed sources.

A mixin for `PaperscopeApp`, kept out of `app.py` so that file stays the wiring. It owns

* the user's tags and statuses (`annotations`), saved searches and the notes folder, and
  hands them to the engine as a `UserLayer` (in a worker: at 100,000 papers building it
  is not free) whenever they change;
* the watch threads: every `watch_interval` seconds one stats the user's own files (tags
  and statuses, saved searches, marks, history: another app or a `paperscope tag` may
  change them); a changed one is read again on the UI thread (`UserDataChanged`) and the
  results, facets and marks follow it, cursor and view kept. The other stats the
  library's inputs (tui.services.watch) and the notes; when a source changed it re-reads the library (the
  library cache re-parses only changed files; the store updates the index in place for a
  large library), opens the new engine beside the old one, gives it the user's layer and
  posts `LibraryReloaded`; the UI thread swaps engines and re-runs the current query, so
  the highlighted paper stays highlighted when it still exists. A changed file that now
  has parse errors (a save caught half-way) keeps the previous library, says so once, and
  is read again when it changes next. While a reload runs the status line says `Reading
  refs.bib` (`LibraryUpdating`);
* the start after an edit: the app was started on the index as last built
  (tui.cli.run_app, `outdated`), and the watch thread first reads the files changed since,
  as a start that loaded the library would (their problems listed, not taken for a save
  caught half-way), then serves the result the same way.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message

from index.models import Library, LoadWarning, Paper
from index.search.user_layer import UserLayer
from tui.messages import LibraryUpdating
from tui.services.annotations import Annotations
from tui.services.layer import build_user_layer, notes_dir, user_layer_without_library
from tui.services.notes import fingerprint as notes_fingerprint
from tui.services.saved_searches import SavedSearches
from tui.services.stored_json import StoredJson, file_stamp
from tui.services.watch import (
    NO_PAPER_CHANGED,
    ZoteroContent,
    changed_files,
    describe_changes,
    sources_fingerprint,
)
from tui.startup import collector_paused
from tui.view.user_detail import user_rows

if TYPE_CHECKING:
    from index.search.engine import SearchEngine

__all__ = ["LibraryHost", "LibraryReloaded", "UserDataChanged", "UserLayerChanged"]

WATCH_INTERVAL = 1.0  # seconds between polls: a change shows within ~1-2 s


@dataclass
class LibraryReloaded(Message):
    """A changed source was read again; the new engine is ready to be swapped in."""

    engine: Any  # index.search.engine.SearchEngine
    library: Library
    lines: list[str]  # "refs.bib: +3, -1 papers"
    # False for the update at start: a file touched without a paper changing says nothing.
    announce: bool = True


@dataclass
class NotesChanged(Message):
    """A note file was added, edited or removed outside the app."""


@dataclass
class UserDataChanged(Message):
    """One of the user's own files changed on disk (another app, a script)."""


@dataclass
class SourceProblem(Message):
    """A changed source could not be used (yet); the previous papers are kept.

    `warnings`: the problems as "Load problems" lists them until the file reads cleanly;
    `announce`: whether to say so (once per problem, not at every save that keeps it).
    """

    text: str
    warnings: tuple[LoadWarning, ...] = ()
    announce: bool = True


@dataclass
class UserLayerChanged(Message):
    """The engine has the user's current layer: searches and the detail should refresh.

    `changed` is False when the layer was the one the engine had (the start of a user with
    no tags or notes): the results on show stand, only the saved searches are counted.
    """

    changed: bool = True


class LibraryHost:
    """The app's half of the living library (see the module docstring)."""

    watch_interval = WATCH_INTERVAL

    def init_library_layer(
        self, corpus: Sequence[Path] | None, outdated: Sequence[str] = ()
    ) -> list[str]:
        """Open the user's files; returns their warnings (damaged files, kept as they are).

        `outdated`: files of `corpus` changed since the engine's index was built; the watch
        thread reads them again first thing.
        """
        app: Any = self
        data_dir = Path(app.settings.data_dir)
        self.corpus = list(corpus) if corpus else None
        self._outdated = set(outdated) if self.corpus else set()
        self.annotations = Annotations(data_dir / "annotations.json")
        self.saved_searches = SavedSearches(data_dir / "saved_searches.json")
        self.notes_dir = notes_dir(data_dir)
        self._layer_lock = threading.Lock()
        self._retired: list[SearchEngine] = []
        # A changed file's new problems while its previous papers are kept (a save caught
        # half-way): "Load problems" lists them with the library's own (app.load_warnings).
        self.reload_problems: tuple[LoadWarning, ...] = ()
        app.papers.extras = self.detail_rows
        return [w for w in (self.annotations.warning, self.saved_searches.warning) if w]

    def detail_rows(self, paper: Paper) -> tuple[tuple[str, str], ...]:
        """The detail's rows for the user's layer (runs in the detail worker)."""
        return user_rows(paper, self.annotations, self.notes_dir)

    def _papers(self) -> Sequence[Paper]:
        app: Any = self
        if app.library is not None and app.library.papers:
            return app.library.papers
        return app.papers._all_papers()

    def _user_layer(self, engine: SearchEngine) -> UserLayer:
        """The user's layer for `engine`: from the loaded papers, or (a current index opened
        without its library) from the keys its build saved, without decoding every paper."""
        app: Any = self
        if self.annotations.empty and not notes_fingerprint(self.notes_dir):
            return UserLayer()  # nothing of the user's yet: no paper needs looking at
        if app.library is None:
            found = user_layer_without_library(engine, self.annotations, self.notes_dir)
            if found is not None:
                return found
        return build_user_layer(self.annotations, self._papers(), self.notes_dir)

    def _user_stores(self) -> list[StoredJson]:
        """The user's files this app keeps, each read again when it changes on disk."""
        app: Any = self
        return [self.annotations, self.saved_searches, app.marks, app.history]

    def _user_stamps(self) -> list[tuple[int, int, int] | None]:
        return [file_stamp(s.path) if s.path else None for s in self._user_stores()]

    def _recorded_library(self) -> Library:
        """What the watcher compares with when no library was loaded: the input files as
        they are now (the index is current) and the problems its build recorded. The papers
        are read from the index when a file first changes (`_watch_sources`)."""
        from index.library.inputs import library_files

        app: Any = self
        files = library_files(self.corpus) if self.corpus else ()
        return Library(papers=(), warnings=app.load_warnings, files=files)

    # -- the user's layer -----------------------------------------------------------------

    @work(
        thread=True,
        exclusive=True,
        group="layer",
        exit_on_error=False,
        description="Applying your tags and notes",
    )
    def apply_user_layer(self) -> None:
        """Give the engine the current tags, statuses and notes, then refresh the view."""
        app: Any = self
        engine = app.engine
        if engine is None:
            return
        with self._layer_lock:
            changed = engine.set_user_layer(self._user_layer(engine))
        app.post_message(UserLayerChanged(changed))

    # Named handlers, not `@on`: Textual collects `@on` only from its own classes, and this
    # is a plain mixin.
    def on_user_layer_changed(self, message: UserLayerChanged) -> None:
        """Searches, the detail and the saved counts follow the new layer."""
        app: Any = self
        if not message.changed:  # a search started meanwhile would only start again
            app.main_screen.count_saved()
            return
        app.main_screen.user_layer_changed()
        if app.screen is not app.main_screen and hasattr(app.screen, "reload_detail"):
            app.screen.reload_detail()  # the full-screen detail shows the new tags too

    def report_save(self, store: Annotations | SavedSearches, done: bool) -> None:
        """Say when a change could not be written (it is kept for the session)."""
        app: Any = self
        if not done and store.save_error:
            app.notify(store.save_error, title="Not saved", severity="warning", markup=False)

    # -- watching the sources -------------------------------------------------------------

    def start_watching(self) -> None:
        """Watch the notes, and the sources when they were named on the command line; and
        the user's own files, in a thread of their own (a reload of a large library takes
        its thread for seconds, and another app's tag should show within two).

        Plain named threads, not Textual workers: they run for the whole session, and
        workers are what "wait until the app is idle" waits for. They only post messages.
        """
        if getattr(self, "_watcher", None) is not None:
            return
        self._stop_watching = threading.Event()
        self._watcher = threading.Thread(
            target=self._watch_sources, name="paperscope-watch", daemon=True
        )
        self._watcher.start()
        threading.Thread(
            target=self._watch_user_files, name="paperscope-watch-user", daemon=True
        ).start()

    def _watch_user_files(self) -> None:
        """Post `UserDataChanged` when a user file's size, mtime or inode changed."""
        app: Any = self
        seen = self._user_stamps()
        while not self._stop_watching.wait(self.watch_interval):
            now = self._user_stamps()
            if now != seen:
                seen = now
                app.post_message(UserDataChanged())

    def stop_watching(self) -> None:
        """End the watch thread (at exit); it stops within one poll step."""
        stop = getattr(self, "_stop_watching", None)
        if stop is not None:
            stop.set()

    def _watch_sources(self) -> None:
        """Poll the inputs and the notes; reload what changed (see the module docstring)."""
        app: Any = self
        stop = self._stop_watching
        watching = bool(self.corpus)  # the bundled corpus never changes
        library: Library = app.library or (
            self._recorded_library() if watching else Library(papers=())
        )
        sources = sources_fingerprint(self.corpus, library.files) if watching else {}
        zotero = ZoteroContent(library.files if watching else ())
        notes = notes_fingerprint(self.notes_dir)
        reported: str | None = None  # the parse problem already told
        if self._outdated:
            # Edited since the index was built: read as a start would have, problems and
            # all. `sources` stays as it was before, so an edit made meanwhile is seen next.
            try:
                library, _, _ = self._read_again(library, self._outdated, at_start=True)
            except Exception as error:
                app.post_message(SourceProblem(f"reloading the library failed: {error}"))
        while not stop.wait(self.watch_interval):
            try:
                now_notes = notes_fingerprint(self.notes_dir)
                if now_notes != notes:
                    notes = now_notes
                    app.post_message(NotesChanged())
                if not watching:
                    continue
                now = sources_fingerprint(self.corpus, library.files)
                changed = zotero.changed(changed_files(sources, now))
                sources = now  # Zotero's bookkeeping, or a problem retried at the next change
                if not changed:
                    continue
                library, problem, found = self._read_again(library, changed, at_start=False)
                if problem is not None:
                    app.post_message(SourceProblem(problem, found, announce=problem != reported))
                reported = problem
            except Exception as error:
                app.post_message(SourceProblem(f"reloading the library failed: {error}"))

    def _read_again(
        self, library: Library, changed: set[str], *, at_start: bool
    ) -> tuple[Library, str | None, tuple[LoadWarning, ...]]:
        """`changed` read again and served, the status saying so meanwhile: (the library
        now served, the problem that kept `library` instead, and the problems found)."""
        app: Any = self
        app.post_message(LibraryUpdating(tuple(sorted(changed))))
        try:
            with collector_paused():
                new_library, problem, found = self._reload(
                    library, changed, keep_on_problem=not at_start
                )
                if new_library is None or self._stop_watching.is_set():
                    return library, problem, found
                return self._serve(library, new_library, changed, announce=not at_start), None, ()
        finally:
            app.post_message(LibraryUpdating(()))

    def _serve(
        self, library: Library, new_library: Library, changed: set[str], *, announce: bool
    ) -> Library:
        """Open `new_library`'s engine (updating the index) and hand it to the UI thread."""
        if not library.papers:
            # Served from the index so far: what the notice compares, read before the
            # update below rewrites that index in place.
            library = replace(library, papers=self._served_papers_of(new_library, changed))
        app: Any = self
        engine = self._open(new_library)
        lines = describe_changes(library, new_library, changed)
        if not announce:
            lines = [line for line in lines if not line.endswith(NO_PAPER_CHANGED)]
        app.post_message(LibraryReloaded(engine, new_library, lines, announce=announce))
        return new_library

    def on_library_updating(self, message: LibraryUpdating) -> None:
        """The status line says which files are read again, until they are served."""
        app: Any = self
        app.main_screen.post_message(LibraryUpdating(message.files))

    def on_notes_changed(self, message: NotesChanged) -> None:
        """A note was edited outside the app: search and the detail follow it."""
        self.apply_user_layer()

    def on_user_data_changed(self, message: UserDataChanged) -> None:
        """Another app or a script changed the user's files: read them again (small, a few
        milliseconds), and let the search, facets, detail and marks follow."""
        app: Any = self
        stores = self._user_stores()
        warnings = [store.warning for store in stores]
        tags, saved, marks, _ = [store.refresh() for store in stores]
        for store, before in zip(stores, warnings):
            if store.warning and store.warning != before:
                app.notify(store.warning, title="Your data", severity="warning", markup=False)
        if tags:
            self.apply_user_layer()  # then searches again and recounts the saved searches
        if not app.main_screen.is_mounted:  # a first start's screen: shown when it mounts
            return
        if saved and not tags:
            app.main_screen.count_saved()
        if marks:
            app.main_screen.refresh_marks()

    def on_source_problem(self, message: SourceProblem) -> None:
        """Say once what stopped a reload (the previous papers stay); "Load problems" lists
        it, as after a start, until the file reads cleanly."""
        app: Any = self
        self.reload_problems = message.warnings
        if message.announce:
            app.notify(message.text, title="Library", severity="warning", markup=False, timeout=10)

    def _served_papers_of(self, new_library: Library, changed: set[str]) -> tuple[Paper, ...]:
        """The served index's papers that `describe_changes` needs for `changed`: those the
        changed files now have and those gone. At 20,000 papers decoding all of them took
        5.5 s; a changed file's 2,000 take 0.8 s. (A paper merged from a changed and an
        unchanged file that lost its changed copy is not among them: the notice does not
        count it as removed.)"""
        app: Any = self
        engine = app.engine
        if engine is None:
            return ()
        touched = {os.path.realpath(name) for name in changed}
        now = {paper.id for paper in new_library.papers}
        wanted = engine.paper_ids() - now  # removed
        wanted |= {
            paper.id
            for paper in new_library.papers
            if any(os.path.realpath(source.path) in touched for source in paper.sources)
        }
        return tuple(engine.papers(sorted(wanted)))

    def _reload(
        self, old: Library, changed: set[str], keep_on_problem: bool = True
    ) -> tuple[Library | None, str | None, tuple[LoadWarning, ...]]:
        """The library read again, or why it is not used (a changed file now fails to
        parse, when `keep_on_problem`: a save caught half-way) and its new problems, as
        "Load problems" lists them meanwhile."""
        from index import load_library

        app: Any = self
        library = load_library(
            self.corpus, app.taxonomy, cache_dir=Path(app.settings.cache_dir) / "library"
        )
        if not keep_on_problem:
            return library, None, ()
        touched = {os.path.realpath(name) for name in changed}

        def problems(warnings: Sequence[LoadWarning]) -> Counter[tuple[str, str]]:
            # Without line numbers: an old problem moved down by an added entry is no news.
            return Counter(
                (os.path.realpath(w.path), w.message)
                for w in warnings
                if os.path.realpath(w.path) in touched
            )

        new_problems = problems(library.warnings) - problems(old.warnings)
        fresh = [
            w for w in library.warnings if (os.path.realpath(w.path), w.message) in new_problems
        ]
        if fresh:
            first = fresh[0]
            kept = tuple(
                replace(w, message=f"{w.message} (the papers read before are kept)") for w in fresh
            )
            return (
                None,
                (
                    f"{first} — keeping the papers read before; reading "
                    f"{os.path.basename(first.path)} again when it changes"
                ),
                kept,
            )
        return library, None, ()

    def _open(self, library: Library) -> SearchEngine:
        """The engine on the reloaded library, with the user's layer already applied."""
        from index import open_engine

        app: Any = self
        engine = open_engine(library, app.taxonomy, app.settings.cache_dir)
        with self._layer_lock:
            engine.set_user_layer(
                build_user_layer(self.annotations, library.papers, self.notes_dir)
            )
        return engine

    def on_library_reloaded(self, message: LibraryReloaded) -> None:
        """Serve the reloaded library; the query re-runs, the highlighted paper stays."""
        from tui.services.papers import PaperData

        app: Any = self
        if not app.is_running:
            # Landed as the app shuts down (the user quit while a source changed): the main
            # screen's widgets are gone, nothing would show it. Its engine is closed, not
            # served (Textual guards its own late messages the same way).
            message.engine.close()
            return
        previous = app.engine
        problems = [str(w) for w in app.load_warnings]
        self.reload_problems = ()  # the files read cleanly: their problems are the library's
        app.engine = message.engine
        app.library = message.library
        extras = app.papers.extras
        app.papers = PaperData(app.taxonomy, message.library, lambda: app.engine)
        app.papers.extras = extras
        # A search may still run on the previous engine: close it at the next swap.
        for old in self._retired:
            old.close()
        self._retired = [previous] if previous is not None and app._owns_engine else []
        app._owns_engine = True
        app.main_screen.library_reloaded()
        app.start_fulltext()  # a new or changed attachment is read, a removed one forgotten
        if message.lines or message.announce:
            app.notify(
                "; ".join(message.lines) or "library reloaded", title="Library", markup=False
            )
        if [str(w) for w in app.load_warnings] != problems:  # at start: as the files are now
            app.notify_load_problems()

    def retire(self, engine: SearchEngine) -> None:
        """An engine replaced while a search may still run on it: closed at the next swap
        (a reload) or at exit."""
        self._retired.append(engine)

    def close_retired(self) -> None:
        """Stop watching and close engines replaced by reloads (at exit)."""
        self.stop_watching()
        for old in self._retired:
            old.close()
        self._retired = []
