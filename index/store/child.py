"""A large build runs in a fresh, small interpreter that is fed the papers as a stream.

Why a separate process: the caller holds the whole library (781 MB of `Paper` objects at
100,000 papers), and Whoosh's multi-process writer forks. Forking the caller copied that
library into every worker's address space, and forking a process that already runs
threads (the app does) can deadlock (Python 3.12+ warns). A fresh interpreter started with
`subprocess` (fork+exec, safe with threads) holds only the index being written; its own
writer workers then fork from it, small and single-threaded.

The protocol is lines of text. Parent to child on stdin: one `paper_json` line per paper.
Child to parent on stdout: `progress DONE TOTAL` lines, then `done {json}` with the build
tree's peak memory. Anything else the child prints goes to a temporary file whose last
line becomes the one-line error when the build fails.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from index.models import Paper
from index.schema.fields import paper_json

Progress = Any  # index.store.writer.Progress (the writer imports this module, not back)

# Started by the parent: restores its import path (as multiprocessing's "spawn" does), so
# the child imports the very `index` package and Whoosh the caller uses, never one that
# happens to sit in the current directory.
_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from index.store.child_main import main; main(sys.argv[2:])"
)
# Seconds the child gets to clean up after its input is cut off, before it is killed.
_GRACE_S = 10.0


class BuildFailed(RuntimeError):
    """The build process failed; the message is its last line of output, one line."""


def _feed(pipe: IO[bytes], papers: Sequence[Paper]) -> None:
    """Writes the papers to the child; stops quietly when the child has gone."""
    try:
        with pipe:
            chunk: list[bytes] = []
            for paper in papers:
                chunk.append(paper_json(paper).encode("utf-8", "surrogatepass") + b"\n")
                if len(chunk) == 256:
                    pipe.write(b"".join(chunk))
                    chunk = []
            pipe.write(b"".join(chunk))
    except (BrokenPipeError, OSError, ValueError):
        pass  # the child died or was stopped: its exit status says why


def _last_line(log: IO[bytes]) -> str:
    log.seek(0)
    lines = [line.strip() for line in log.read().decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1] if lines else "no output"


def build_in_child(
    path: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    procs: int,
    nice: int = 0,
    *,
    compressed: bool = True,
) -> dict[str, float] | None:
    """Builds the index of `papers` into the empty folder `path` in a fresh interpreter.

    `nice` > 0 lowers the build's priority by that much (its writer workers inherit it):
    work in the caller's process (a preview index, the app's own drawing) goes first.
    `compressed`: as for `index.store.writer.build_into` (False for a sample's index).

    Returns the build process tree's peak memory as the child measured it.

    Raises:
        BuildFailed: the child failed or could not start (one-line message).
    """
    command = [
        sys.executable,
        "-c",
        _BOOT,
        json.dumps(sys.path),
        str(path),
        str(len(papers)),
        str(procs),
        str(nice),
        str(int(compressed)),
    ]
    with tempfile.TemporaryFile() as log:
        try:
            child = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, close_fds=True
            )
        except OSError as error:
            raise BuildFailed(f"cannot start the build process: {error}") from None
        assert child.stdin is not None and child.stdout is not None
        feeder = threading.Thread(
            target=_feed, args=(child.stdin, papers), name="paperscope-build-feed", daemon=True
        )
        feeder.start()
        result: dict[str, float] | None = None
        finished = False
        try:
            for raw in child.stdout:
                kind, _, rest = raw.decode("utf-8", "replace").strip().partition(" ")
                if kind == "progress" and progress is not None:
                    done, total = rest.split()
                    progress(int(done), int(total))
                elif kind == "done":
                    result, finished = json.loads(rest), True
            code = child.wait()
        except BaseException:
            _stop(child)
            raise
        finally:
            child.stdout.close()
            feeder.join()
        if code != 0 or not finished:
            raise BuildFailed(f"the build process failed (exit {code}): {_last_line(log)}")
    return result


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Cuts the child's input so it cancels its writer and workers; kills it if it hangs."""
    try:
        if child.stdin is not None:
            child.stdin.close()
    except OSError:
        pass
    try:
        child.wait(_GRACE_S)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
