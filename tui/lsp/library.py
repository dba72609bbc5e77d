"""The library a language server serves: opened as every command opens it, and kept live.

The engine is opened the way the commands open it (tui.cli.context.CliContext): a current
index without loading the library (its keys and load problems as its build saved them),
else the library loaded and its index built or refreshed. That happens in a thread, as
does every reload, so a request never waits for a build: until the first engine is open
completion is empty and says why; while a reload runs the engine as it was is served and
the items say so.

The watch is the app's (tui.services.watch, as tui.library_host polls it): the inputs'
sizes, mtimes and inodes every second, a Zotero database's content fingerprint, then the
library read again through the library cache (only changed files are parsed) and the
index updated. A changed file that now fails to parse keeps the previous papers and says
so once, as the app does.
"""

from __future__ import annotations

import bisect
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from index.library.lookup import closest, paper_name
from index.models import Library, LoadWarning, Paper, SearchRequest
from tui.cli.context import CliContext, UserError
from tui.services.load_warnings import summary_lines
from tui.services.watch import ZoteroContent, changed_files, sources_fingerprint

if TYPE_CHECKING:
    from index.facets.taxonomy import Taxonomy
    from index.search.engine import SearchEngine
    from index.store.generations import Opened

__all__ = ["LiveLibrary", "Served", "Tell"]

WATCH_INTERVAL = 1.0  # seconds between polls, as the app's: an edit shows within ~2 s

# (message, is_error): said to the user (the server turns it into window/showMessage).
Tell = Callable[[str, bool], None]


class _Context(CliContext):
    """The command line's context, its warnings kept for one message to the editor (a
    popup per line of a big library's problems would bury the editor)."""

    def __init__(self, corpus: list[Path] | None, taxonomy: Path | None) -> None:
        super().__init__(corpus, taxonomy)
        self.said: list[str] = []

    def warn(self, message: str) -> None:
        self.said.append(message)


def _joined(lines: Sequence[str], limit: int = 3) -> str:
    """A few problems on one line, and how many more (`paperscope check` lists them)."""
    shown = "; ".join(lines[:limit])
    more = len(lines) - limit
    return shown + (f"; and {more} more (`paperscope check` lists them)" if more > 0 else "")


