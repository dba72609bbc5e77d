"""Files -> one clean library: load every input, apply sidecars, merge, give ids, tag.

This is the only entry point the rest of paperscope uses for papers. It never raises for
the user's mistakes: every problem is a `LoadWarning` in the returned `Library`, and the
loadable rest is in `papers`.

A start with nothing changed reads the finished library from the cache, and this module
imports only what that needs; the parsers' glue, the tagger and dedupe are in
`index.library.pipeline`, imported on a miss (a warm start is measured against a bare
Textual app's, issue 15).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from index.facets.taxonomy import Taxonomy
from index.library.cache import LibraryCache, identity
from index.library.inputs import input_files, library_files
from index.library.loaders import companions, discover
from index.models import Library, LoadWarning, replace

if TYPE_CHECKING:
    from index.library.early_sample import Sample, SampleAhead
    from index.library.first_rows import Read
    from index.library.parallel import LoadPool

__all__ = ["LoadProgress", "input_files", "library_files", "load_library"]

# (step, done, total): "reading files", "merging duplicates", "tagging". Only a first load
# of a large library is slow enough to show it (100,000 papers: about a minute).
LoadProgress = Callable[[str, int, int], None]


def load_library(
    paths: Sequence[Path] | None,
    taxonomy: Taxonomy,
    *,
    cache_dir: Path | None = None,
    progress: LoadProgress | None = None,
    sample: Sample | None = None,
    sample_ahead: SampleAhead | None = None,
    pool: LoadPool | None = None,
    read: Read | None = None,
) -> Library:
    """Load, merge and tag the papers from `paths` (None: the bundled corpus).

    Args:
        paths: files and folders the user named, or None for the bundled corpus.
        taxonomy: the facet vocabulary the tagger uses.
        cache_dir: where to keep parsed files, labels and the finished library between
            runs (see `index.library.cache`); None loads everything afresh. The result
            is the same either way.
        progress: told each step's progress, `(step, done, total)`; a load from the
            library cache has no steps and never calls it.
        sample: on a big load that is not from the library cache, given an even sample
            of the papers, tagged and with their final ids, before duplicates are merged
            (`index.library.early_sample`); the load goes on when it returns.
        sample_ahead: told once, while the files are read, when they are big enough to
            give an early sample (`early_sample.SAMPLE_LIKELY_BYTES`): what serving it
            needs can start meanwhile. A sample may still not come (too few papers).
        pool: worker interpreters started ahead for this load (`LoadPool(taxonomy)`,
            `start_workers`); the load stops them when it ends, from the cache or not.
            None: the load starts its own when a step is big enough.
        read: on a load that is not from the library cache, given the records as soon
            as the files are read, before duplicates are merged or papers tagged
            (`index.library.first_rows`: a first start shows them at once).

    Returns:
        distinct papers with unique ids, the warnings, and every file read (absolute).

    A big load parses and tags in spawned worker interpreters (`index.library.parallel`),
    which import the caller's main module as multiprocessing does: a script that calls
    this keeps its top-level work under `if __name__ == "__main__":`.
    """
    try:
        return _load_library(
            paths, taxonomy, cache_dir, progress or _quiet, sample, sample_ahead, pool, read
        )
    finally:
        if pool is not None:  # a load from the cache never used it
            pool.close()


def _quiet(step: str, done: int, total: int) -> None:
    pass


def _load_library(
    paths: Sequence[Path] | None,
    taxonomy: Taxonomy,
    cache_dir: Path | None,
    progress: LoadProgress,
    sample: Sample | None,
    sample_ahead: SampleAhead | None,
    pool: LoadPool | None,
    read: Read | None = None,
) -> Library:
    warnings: list[LoadWarning] = []
    if paths is None:
        files = input_files(None)
        inputs = None
    else:
        files, found_warnings = discover(paths)
        warnings.extend(found_warnings)
        inputs = [str(Path(path).expanduser().absolute()) for path in paths]
    shown = [file.name if paths is None else str(file) for file in files]
    cache = identities = key = None
    if cache_dir is not None:
        cache = LibraryCache(cache_dir, taxonomy.fingerprint)
        identities = [identity(file, companions(file)) for file in files]
        key = (tuple(zip(shown, identities)), tuple(warnings))
        if None not in identities:
            cached = cache.read_library(inputs, key)
            if cached is not None:
                return replace(cached, from_cache=True)
    from index.library.pipeline import build_library

    return build_library(
        files,
        shown,
        warnings,
        taxonomy,
        inputs,
        cache,
        identities,
        key,
        progress,
        sample,
        sample_ahead,
        pool,
        read,
    )
