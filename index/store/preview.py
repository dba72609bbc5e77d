"""While a big library's first index is built, a small index of a sample serves searches.

A first build of 20,000 papers takes about a minute on two cores; the user should not
stare at a progress bar meanwhile. Beside the full build (a separate process, see
`index.store.child`), this process indexes an even sample of `PREVIEW_PAPERS` papers
(a few seconds) into `preview-<token>/` and hands it over: the app searches it, says
"results so far", and switches to the full index once it is published. The full build is
the ordinary one, so its results are exactly a one-shot build's; the preview is thrown
away (its folder is removed once no process holds it, see `index.store.generations`).

The sample is spread over the whole library, not its first file, so "results so far"
show every part of it: each topic, venue and year roughly in proportion.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from index.library.early_sample import even_spread
from index.models import Paper
from index.store.child import BuildProcess, build_in_child
from index.store.writer import PARALLEL_MIN_PAPERS, build_into

__all__ = [
    "PREVIEW_MIN_PAPERS",
    "PREVIEW_PAPERS",
    "build_preview",
    "preview_sample",
    "start_preview",
]

log = logging.getLogger("paperscope.index")

# Papers in the preview: ~3-6 s to index beside the full build's two writer processes.
PREVIEW_PAPERS = 1000
# Smaller libraries are built in well under 15 s (index.store.writer): no preview.
PREVIEW_MIN_PAPERS = max(5000, PARALLEL_MIN_PAPERS)


def preview_sample(papers: Sequence[Paper]) -> list[Paper]:
    """An even spread of `PREVIEW_PAPERS` of the papers, in library order ([] if small)."""
    total = len(papers)
    if total < PREVIEW_MIN_PAPERS:
        return []
    return even_spread(papers, PREVIEW_PAPERS)


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


def start_preview(
    path: Path, sample: Sequence[Paper], ready: Callable[[Path | None], None]
) -> threading.Thread:
    """`build_preview` in a thread, then `ready` with its result."""
    thread = threading.Thread(
        target=lambda: ready(build_preview(path, sample)), name="paperscope-preview", daemon=True
    )
    thread.start()
    return thread
