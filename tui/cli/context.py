"""What every command needs: the taxonomy, the library and the search engine, loaded once.

Problems in the user's input are printed as one line each on stderr and loading goes on;
only when nothing at all can be used does a command stop with a `UserError`.
"""

from __future__ import annotations

import io
import sys
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from index.facets.taxonomy import Taxonomy, TaxonomyError, load_taxonomy
from index.text_safety import for_terminal
from tui.cli.progress import LoadNotice, ProgressBar
from tui.services import paths
from tui.services.load_warnings import summary_lines
from tui.startup import collect_load_garbage, collector_off, freeze_long_lived

if TYPE_CHECKING:
    from index.library.lookup import PaperLookup
    from index.models import Library, Paper
    from index.search.engine import SearchEngine
    from index.store.generations import Opened
    from tui.services.annotations import Annotations
    from tui.services.saved_searches import SavedSearches


def is_terminal(stream: TextIO | None) -> bool:
    """Whether `stream` is a terminal; a stream the shell closed (`<&-`: Python's `None`)
    is none."""
    try:
        return stream is not None and stream.isatty()
    except ValueError:  # closed by the program
        return False


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit code 2."""


class CliContext:
    """Lazily loads what a command asks for, so `--help` and `styles` stay instant."""

    def __init__(self, corpus: list[Path] | None = None, taxonomy: Path | None = None) -> None:
        self.corpus = corpus or None
        self.taxonomy_file = taxonomy
        # `paperscope check` prints every warning itself, on stdout.
        self.print_warnings = True
        # `pick` into a program (Vim's `:r !`, which reads stderr too) prints no warning:
        # the app shows the problems and `paperscope check` lists them.
        self.quiet = False

    def progress_stream(self) -> TextIO:
        """Where load and index progress go: stderr, unless `quiet` and stderr is captured
        too (Vim's `:r !` would paste "reading the papers…" above the citation)."""
        if self.quiet and not is_terminal(sys.stderr):
            return io.StringIO()
        return sys.stderr

    def warn(self, message: str) -> None:
        if self.quiet:
            return
        print(f"paperscope: warning: {for_terminal(message, one_line=True)}", file=sys.stderr)

    @cached_property
    def taxonomy(self) -> Taxonomy:
        extra: list[Path] = []
        user_file = paths.user_taxonomy_file()
        if user_file.is_file():
            extra.append(user_file)
        if self.taxonomy_file is not None:
            if not self.taxonomy_file.is_file():
                raise UserError(f"{self.taxonomy_file}: no such taxonomy file")
            extra.append(self.taxonomy_file)
        try:
            return load_taxonomy(extra)
        except TaxonomyError as error:
            raise UserError(str(error)) from None

    @cached_property
    def library(self) -> Library:
        # Parsed files, labels and the finished library are cached, so a warm start of a
        # 100k-paper library reads one file; its warnings are cached but not printed again.
        # Imported here: a search on a current index never loads the library.
        from index.library.load import load_library

        notice = LoadNotice(self.progress_stream())
        try:
            library = load_library(
                self.corpus, self.taxonomy, cache_dir=paths.cache_dir() / "library", progress=notice
            )
        finally:
            notice.finish()
        del notice  # its timer's cycles go with the parsers' in the one collection below
        collect_load_garbage()
        if self.print_warnings and not library.from_cache:  # a cached load was reported once
            for line in summary_lines(library.warnings):
                self.warn(line)
        if not library.papers:
            where = ", ".join(str(p) for p in self.corpus) if self.corpus else "the bundled corpus"
            raise UserError(f"no papers could be loaded from {where}")
        return library

    @cached_property
    def lookup(self) -> PaperLookup:
        """Papers by id or by the citation key from the user's file (`westfahl:space`)."""
        from index.library.lookup import PaperLookup

        return PaperLookup(self.library.papers)

    @cached_property
    def engine(self) -> SearchEngine[Opened]:
        """The search engine on this library, building its index first when it is stale."""
        return self.open_engine()

    @cached_property
    def search_engine(self) -> SearchEngine[Opened]:
        """The engine for commands that only search or count (`search`, `facets`).

        When the index is current (the input files' sizes and mtimes and the taxonomy are
        the ones it was built from) it is opened without loading the library, its papers
        read from stored fields and the user's layer applied through the keys the build
        saved (index.search.paper_keys); otherwise, or when the library is loaded
        already, this is `engine`. The library's load warnings are then not printed:
        nothing was loaded.
        """
        if "library" not in self.__dict__:
            layer = not self._no_user_layer()
            engine = self.current_engine(keys_needed=layer)
            if engine is not None and not layer:
                return engine
            if engine is not None:
                from tui.services.layer import notes_dir, user_layer_without_library

                notes = notes_dir(paths.data_dir())
                found = user_layer_without_library(engine, self.annotations, notes)
                if found is not None:
                    engine.set_user_layer(found)
                    return engine
                engine.close()  # the saved keys could not be read after all
        return self.engine

    def current_engine(self, keys_needed: bool = True) -> SearchEngine[Opened] | None:
        """The index opened without loading the library, when it is current; else None.

        `keys_needed`: only an index that saved its papers' keys (index.search.paper_keys,
        which the user's layer and the citation keys are computed from) will do; an index
        from before they were saved is closed and None returned, so the library is loaded.
        """
        from index import open_current_engine

        try:
            engine = open_current_engine(self.corpus, self.taxonomy, paths.cache_dir())
        except OSError:  # an unreadable input or cache: the full load says what
            return None
        if engine is not None and keys_needed and not engine.has_paper_keys:
            engine.close()
            return None
        return engine

    def outdated_engine(self) -> tuple[SearchEngine[Opened], tuple[str, ...]] | None:
        """The index as last built and the input files changed since (the index is not
        current), opened without loading the library; else None (`current_engine`).

        Only an index that saved its papers' keys will do, as for `current_engine`.
        """
        from index import open_outdated_engine

        try:
            found = open_outdated_engine(self.corpus, self.taxonomy, paths.cache_dir())
        except OSError:  # an unreadable input or cache: the full load says what
            return None
        if found is not None and not found[0].has_paper_keys:
            found[0].close()
            return None
        return found

    def _no_user_layer(self) -> bool:
        """No tags, statuses or notes yet: nothing to apply to the engine."""
        from tui.services.layer import notes_dir

        notes = notes_dir(paths.data_dir())
        return not (paths.data_dir() / "annotations.json").exists() and not (
            notes.is_dir() and any(notes.glob("*.md"))
        )

    def open_engine(self, rebuild: bool = False) -> SearchEngine[Opened]:
        """Opens (or rebuilds) the index under the cache directory, progress on stderr."""
        from index import open_engine
        from index.store.generations import IndexUnavailable

        bar = ProgressBar("indexing", self.progress_stream(), finishing="writing the index…")
        try:
            with collector_off():  # an in-place update's postings (tui.startup)
                engine = open_engine(
                    self.library, self.taxonomy, paths.cache_dir(), rebuild=rebuild, progress=bar
                )
        except IndexUnavailable as error:
            raise UserError(str(error)) from None
        finally:
            bar.finish()
        freeze_long_lived()
        self.apply_user_layer(engine)
        return engine

    # -- the user's own layer (tags, status, notes, saved searches) -------------------------

    @cached_property
    def annotations(self) -> Annotations:
        """The user's tags and reading status; a damaged file is warned about, kept as is."""
        from tui.services.annotations import Annotations

        store = Annotations(paths.data_dir() / "annotations.json")
        if store.warning:
            self.warn(store.warning)
        return store

    @cached_property
    def saved_searches(self) -> SavedSearches:
        """The user's saved searches; a damaged file is warned about, kept as is."""
        from tui.services.saved_searches import SavedSearches

        store = SavedSearches(paths.data_dir() / "saved_searches.json")
        if store.warning:
            self.warn(store.warning)
        return store

    def apply_user_layer(self, engine: SearchEngine[Opened]) -> None:
        """Give the engine the user's current tags, statuses and notes."""
        from tui.services.layer import build_user_layer, notes_dir

        engine.set_user_layer(
            build_user_layer(self.annotations, self.library.papers, notes_dir(paths.data_dir()))
        )

    def find_paper(self, paper_id: str) -> Paper:
        """The paper with that id or citation key, or a `UserError` suggesting close ones."""
        from index.library.lookup import unknown_paper_message

        paper = self.lookup.find(paper_id)
        if paper is None:
            raise UserError(unknown_paper_message(paper_id, self.lookup.suggest(paper_id)))
        return paper

    def resolve_papers(self, ids: list[str]) -> list[Paper]:
        """The papers named by paperscope ids or citation keys, in order.

        Raises:
            UserError: an id that names no paper (with close matches).
        """
        return [self.find_paper(name) for name in ids]
