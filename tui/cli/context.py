"""What every command needs: the taxonomy, the library and the search engine, loaded once.

Problems in the user's input are printed as one line each on stderr and loading goes on;
only when nothing at all can be used does a command stop with a `UserError`.
"""

from __future__ import annotations

import sys
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from index.library.load import load_library
from index.facets.taxonomy import Taxonomy, TaxonomyError, load_taxonomy
from index.text_safety import for_terminal
from tui.services import paths
from tui.services.load_warnings import summary_lines
from tui.cli.progress import LoadNotice, ProgressBar
from tui.startup import collect_load_garbage, freeze_long_lived

if TYPE_CHECKING:
    from index.library.lookup import PaperLookup
    from index.search.engine import SearchEngine
    from index.store.generations import Opened
    from index.models import Library


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit code 2."""


class CliContext:
    """Lazily loads what a command asks for, so `--help` and `styles` stay instant."""

    def __init__(self, corpus: list[Path] | None = None, taxonomy: Path | None = None) -> None:
        self.corpus = corpus or None
        self.taxonomy_file = taxonomy
        # `paperscope check` prints every warning itself, on stdout.
        self.print_warnings = True

    def warn(self, message: str) -> None:
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
        notice = LoadNotice(sys.stderr)
        try:
            library = load_library(self.corpus, self.taxonomy,
                                   cache_dir=paths.cache_dir() / "library", progress=notice)
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
        read from stored fields; otherwise, or when the library is loaded already, this
        is `engine`. The library's load warnings are then not printed: nothing was loaded.
        """
        if "library" not in self.__dict__:
            from index import open_current_engine

            try:
                engine = open_current_engine(self.corpus, self.taxonomy, paths.cache_dir())
            except OSError:  # an unreadable input or cache: the full load says what
                engine = None
            if engine is not None:
                return engine
        return self.engine

    def open_engine(self, rebuild: bool = False) -> SearchEngine[Opened]:
        """Opens (or rebuilds) the index under the cache directory, progress on stderr."""
        from index import open_engine
        from index.store.generations import IndexUnavailable

        bar = ProgressBar("indexing", sys.stderr)
        try:
            engine = open_engine(self.library, self.taxonomy, paths.cache_dir(),
                                 rebuild=rebuild, progress=bar)
        except IndexUnavailable as error:
            raise UserError(str(error)) from None
        finally:
            bar.finish()
        freeze_long_lived()
        return engine
