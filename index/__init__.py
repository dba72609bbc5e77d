"""paperscope's headless library: papers, facets, the Whoosh index, search, citations.

Nothing in this package imports Textual, pyperclip or platformdirs: it takes paths and
settings as arguments, so it can be tested, benchmarked and scripted without a terminal
(import-linter contracts in pyproject.toml hold that and the layers below).

The facade: `load_taxonomy` -> `load_library` -> `open_engine` (`open_sample_engine` for the early
sample of a big first load), then
`engine.search(SearchRequest(...))`. Where everything else lives:

- `models`: the frozen values that cross every boundary (`Paper`, `SearchResult`, ...);
  `atomic`: crash-safe file writes; `assets`: where the bundled files are;
- `library/`: files -> one clean, deduplicated library (loaders, normalize, dedupe, ids,
  the library cache);
- `facets/`: the topic and hardware vocabulary, its rules and the tagger;
- `schema/`: what the index holds (fields, text analysis, venue names);
- `search/`: answering a request (parser, as-you-type prefixes, facet counts, ranking,
  highlighting, spelling);
- `store/`: the index on disk (generations, lock, staleness, writer, build process);
- `whoosh_ext/`: every use of Whoosh internals, behind a version guard;
- `citations/`: every citation style and export format, with the CSL styles.

The layers, top to bottom: store, search, schema, whoosh_ext; library, facets and
citations beside them and never importing those four. The functions below import their
subsystems when called, so `import index.models` stays cheap for start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from index.facets.taxonomy import Taxonomy
    from index.library.first_rows import Read
    from index.library.load import LoadProgress
    from index.library.parallel import LoadPool
    from index.models import Library, Paper
    from index.search.engine import SearchEngine
    from index.store.child import BuildProcess
    from index.store.generations import Opened
    from index.store.leaving import LeaveBuilds

__version__ = "0.1.0"
__all__ = [
    "__version__",
    "load_library",
    "load_taxonomy",
    "open_current_engine",
    "open_engine",
    "open_outdated_engine",
    "open_sample_engine",
    "start_sample_build",
]


def load_taxonomy(extra_files: Sequence[Path] = ()) -> Taxonomy:
    """The bundled facet vocabulary, extended or overridden by the user's files."""
    from index.facets.taxonomy import load_taxonomy as load

    return load(extra_files)


def load_library(
    paths: Sequence[Path] | None,
    taxonomy: Taxonomy,
    *,
    cache_dir: Path | None = None,
    progress: LoadProgress | None = None,
    sample: Callable[[list[Paper]], None] | None = None,
    sample_ahead: Callable[[], None] | None = None,
    pool: LoadPool | None = None,
    read: Read | None = None,
) -> Library:
    """Load, merge and tag the papers from `paths` (None: the bundled corpus).

    `sample` is given an early sample of a big first load before its duplicates are
    merged (`index.library.early_sample`), for `open_sample_engine`; `sample_ahead` is
    told when a load starts reading files that big, for `start_sample_build`. `pool`:
    worker interpreters started ahead (`index.library.parallel.LoadPool`), stopped when
    the load ends. `read` is given the records as soon as the files are read
    (`index.library.first_rows`: a first start shows and searches them at once).
    """
    from index.library.load import load_library as load

    return load(
        paths,
        taxonomy,
        cache_dir=cache_dir,
        progress=progress,
        sample=sample,
        sample_ahead=sample_ahead,
        pool=pool,
        read=read,
    )


def start_sample_build() -> BuildProcess | None:
    """A build process for `open_sample_engine`, started ahead of its sample (the app's
    `sample_ahead`): the interpreter and the imports an index of the sample needs are done
    while the files are read. None if it cannot start (the sample then starts its own).
    The caller closes it (`BuildProcess.close`) if no sample came.
    """
    import index.search.engine  # noqa: F401  (what open_sample_engine imports, done now)
    from index.store.child import BuildFailed, BuildProcess

    try:
        return BuildProcess()
    except BuildFailed:  # the sample's own start will fail the same way, and say so
        return None


