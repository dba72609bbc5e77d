"""A small index of a big library's early sample, searchable while the library is read.

A big first load hands out an even sample of its records before their duplicates are
merged (`index.library.early_sample`); this indexes it (in a build process, uncompressed:
it lives one start) into `preview-<token>/` beside where the library's index will live, so
the app searches it while the load goes on. The library's own first build then serves a
lean index of every paper (`index.store.lean`), then the full one. A preview is never
published: its folder is removed once no process holds it (`index.store.locks`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from index.models import Paper
from index.store.child import BuildProcess, build_in_child
from index.store.writer import build_into

__all__ = ["build_preview"]

log = logging.getLogger("paperscope.index")


def build_preview(
    path: Path,
    sample: Sequence[Paper],
    *,
    in_child: bool = False,
    process: BuildProcess | None = None,
) -> Path | None:
    """Indexes `sample` into the empty folder `path`: `path`, or None when it failed.

    `in_child`: in a build process (`index.store.child`), so that the caller's process
    goes on meanwhile on the other core (the load's dedupe, for an early sample);
    `process`, one started ahead for it (`index.store.child.BuildProcess`).
    A preview that fails (a full disk, a paper the writer chokes on) is logged and
    dropped: the full build goes on and serves when it is done.
    """
    try:
        if in_child:
            build_in_child(path, sample, None, 1, compressed=False, process=process)
        else:
            build_into(path, sample, None, compressed=False)  # it lives one build
    except Exception as error:  # the preview is a nicety; never fail the build
        log.warning("no preview index at %s: %s", path, error)
        return None
    return path
