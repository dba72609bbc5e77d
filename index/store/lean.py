"""A big library's first index in two steps: a lean one of every paper first, then the full one.

A first build of 20,000 papers takes about a minute on two quiet cores (3 ms of CPU a
paper, benchmarks/README.md), and no rearrangement of the Python around Whoosh's writer made
it much quicker. Most of it is what as-you-type searching and phrases need: the edge n-grams
of the short fields' words (a third of the postings) and the positions of every word. So a
library of `LEAN_MIN_PAPERS` or more is first indexed without them (`build_schema(lean=True)`,
`build_into(lean=True)`: no n-grams, no positions, no stored papers, no shifted year terms,
none of the tables beside the index) and that index answers every search over the whole
library while the ordinary full build runs; the app then switches to the full index, whose
results are exactly a one-shot build's (it is one). At 20,000 papers the lean index
answered after 0.40x the time the full build took before (CPU 0.48x; benchmarks/README.md),
the full index after 1.2x.

Every search (words, word starts, phrases, fields, filters, facet counts, sorting, year
ranges, fuzzy words) answers exactly as on the full index: the lean engine has the library
beside it for its papers, its words, its word starts (the n-grams' terms,
index.search.lean.WordStarts) and its phrases (each candidate's text analysed as the full
build does, index.search.lean_phrases).

The lean index lives in a `preview-<token>/` folder, as the sample index did: never named by
`current.json`, held while open and swept once no process holds it
(`index.store.locks.sweep_previews`). A start killed between the two builds leaves no
published index, so the next start builds both again; the lean index is never mistaken for
a complete one.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from index.models import Paper
from index.store.child import build_in_child
from index.store.locks import hold_folder
from index.store.writer import PARALLEL_MIN_PAPERS, build_into

if TYPE_CHECKING:
    from index.store.writer import Progress

__all__ = ["LEAN_MIN_PAPERS", "build_lean", "wants_lean"]

log = logging.getLogger("paperscope.index")

# A first build of this many papers or more serves a lean index first: below it the full
# build takes well under 15 s (index.store.writer), and the two builds together would take
# longer than the full one alone for little gain.
LEAN_MIN_PAPERS = max(5000, PARALLEL_MIN_PAPERS)


def wants_lean(papers: int) -> bool:
    """Whether a first build of `papers` papers serves a lean index first."""
    return papers >= LEAN_MIN_PAPERS


def build_lean(
    folder: Path,
    token: str,
    papers: Sequence[Paper],
    progress: Progress | None,
) -> tuple[Path, IO[str] | None, float] | None:
    """Builds the lean index of `papers` into `folder/preview-<token>`: its path, the hold
    on its folder (for the caller to let go once the index is open) and the seconds it
    took; None when it failed (logged: the full build goes on and serves when done).

    A large library is built by a build process with two writer workers, as a full build
    is (`index.store.child`), at the caller's priority: nothing else is searchable yet.
    Its posting blocks are not compressed: the index lives one build.
    """
    started = time.perf_counter()
    path = folder / f"preview-{token}"
    try:
        path.mkdir()
    except OSError as error:
        log.warning("no lean index in %s: %s", folder, error)
        return None
    holding = hold_folder(path)  # a sweep by another start never deletes it meanwhile
    try:
        if len(papers) >= PARALLEL_MIN_PAPERS and sys.executable:
            procs = 2 if (os.cpu_count() or 1) > 1 and hasattr(os, "fork") else 1
            build_in_child(path, papers, progress, procs, compressed=False, lean=True)
        else:
            build_into(path, papers, progress, compressed=False, lean=True)
    except Exception as error:  # the lean index is a nicety; never fail the build
        log.warning("no lean index at %s: %s", path, error)
        if holding is not None:
            holding.close()
        return None
    return path, holding, time.perf_counter() - started
