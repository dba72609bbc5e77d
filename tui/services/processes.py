"""What worker processes need from the terminal, taken before the app takes the terminal.

A load in the app parses and tags in spawned worker interpreters (index.library.parallel).
multiprocessing starts a helper process, its resource tracker, on first use and hands it
`sys.stderr`'s file descriptor. Inside a running Textual app `sys.stderr` is Textual's
print capture, whose `fileno()` is -1: the tracker failed to start ("bad value(s) in
fds_to_keep"), the load's pool gave up quietly and the whole first load ran on one core
(found with py-spy on the real exports: 4.6 s of parsing in the app's own process).
Started before the app runs, the tracker gets a real descriptor (its output goes to
/dev/null, as every background process's does).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from index.facets.taxonomy import Taxonomy
    from index.library.parallel import LoadPool

__all__ = ["start_load_workers", "start_worker_support", "stop_load_workers"]


def start_worker_support() -> None:
    """Start multiprocessing's resource tracker now (POSIX; it stays for the session).

    Importing multiprocessing costs ~20 ms, so only a start that will load a library in
    the app calls this, not a start on a current index.
    """
    if os.name != "posix":
        return
    from multiprocessing import resource_tracker

    # Its stderr is /dev/null, as for every background process (index.background): a
    # start handed off mid-load ends with `os._exit`, its load's pool never closed, and the
    # tracker printed "There appear to be 5 leaked semaphore objects" over the shell's
    # prompt. The child inherits descriptor 2 whatever `sys.stderr` is, so that is swapped
    # for the spawn (before the app: nothing else writes meanwhile).
    terminal = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(terminal, 2)
        os.close(terminal)
        os.close(devnull)


def start_load_workers(files: Sequence[str], taxonomy: Taxonomy) -> LoadPool | None:
    """The worker interpreters for a first start's load of `files` (`library_files`: the
    paths as text), started now, while Textual is imported and the app starts (the real
    exports' first rows come ~0.1 s sooner); None when the files are too small for the
    load to use workers.

    The caller hands the pool to the load (`index.load_library`'s `pool`), which stops
    it. Call `start_worker_support` first: the workers' start uses the resource tracker.
    """
    from index.library.parallel import PARALLEL_MIN_BYTES, LoadPool, file_bytes

    if sum(file_bytes(Path(name)) for name in files) < PARALLEL_MIN_BYTES:
        return None
    pool = LoadPool(taxonomy)
    pool.start_workers()
    return pool


def stop_load_workers() -> None:
    """Kill this process's load workers, at once: a first start handed to a process of its
    own exits without stopping its load (index.store.finish_alone).

    Left alone they would wait for work for ever, sleeping in the user's terminal: each
    worker holds the writing end of its task queue too, so it never sees the queue end.
    """
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is None:  # never imported: no worker was started
        return
    for child in multiprocessing.active_children():
        child.kill()
