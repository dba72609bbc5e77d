"""A sync of the page index in a spawned, niced child process: never in the UI's way.

Most of a large sync is Whoosh writing postings in Python (358 s wall, 133 s CPU for
44,985 pages): run on a thread of the app, it held the GIL against the UI for minutes. In
a child it competes with the app only for a core, at a lower priority. The child is
started as the extraction workers are (index.fulltext.pool): the `spawn` context (the app
runs threads, so no fork), `nice` 10, its output sent to /dev/null so nothing is drawn
over the app's screen.

The caller's thread only waits, looking at `cancelled()` every `POLL` seconds; when it
says so the child is terminated at once (a sync commits atomically: the page index is
the old one or the new one, never half of one; `synced.json` is removed before a commit,
so a record never describes an index it did not see). A child whose parent dies (killed,
not quitting) notices its pipe closing and exits.

Only a paper's id and attachments cross to the child (all a sync reads of a paper), and a
sync with nothing to do is answered here without a child (`recorded_sync`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from index.background import become_background
from index.fulltext.page_index import FulltextSync, recorded_sync
from index.models import Paper

__all__ = ["SYNC_NICENESS", "SyncFailed", "sync_in_child"]

# As the extraction workers (index.fulltext.pool): the app's keystrokes come first.
SYNC_NICENESS = 10
# Seconds between looks at `cancelled()` while the child writes.
POLL = 0.05
# Seconds a terminated child gets before it is killed.
_TERM_GRACE = 0.5

Light = tuple[tuple[str, tuple[str, ...]], ...]


class SyncFailed(RuntimeError):
    """The child failed; the message is its error, one line."""


def _light(papers: Sequence[Paper]) -> Light:
    return tuple((paper.id, tuple(paper.attachments)) for paper in papers)


def _watch_parent(conn: Connection) -> None:
    """In the child: exit when the parent's end of the pipe closes (the parent died)."""
    try:
        conn.recv()
    except (EOFError, OSError):
        pass
    os._exit(1)


def _child(cache_dir: str, light: Light, conn: Connection) -> None:
    """The child's work: yield to the app, write nothing to its terminal, sync, answer."""
    become_background(SYNC_NICENESS)
    threading.Thread(target=_watch_parent, args=(conn,), daemon=True).start()
    from index.fulltext.page_index import sync_fulltext

    papers = [Paper(id=pid, title="", attachments=files) for pid, files in light]
    try:
        result: object = sync_fulltext(Path(cache_dir), papers)
    except Exception as error:  # one line for the caller, never a traceback
        result = f"{type(error).__name__}: {error}".splitlines()[0]
    conn.send(result)


def sync_in_child(
    cache_dir: Path,
    papers: Sequence[Paper],
    *,
    cancelled: Callable[[], bool] | None = None,
) -> FulltextSync:
    """`sync_fulltext(cache_dir, papers)` in a child process; this thread only waits.

    Returns at once, without a child, when nothing changed since the last sync; within
    about `POLL` + `_TERM_GRACE` seconds of `cancelled()` turning true (then
    `FulltextSync(cancelled=True)`, the page index as it was or as the child committed).

    Raises:
        SyncFailed: the child could not start, failed, or died (one-line message).
    """
    stop = cancelled or (lambda: False)
    known = recorded_sync(Path(cache_dir), papers)
    if known is not None:
        return known
    if stop():
        return FulltextSync(cancelled=True)
    context = get_context("spawn")
    mine, theirs = context.Pipe()
    process = context.Process(
        target=_child,
        args=(str(cache_dir), _light(papers), theirs),
        name="paperscope-fulltext-sync",
        daemon=True,  # ended by multiprocessing when the app exits, if still running
    )
    try:
        process.start()
    except (OSError, ValueError) as error:
        raise SyncFailed(f"cannot start the full-text sync: {error}") from None
    finally:
        theirs.close()
    try:
        while True:
            if stop():
                _end(process)
                return FulltextSync(cancelled=True)
            if mine.poll(POLL):
                try:
                    result = mine.recv()
                except (EOFError, OSError):
                    result = None
                break
            if not process.is_alive() and not mine.poll(0):
                result = None
                break
        process.join(_TERM_GRACE)
    finally:
        mine.close()
        if process.is_alive():
            _end(process)
    if isinstance(result, FulltextSync):
        return result
    if isinstance(result, str):
        raise SyncFailed(f"the full-text sync failed: {result}")
    raise SyncFailed(f"the full-text sync process died (exit {process.exitcode})")


def _end(process: BaseProcess) -> None:
    """Terminate the child now; kill it if it has not gone within `_TERM_GRACE`."""
    try:
        process.terminate()
        process.join(_TERM_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
    except (OSError, ValueError, AttributeError):
        pass
