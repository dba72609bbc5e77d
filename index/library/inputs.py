"""Which files a library is read from, found without parsing any of them.

Split from index.library.load so that a command that only searches can ask whether the
index is current (a walk of the folders and a stat per file, `library_files`) without
importing the loaders, the tagger and dedupe it will not use.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from index.assets import bundled_corpus_files, bundled_metadata
from index.library.loaders import companions, discover
from index.library.loaders.files import Stamp

__all__ = ["input_files", "library_files", "read_files"]


def input_files(paths: Sequence[Path] | None) -> list[Path]:
    """The files `load_library(paths, ...)` would read, without parsing them.

    Cheap enough to call on every start, so the index can fingerprint its inputs and
    decide whether to rebuild. None means the bundled corpus and its metadata.
    """
    if paths is None:
        files = bundled_corpus_files()
        metadata = bundled_metadata()
        return files + ([metadata] if metadata.is_file() else [])
    return discover(paths)[0]


def library_files(paths: Sequence[Path] | None) -> tuple[str, ...]:
    """The `files` that `load_library(paths, ...)` would record, without parsing anything.

    Folders are walked and files stat'ed, nothing is read: this is what lets a command
    that only searches ask the store whether its index is current before deciding to
    load the library at all (`index.open_current_engine`).
    """
    files = input_files(paths)
    return read_files(files, [None] * len(files))[0]


def read_files(
    files: Sequence[Path], stamps: Sequence[Stamp | None]
) -> tuple[tuple[str, ...], tuple[Stamp | None, ...]]:
    """`Library.files` and `Library.stamps`: every file read, with each one's companions.

    The companions (present or not) are for the index's freshness check: a Zotero library
    changes in its write-ahead log first. They were not read, so they have no stamp.
    """
    names: list[str] = []
    stamped: list[Stamp | None] = []
    for file, stamp in zip(files, stamps, strict=True):
        extra = companions(file)
        names += [str(path.resolve()) for path in (file, *extra)]
        stamped += [stamp, *(None for _ in extra)]
    return tuple(names), tuple(stamped)