@dataclass
class Served:
    """One open engine and the names its papers are cited by.

    Attributes:
        engine: the search engine.
        keys: paper id -> the citation key completion inserts (the user's own key when
            their file has one, else paperscope's generated key, unique in the library).
        names: every name a manuscript may cite a paper by -> its id: ids, then generated
            keys, then the user's own keys (which win, as in `paperscope cited`).
        library: the loaded library, when one was (else the papers come from the index).
        warnings: the library's load problems.
    """

    engine: SearchEngine[Opened]
    keys: dict[str, str]
    names: dict[str, str]
    library: Library | None = None
    warnings: tuple[LoadWarning, ...] = ()
    _papers: dict[str, Paper] = field(default_factory=dict)
    # (key folded, paper id), sorted: the keys a typed key prefix starts, found by bisection.
    _folded: list[tuple[str, str]] = field(default_factory=list)
    _suggested: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, engine: SearchEngine[Opened], library: Library | None) -> Served:
        from index.citations import citation_keys

        if library is not None:
            keys = citation_keys(library.papers)
            own = {p.citation_key: p.id for p in library.papers if p.citation_key}
            warnings = library.warnings
        else:
            keys = engine.saved_citation_keys() or {}
            own = {}
            warnings = tuple(engine.opened.warnings)
        names = {paper_id: paper_id for paper_id in engine.paper_ids()}
        names.update({key: paper_id for paper_id, key in keys.items()})
        names.update(own)
        papers = {p.id: p for p in library.papers} if library is not None else {}
        folded = sorted((key.casefold(), paper_id) for paper_id, key in keys.items())
        return cls(engine, keys, names, library, warnings, papers, folded)

    def keys_starting(self, prefix: str, limit: int) -> list[str]:
        """Ids of the papers whose key starts with `prefix` (case-insensitive), by key:
        a key typed from memory (`olshausen1996em`) is no query the index answers."""
        folded = prefix.casefold()
        if not folded:
            return []
        start = bisect.bisect_left(self._folded, (folded, ""))
        out = []
        for key, paper_id in self._folded[start : start + limit]:
            if not key.startswith(folded):
                break
            out.append(paper_id)
        return out

    def paper(self, paper_id: str) -> Paper | None:
        """The paper with that id: from the library, else from the index's stored fields."""
        found = self._papers.get(paper_id)
        return found if found is not None else self.engine.paper(paper_id)

    def every_paper(self) -> list[Paper]:
        """The whole library (a manuscript's `\\nocite{*}`), in the engine's order."""
        if self.library is not None:
            return list(self.library.papers)
        found = (self.paper(paper_id) for paper_id in self.engine.paper_ids())
        return [paper for paper in found if paper is not None]

    def knows(self, name: str) -> bool:
        """Whether a manuscript's key names a paper (without reading the paper)."""
        written = paper_name(name)
        return written is not None and written in self.names

    def find(self, name: str) -> Paper | None:
        """The paper a manuscript's key names (its own key, generated key or id), exactly."""
        written = paper_name(name)
        paper_id = self.names.get(written) if written is not None else None
        return self.paper(paper_id) if paper_id is not None else None

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """The closest keys, as `paperscope cited` suggests them (`lookup.closest`);
        remembered, since a document keeps its unknown keys while the user types on."""
        found = self._suggested.get(name)
        if found is None:
            found = self._suggested[name] = closest(name, self.names, limit)
        return found

    def key_of(self, paper: Paper) -> str:
        return self.keys.get(paper.id) or paper.citation_key or paper.id


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
        # Called (from the library's thread) whenever another engine is served.
        self.on_served: Callable[[], None] | None = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """End the watch; the engine is closed by the thread within one poll."""
        self._stop.set()

    # -- searching ------------------------------------------------------------------------

    def search(self, query: str, limit: int) -> tuple[Served, list[Paper]] | None:
        """The papers whose key starts with `query`, then the ranked as-you-type hits for
        it (the app's ranking); None while nothing is served. An empty query lists the
        library's first papers in the engine's order."""
        served = self.served
        if served is None:
            return None
        by_key = served.keys_starting(query, limit) if " " not in query else []
        request = SearchRequest(query=query, as_you_type=True, limit=limit, counts=False)
        hits = served.engine.search(request).hits
        papers = [p for p in (served.paper(i) for i in by_key) if p is not None]
        seen = set(by_key)
        papers += [hit.paper for hit in hits if hit.paper.id not in seen]
        return served, papers[:limit]

    # -- the thread -----------------------------------------------------------------------

    def _run(self) -> None:
        context = self._context()
        try:
            library = self._open(context)
        except UserError as error:
            self.status = str(error)
            why = f" ({_joined(context.said)})" if context.said else ""
            self._tell(f"paperscope: {error}{why}; the server goes on without a library", True)
            library = Library(papers=())
        except Exception as error:  # anything else: said, and the server keeps running
            self.status = f"the library could not be opened ({error})"
            self._tell(f"paperscope: {self.status}", True)
            library = Library(papers=())
        finally:
            self.ready.set()
        self._watch(library)

    def _context(self) -> _Context:
        context = _Context(self.corpus, self.taxonomy_file)
        if self._taxonomy is not None:
            context.__dict__["taxonomy"] = self._taxonomy
        return context

    def _open(self, context: _Context) -> Library:
        """The first engine: a current index without the library, else load and build;
        the index as last built is served meanwhile when a file changed since (as the
        app's start after an edit, tui.cli.run_app)."""
        self._taxonomy = context.taxonomy
        engine = context.current_engine(keys_needed=True)
        library: Library | None = None
        if engine is None:
            outdated = context.outdated_engine() if self.corpus else None
            if outdated is not None:
                self._serve(Served.of(outdated[0], None))
                names = ", ".join(sorted(os.path.basename(name) for name in outdated[1]))
                self.status = f"reading {names} again; serving the papers as they were"
            library = context.library
            engine = context.engine
        self._serve(Served.of(engine, library))
        served = self.served
        assert served is not None
        if library is None and served.warnings:  # as its build recorded them: said again
            context.said.extend(summary_lines(served.warnings))
        if context.said:
            self._tell(f"paperscope: {_joined(context.said)}", False)
        if library is not None:
            return library
        from index.library.inputs import library_files

        files = library_files(self.corpus) if self.corpus else ()
        return Library(papers=(), warnings=served.warnings, files=files)

    def _serve(self, served: Served) -> None:
        previous = self.served
        self.served = served
        self.status = None
        if self.on_served is not None:
            self.on_served()
        if previous is not None:
            # A completion may still be searching it; searches take milliseconds.
            timer = threading.Timer(5.0, previous.engine.close)
            timer.daemon = True
            timer.start()

    def _watch(self, library: Library) -> None:
        """Poll the inputs; read changed files again and serve the result."""
        if not self.corpus:
            self._stop.wait()
            return
        sources = sources_fingerprint(self.corpus, library.files)
        zotero = ZoteroContent(library.files)
        reported: str | None = None
        while not self._stop.wait(self.interval):
            try:
                now = sources_fingerprint(self.corpus, library.files)
                changed = zotero.changed(changed_files(sources, now))
                sources = now
                if not changed:
                    continue
                library, problem = self._reload(library, changed)
                if problem is not None and problem != reported:
                    self._tell(problem, True)
                reported = problem
            except Exception as error:
                self.status = None
                self._tell(f"paperscope: reloading the library failed: {error}", True)
        served = self.served
        if served is not None:
            served.engine.close()

    def _reload(self, old: Library, changed: set[str]) -> tuple[Library, str | None]:
        """The library read again and served, or the old one kept and why."""
        names = ", ".join(sorted(os.path.basename(name) for name in changed))
        self.status = f"updating from {names}; serving the papers as they were"
        try:
            context = self._context()
            library = context.library
        except UserError as error:
            self.status = None
            why = f" ({_joined(context.said)})" if context.said else ""
            return old, f"paperscope: {error}{why}; keeping the papers read before"
        touched = {os.path.realpath(name) for name in changed}
        before = {(os.path.realpath(w.path), w.message) for w in old.warnings}
        fresh = [
            w
            for w in library.warnings
            if os.path.realpath(w.path) in touched
            and (os.path.realpath(w.path), w.message) not in before
        ]
        if fresh and self.served is not None:
            self.status = None
            first = fresh[0]
            return old, (
                f"paperscope: {first} — keeping the papers read before; reading "
                f"{os.path.basename(first.path)} again when it changes"
            )
        engine = context.engine
        self._serve(Served.of(engine, library))
        return library, None
