"""What the BibTeX files of one load share: `@string` macros and `crossref`/`xdata` parents.

A lab's folder is one bibliography split into files, as BibTeX sees it when a document
says `\\bibliography{strings,procs,papers}`: one file defines the macros the others use,
one holds the proceedings that the papers of another name as their `crossref`. Each file
is parsed (and cached) on its own first; only the files that need something from another
are parsed again, with it, and those results are not cached (they depend on other files).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index.library.loaders import FileResult, SharedParents, load_file

__all__ = ["share_macros", "share_parents"]


def _macros(results: Sequence[FileResult]) -> dict[str, str]:
    shared: dict[str, str] = {}
    for result in results:
        shared.update(result.strings)
    return shared


def share_macros(files: Sequence[Path], shown: Sequence[str], results: list[FileResult]) -> None:
    """Parse again, with every file's `@string` macros, the files that use one undefined."""
    shared = _macros(results)
    for n, result in enumerate(results):
        if result.undefined and not result.undefined.isdisjoint(shared.keys() - result.strings):
            results[n] = load_file(files[n], shown[n], shared)


def share_parents(files: Sequence[Path], shown: Sequence[str], results: list[FileResult]) -> None:
    """Resolve the `crossref`/`xdata` parents that live in another file of the load.

    First each file holding such a parent is parsed again knowing that its entry is one
    (so it is not listed as a paper unless it has an abstract, as within one file); it
    hands the parent over resolved. Then each file naming it is parsed again with it.
    """
    wanted = frozenset().union(*(result.missing_parents for result in results))
    if not wanted:
        return
    macros = _macros(results)
    parents = {}
    for n, result in enumerate(results):
        referenced = wanted & result.keys
        if referenced:
            results[n] = load_file(files[n], shown[n], macros, SharedParents(referenced=referenced))
            parents.update(results[n].exported)
    for n, result in enumerate(results):
        found = {key: parents[key] for key in result.missing_parents if key in parents}
        if found:
            referenced = frozenset(result.exported)
            results[n] = load_file(
                files[n], shown[n], macros, SharedParents(found, referenced=referenced)
            )