def open_sample_engine(
    paths: Sequence[Path] | None,
    papers: Sequence[Paper],
    taxonomy: Taxonomy,
    cache_dir: Path,
    process: BuildProcess | None = None,
) -> SearchEngine[Opened] | None:
    """An engine on an index of `papers`, the early sample of the library at `paths` that
    `load_library` hands out, built now (by `process` if given: `start_sample_build`);
    None when it could not be built.

    It serves "results so far" while the library is loaded and indexed; the caller closes
    it once the full engine is open.
    """
    from index.library.inputs import library_files
    from index.search.engine import SearchEngine
    from index.store.generations import open_sample

    opened = open_sample(library_files(paths), papers, Path(cache_dir), process)
    return None if opened is None else SearchEngine(opened, None, taxonomy)


def open_engine(
    library: Library,
    taxonomy: Taxonomy,
    cache_dir: Path,
    *,
    rebuild: bool = False,
    progress: Callable[[int, int], None] | None = None,
    preview: Callable[[SearchEngine[Opened]], None] | None = None,
    leave: LeaveBuilds | None = None,
) -> SearchEngine[Opened]:
    """Opens this library's index under `cache_dir`, building or refreshing it if stale.

    `preview`, when given, is handed an engine on a lean index of a big library before
    its full index is built (from this thread; `index.store.lean`). It serves searches
    until this returns; the caller closes it.

    `leave`, when given, lets a caller about to exit stop waiting (`LeaveBuilds.leave`):
    a big library's build, which runs in a process of its own, is then finished and
    published by that process alone, and this raises
    `index.store.child.BuildDetached` at once.

    Raises:
        index.store.generations.IndexUnavailable: the index can neither be opened nor
            built (one-line message).
    """
    from index.search.engine import SearchEngine
    from index.store.generations import open_index

    def serve(opened: Opened) -> None:
        if preview is not None:  # a lean index of the whole library, which it searches with
            preview(SearchEngine(opened, library, taxonomy))

    opened = open_index(
        library,
        taxonomy,
        Path(cache_dir),
        rebuild=rebuild,
        progress=progress,
        preview=serve if preview is not None else None,
        leave=leave,
    )
    return SearchEngine(opened, library, taxonomy, Path(cache_dir))


def open_current_engine(
    paths: Sequence[Path] | None, taxonomy: Taxonomy, cache_dir: Path
) -> SearchEngine[Opened] | None:
    """An engine on the index of the library at `paths`, without loading that library.

    Only when the index is current: every input file has the size and mtime the index was
    built from, and the taxonomy is the same (a walk of the folders and a stat per file).
    Its papers are read from the index's stored fields. None means: load the library and
    call `open_engine`, which builds or refreshes the index. Commands that only search or
    count use it; at 27.5k papers the load is most of their time.
    """
    from index.library.inputs import library_files
    from index.search.engine import SearchEngine
    from index.store.generations import open_if_current

    opened = open_if_current(library_files(paths), taxonomy, Path(cache_dir))
    return None if opened is None else SearchEngine(opened, None, taxonomy, Path(cache_dir))


def open_outdated_engine(
    paths: Sequence[Path] | None, taxonomy: Taxonomy, cache_dir: Path
) -> tuple[SearchEngine[Opened], tuple[str, ...]] | None:
    """An engine on the index of the library at `paths` as last built, and the input files
    that changed since, without loading the library.

    For a start after an edit to one of the files: the papers as they were are searchable
    at once while the library is read again (the app's start, tui.cli.run_app). None when
    the index is current (`open_current_engine`), absent, or was built from other files or
    by other code (`index.store.generations.open_outdated`).
    """
    from index.library.inputs import library_files
    from index.search.engine import SearchEngine
    from index.store.generations import open_outdated

    found = open_outdated(library_files(paths), taxonomy, Path(cache_dir))
    if found is None:
        return None
    opened, changed = found
    return SearchEngine(opened, None, taxonomy, Path(cache_dir)), changed
