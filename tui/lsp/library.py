"""The library a language server serves: opened as every command opens it, and kept live.

The engine is opened the way the commands open it (tui.cli.context.CliContext): a current
index without loading the library (its keys and load problems as its build saved them);
else the index as last built, served while the changed files are read again (below);
else, on a first start, the library loaded and its index built. That happens in a
thread, so a request never waits for a build: until the first engine is open completion
is empty.

The watch is the app's (tui.services.watch, as tui.library_host polls it): the inputs'
sizes, mtimes and inodes every second, a Zotero database's content fingerprint. An edit
is then served in two steps. At once, the edited entries of a `.bib` are read alone
(index.library.bib_delta) and put over the index (tui.lsp.overlay), so the entry a
writer just fixed is offered within the next poll even at 100,000 papers. Meanwhile the
library is read again and its index updated in a process of its own (tui.lsp.reload),
so no request waits for the interpreter's lock; when it is done, the new index is opened
and served. Until then the items say the index is being updated. A changed file that
now fails to parse keeps the previous papers and says so once, as the app does.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from index.library.bib_delta import BibDelta, BibEntries, bib_delta
from index.models import Library, LoadWarning, Paper, SearchRequest
from tui.cli.context import UserError
from tui.lsp.context import EditorContext, joined
from tui.lsp.overlay import Overlay
from tui.lsp.reload import Reload
from tui.lsp.served import Served
from tui.services.load_warnings import summary_lines
from tui.services.watch import ZoteroContent, changed_files, sources_fingerprint
from tui.startup import freeze_long_lived

if TYPE_CHECKING:
    from index.facets.taxonomy import Taxonomy

__all__ = ["LiveLibrary", "Served", "Tell"]

WATCH_INTERVAL = 1.0  # seconds between polls, as the app's: an edit shows within ~2 s
_BIB_SUFFIXES = (".bib", ".bibtex", ".biblatex")

# (message, is_error): said to the user (the server turns it into window/showMessage).
Tell = Callable[[str, bool], None]


def _is_bib(name: str) -> bool:
    return name.lower().endswith(_BIB_SUFFIXES)


def _read(name: str) -> bytes | None:
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError:
        return None


class LiveLibrary:
    """The served library, opened and then watched in one background thread.

    Args:
        corpus: the inputs, as `--corpus` names them (None: the bundled corpus).
        taxonomy: `--taxonomy`.
        tell: told every problem (load problems, a broken file, no library at all).
        interval: seconds between polls of the inputs.
    """

    def __init__(
        self,
        corpus: Sequence[Path] | None,
        taxonomy: Path | None,
        tell: Tell,
        interval: float = WATCH_INTERVAL,
    ) -> None:
        self.corpus = list(corpus) if corpus else None
        self.taxonomy_file = taxonomy
        self._tell = tell
        self.interval = interval
        self.served: Served | None = None
        # Why nothing (or an older library) is served right now; None when all is current.
        self.status: str | None = "reading the library"
        self.ready = threading.Event()  # set once the first open ended (served or failed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="paperscope-lsp-library")
        self._thread.daemon = True
        self._taxonomy: Taxonomy | None = None
        # Called (from the library's thread) whenever another engine or edit is served.
        self.on_served: Callable[[], None] | None = None
        # The watch's state, in its thread: the files read, their problems, the `.bib`
        # contents the served index holds and the edits over it, the files changed since
        # the running reload started, the reload, the contents it read, what was said.
        self._files: tuple[str, ...] = ()
        self._warnings: tuple[LoadWarning, ...] = ()
        self._bases: dict[str, BibEntries] = {}
        self._deltas: dict[str, BibDelta] = {}
        self._waiting: set[str] = set()
        self._reload: Reload | None = None
        self._next_bases: dict[str, BibEntries] = {}
        self._reported: str | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """End the watch and a reload running (the editor is not kept waiting for it to
        finish); the engine is closed by the thread within one poll."""
        self._stop.set()
        reload = self._reload
        if reload is not None:
            reload.stop()

    # -- searching ------------------------------------------------------------------------

    def search(self, query: str, limit: int) -> tuple[Served, list[Paper]] | None:
        """The papers whose key starts with `query`, then the ranked as-you-type hits for
        it (the app's ranking); None while nothing is served. An empty query lists the
        library's first papers in the engine's order."""
        served = self.served
        if served is None:
            return None
        overlay = served.overlay
        by_key = served.keys_starting(query, limit) if " " not in query else []
        request = SearchRequest(
            query=query, as_you_type=True, limit=limit + len(overlay.hidden), counts=False
        )
        hits = served.engine.search(request).hits
        papers = [p for p in (served.paper(i) for i in by_key) if p is not None]
        if overlay:  # the entries edited since the index was built, before its own
            papers += overlay.matching(query) if query.strip() else []
        seen = {paper.id for paper in papers}
        papers += [
            hit.paper
            for hit in hits
            if hit.paper.id not in seen and hit.paper.id not in overlay.hidden
        ]
        return served, papers[:limit]

    # -- the thread -----------------------------------------------------------------------

    def _run(self) -> None:
        context = self._context()
        try:
            library = self._open(context)
        except UserError as error:
            self.status = str(error)
            why = f" ({joined(context.said)})" if context.said else ""
            self._tell(f"paperscope: {error}{why}; the server goes on without a library", True)
            library = Library(papers=())
        except Exception as error:  # anything else: said, and the server keeps running
            self.status = f"the library could not be opened ({error})"
            self._tell(f"paperscope: {self.status}", True)
            library = Library(papers=())
        finally:
            self.ready.set()
        self._watch(library)

    def _context(self) -> EditorContext:
        context = EditorContext(self.corpus, self.taxonomy_file)
        if self._taxonomy is not None:
            context.__dict__["taxonomy"] = self._taxonomy
        return context

    def _open(self, context: EditorContext) -> Library:
        """The first engine: a current index without the library; else the index as last
        built, served while a reload reads the files changed since (as the app's start
        after an edit, tui.cli.run_app, but in a process of its own); else, with no index
        yet, the library loaded and its index built."""
        self._taxonomy = context.taxonomy
        engine = context.current_engine(keys_needed=True)
        library: Library | None = None
        if engine is None:
            outdated = context.outdated_engine() if self.corpus else None
            if outdated is not None:
                engine = outdated[0]
                self._waiting = set(outdated[1])
            else:
                library = context.library
                engine = context.engine
        self._serve(Served.of(engine, library))
        self._set_status()
        served = self.served
        assert served is not None
        if library is None and served.warnings:  # as its build recorded them: said again
            context.said.extend(summary_lines(served.warnings))
        if context.said:
            self._tell(f"paperscope: {joined(context.said)}", False)
        if library is not None:
            return library
        from index.library.inputs import library_files

        files = library_files(self.corpus) if self.corpus else ()
        return Library(papers=(), warnings=served.warnings, files=files)

    def _serve(self, served: Served) -> None:
        """Another engine served; the one before is closed a little later."""
        previous = self.served
        self.served = served
        if previous is None or previous.engine is not served.engine:
            # As the app after opening an engine: a full collection walking a 100,000-paper
            # index's objects would hold every request meanwhile.
            freeze_long_lived()
        if self.on_served is not None:
            self.on_served()
        if previous is not None and previous.engine is not served.engine:
            # A completion may still be searching it; searches take milliseconds.
            timer = threading.Timer(5.0, previous.engine.close)
            timer.daemon = True
            timer.start()

    def _watch(self, library: Library) -> None:
        """Poll the inputs; serve edited entries at once, the updated index when built."""
        if not self.corpus:
            self._stop.wait()
            return
        self._files = tuple(library.files)
        self._warnings = library.warnings
        self._bases = self._scan(name for name in self._files if _is_bib(name))
        sources = sources_fingerprint(self.corpus, self._files)
        zotero = ZoteroContent(self._files)
        if self._waiting:  # changed since the index was built: read again at once
            self._start_reload()
        while not self._stop.wait(self.interval):
            try:
                now = sources_fingerprint(self.corpus, self._files)
                changed = zotero.changed(changed_files(sources, now))
                sources = now
                if changed:
                    self._waiting |= changed
                    self._edited(changed)
                if self._reload is not None and self._reload.done():
                    self._reloaded(self._reload)
                if self._reload is None and self._waiting:
                    self._start_reload()
            except Exception as error:
                self._tell(f"paperscope: reloading the library failed: {error}", True)
        if self._reload is not None:
            self._reload.stop()
        served = self.served
        if served is not None:
            served.engine.close()

    def _scan(self, names: Iterable[str]) -> dict[str, BibEntries]:
        """The `.bib` files' contents as an edit is compared with (bib_delta), by real
        path (the watch may name a file as `--corpus` did, the library absolutely)."""
        bases = {}
        for name in {os.path.realpath(name) for name in names}:
            data = _read(name)
            if data is not None:
                bases[name] = BibEntries.scan(data)
        return bases

    def _delta(self, name: str) -> BibDelta | None:
        """What the file at real path `name` holds that the index served does not."""
        base = self._bases.get(name)
        data = _read(name) if base is not None else None
        if base is None or data is None:
            return None
        delta = bib_delta(base, data, name)
        return None if delta is None or delta.warnings else delta  # a full read says why

    def _edited(self, changed: set[str]) -> None:
        """The edited entries of the changed `.bib` files put over the index served."""
        served = self.served
        if served is None:
            return
        deltas = dict(self._deltas)
        for name in {os.path.realpath(name) for name in changed}:
            delta = self._delta(name)
            if delta is None:
                deltas.pop(name, None)
            else:
                deltas[name] = delta
        self._deltas = deltas
        self._set_status()
        self._serve(served.with_overlay(Overlay.of(deltas.values(), served.names)))

    def _set_status(self) -> None:
        names = ", ".join(sorted(os.path.basename(name) for name in self._waiting))
        if self._reload is not None or self._waiting:
            shown = names or "the library"
            self.status = f"updating the index from {shown}; serving the papers as they were"
        else:
            self.status = None

    def _start_reload(self) -> None:
        """The library read again and its index updated in a child process; the `.bib`
        files' contents as it starts are what the new index will be compared with."""
        assert self.corpus is not None
        touched = {os.path.realpath(name) for name in self._waiting}
        before = {(os.path.realpath(w.path), w.message) for w in self._warnings}
        snapshots = {name: _read(name) for name in touched if _is_bib(name)}
        self._set_status()
        self._waiting = set()
        self._reload = Reload(self.corpus, self.taxonomy_file, touched, before)
        self._next_bases = {
            name: BibEntries.scan(data) for name, data in snapshots.items() if data is not None
        }

    def _reloaded(self, reload: Reload) -> None:
        """The child is done: its index opened and served, or its problem said."""
        self._reload = None
        result = reload.result()
        if result.problem is not None and result.problem != self._reported:
            self._tell(result.problem, True)
        self._reported = result.problem
        if result.built:
            served = self._open_served(self._context())
            if served is not None:
                self._files = result.files or self._files
                self._warnings = result.warnings
                self._bases = {**self._bases, **self._next_bases}
                deltas = {}
                for name in self._deltas:  # edits since the child read them stay over it
                    delta = self._delta(name)
                    if delta is not None and (delta.papers or delta.gone):
                        deltas[name] = delta
                self._deltas = deltas
                self._set_status()
                self._serve(served.with_overlay(Overlay.of(deltas.values(), served.names)))
                return
        self._set_status()

    @staticmethod
    def _open_served(context: EditorContext) -> Served | None:
        """The index the reload left, opened and searched once (`Served.warm`); None
        when there is none to open."""
        engine = context.current_engine(keys_needed=True)
        if engine is None:  # changed again meanwhile: the index as the child left it
            outdated = context.outdated_engine()
            engine = outdated[0] if outdated is not None else None
        if engine is None:
            return None
        served = Served.of(engine, None)
        served.warm()
        return served
