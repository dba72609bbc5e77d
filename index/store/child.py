"""A large build runs in a fresh, small interpreter that is fed the papers as a stream.

Why a separate process: the caller holds the whole library (781 MB of `Paper` objects at
100,000 papers), and Whoosh's multi-process writer forks. Forking the caller copied that
library into every worker's address space, and forking a process that already runs
threads (the app does) can deadlock (Python 3.12+ warns). A fresh interpreter started with
`subprocess` (fork+exec, safe with threads) holds only the index being written; its own
writer workers then fork from it, small and single-threaded.

The protocol: parent to child on stdin, the job as one JSON line (folder, paper count,
processes, niceness, compression), then the papers as pickles of up to `FRAME_PAPERS`
papers each (`paper_frames`). The job comes first, not on the command line, so that a
`BuildProcess` can be started before its papers are known: an early sample's index is then
built by an interpreter whose imports are done. The papers were one `paper_json` line each:
encoding and decoding them was ~3 s of CPU at 20,000 papers for each build, on the way to
the lean index; pickled, ~0.6 s (the child computes the stored JSON itself, only for a full
build, from the same values). Child to parent on stdout: `progress DONE TOTAL` lines, then
`done {json}` with the build tree's peak memory. Anything else the child prints goes to a
temporary file whose last line becomes the one-line error when the build fails.

A build told where to publish (`Publish`) publishes itself (`index.store.publish`), and
can be left to finish alone (`LeaveBuilds`: the app quit during a first build, and the
terminal is the user's again at once). The papers not yet sent are then written to a
spool file beside the index and the child is sent `("rest", path)` in their place; it
inherited the build lock's descriptor, so no other start builds the same index until it
has published; it ignores the hang-up of the terminal it was started from.
"""

from __future__ import annotations

import json
import os
import pickle
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from index.models import Paper
from index.store.leaving import BuildDetached, LeaveBuilds

Progress = Any  # index.store.writer.Progress (the writer imports this module, not back)

# Started by the parent: restores its import path (as multiprocessing's "spawn" does), so
# the child imports the very `index` package and Whoosh the caller uses, never one that
# happens to sit in the current directory.
_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from index.store.child_main import main; main()"
)
# Builds of at most this many papers are encoded whole before they are written (`_feed`).
_ENCODED_AT_ONCE = 5000
# Papers per pickle of the stream (`paper_frames`): the child reads and builds a frame at a
# time, and the parent checks between frames whether it was told to leave.
FRAME_PAPERS = 256
# What a frame holds in place of papers when the rest are in a spool file (`_spool_rest`).
REST = "rest"
# Seconds the child gets to clean up after its input is cut off, before it is killed.
_GRACE_S = 10.0


class BuildFailed(RuntimeError):
    """The build process failed; the message is its last line of output, one line."""


@dataclass(frozen=True)
class Publish:
    """Where a build process publishes what it built (`index.store.publish.finish_build`).

    Attributes:
        folder: the library's index folder; the build is `build-<token>` in it.
        token: the build's token.
        manifest: what the index depends on, written with it.
        lock_fd: this process's descriptor of the folder's build lock, inherited by the
            build process so the lock outlives this process (None: no locking here).
    """

    folder: str
    token: str
    manifest: dict[str, Any]
    lock_fd: int | None = None


def paper_frames(papers: Sequence[Paper]) -> Iterator[bytes]:
    """The papers as the build process reads them: pickles of up to `FRAME_PAPERS` each.

    Pickled, not JSON: the child needs the papers themselves (and the stored JSON only for
    a full build, which it computes from these very values, so it is the caller's to the
    byte), and a pickle of the slotted records (`reduce_by_fields`) is ~5x quicker to make
    and to read than `paper_json` and `Paper.from_dict`. The stream never leaves this
    user's processes and cache folder, like the library cache's pickles.
    """
    for start in range(0, len(papers), FRAME_PAPERS):
        frame = list(papers[start : start + FRAME_PAPERS])
        yield pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL)


def _feed(
    pipe: IO[bytes],
    job: str,
    papers: Sequence[Paper],
    encoded: threading.Event,
    detached: threading.Event,
    spool: Path | None,
) -> None:
    """Writes the job and the papers to the child; stops quietly when the child has gone.

    `encoded` is set once every paper is encoded (only writing is left, which holds no
    GIL), or when the feed ends. A small build's papers are encoded at once, not as the
    child reads them, so a caller waiting for that does not wait on the child's pace.
    When `detached` is set (and there is a `spool` file to write), the papers not yet
    sent go to that file, and the child is told to read them there (`REST`).
    """
    try:
        with pipe:
            frames = paper_frames(papers)
            if len(papers) <= _ENCODED_AT_ONCE:
                frames = iter(list(frames))
                encoded.set()
            pipe.write(job.encode("utf-8") + b"\n")
            for frame in frames:
                pipe.write(frame)
                if detached.is_set() and spool is not None:
                    _spool_rest(pipe, spool, frames)
                    return
    except (BrokenPipeError, OSError, ValueError):
        pass  # the child died or was stopped: its exit status says why
    finally:
        encoded.set()


def _spool_rest(pipe: IO[bytes], spool: Path, frames: Iterator[bytes]) -> None:
    """The papers not yet sent, into `spool`, and the child told to read them there."""
    with open(spool, "wb") as rest:
        for frame in frames:
            rest.write(frame)
    pipe.write(pickle.dumps((REST, os.fspath(spool)), protocol=pickle.HIGHEST_PROTOCOL))


def _last_line(log: IO[bytes]) -> str:
    log.seek(0)
    lines = [line.strip() for line in log.read().decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1] if lines else "no output"


class BuildProcess:
    """A build interpreter, started now and given its build later (`build`).

    Starting one costs ~0.2 s (the interpreter and the writer's imports). A caller that
    knows a build will come (a big first load will hand out an early sample) starts it
    ahead, while it waits for other work; `close` stops one that was never needed.
    """

    def __init__(self, keep_fd: int | None = None) -> None:
        """Starts the interpreter; `keep_fd`, a descriptor it inherits (the build lock).

        Raises:
            BuildFailed: it could not start (one-line message).
        """
        self._log = tempfile.TemporaryFile()
        command = [sys.executable, "-c", _BOOT, json.dumps(sys.path)]
        try:
            self._child = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                close_fds=True,
                pass_fds=() if keep_fd is None else (keep_fd,),
            )
        except OSError as error:
            self._log.close()
            raise BuildFailed(f"cannot start the build process: {error}") from None
        self._used = False
        # Set once the build's papers are encoded for the child (`_feed`): a caller that
        # would hold this process's GIL for a while (a load's next step) can wait for it,
        # so the build gets its papers at once.
        self.encoded = threading.Event()

    @property
    def pid(self) -> int:
        return self._child.pid

    def build(
        self,
        path: Path,
        papers: Sequence[Paper],
        progress: Progress | None,
        procs: int,
        nice: int = 0,
        *,
        compressed: bool = True,
        publish: Publish | None = None,
        leave: LeaveBuilds | None = None,
        lean: bool = False,
    ) -> dict[str, float] | None:
        """`build_in_child` in this process (once); see there."""
        if self._used:
            raise BuildFailed("the build process was used or closed already")
        self._used = True
        child = self._child
        assert child.stdin is not None and child.stdout is not None
        job: dict[str, Any] = {
            "path": str(path),
            "total": len(papers),
            "procs": procs,
            "nice": nice,
            "compressed": compressed,
            "lean": lean,
        }
        spool = None
        if publish is not None:
            job["publish"] = asdict(publish)
            spool = Path(publish.folder) / f"rest-{publish.token}.pickle"
        # Only a build that publishes itself can be left (and is counted by `leave`).
        leavable = leave if publish is not None else None
        left = leavable.waiting() if leavable is not None else threading.Event()
        feeder = threading.Thread(
            target=_feed,
            args=(child.stdin, json.dumps(job), papers, self.encoded, left, spool),
            name="paperscope-build-feed",
            daemon=True,
        )
        feeder.start()
        lines: queue.Queue[bytes | None] = queue.Queue()
        reader = threading.Thread(
            target=_read_lines, args=(child.stdout, lines), name="paperscope-build-out", daemon=True
        )
        reader.start()
        result: dict[str, float] | None = None
        finished = False
        try:
            while True:
                if left.is_set():
                    feeder.join()  # the rest of the papers spooled: the child has them all
                    raise BuildDetached
                try:
                    raw = lines.get(timeout=0.05 if spool is not None else None)
                except queue.Empty:
                    continue
                if raw is None:
                    break
                kind, _, rest = raw.decode("utf-8", "replace").strip().partition(" ")
                if kind == "progress" and progress is not None:
                    done, total = rest.split()
                    progress(int(done), int(total))
                elif kind == "done":
                    result, finished = json.loads(rest), True
            code = child.wait()
        except BuildDetached:
            self._log.close()  # the child keeps its own copy of the log file
            raise
        except BaseException:
            _stop(child)
            raise
        finally:
            if leavable is not None:
                leavable.done_waiting()
            if not left.is_set():
                child.stdout.close()
                feeder.join()
        try:
            if code != 0 or not finished:
                raise BuildFailed(
                    f"the build process failed (exit {code}): {_last_line(self._log)}"
                )
        finally:
            self._log.close()
        return result

    def close(self) -> None:
        """Stops the process if it was never given a build (it exits on its closed input)."""
        if self._used:
            return
        self._used = True
        self.encoded.set()
        _stop(self._child)
        if self._child.stdout is not None:
            self._child.stdout.close()
        self._log.close()


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """The child's output lines into `lines`, then None at its end (a closed pipe too)."""
    try:
        for raw in stream:
            lines.put(raw)
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


def build_in_child(
    path: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    procs: int,
    nice: int = 0,
    *,
    compressed: bool = True,
    process: BuildProcess | None = None,
    publish: Publish | None = None,
    leave: LeaveBuilds | None = None,
    lean: bool = False,
) -> dict[str, float] | None:
    """Builds the index of `papers` into the empty folder `path` in a fresh interpreter.

    `nice` > 0 lowers the build's priority by that much (its writer workers inherit it):
    work in the caller's process (a preview index, the app's own drawing) goes first.
    `compressed`: as for `index.store.writer.build_into` (False for a sample's index).
    `process`: an interpreter started ahead for this build (`BuildProcess`); a new one
    is started if None. `publish`: the child publishes the build itself, inheriting the
    build lock (`Publish.lock_fd`), and can be left to it (`leave`). `lean`: a lean first
    index (`index.store.lean`).

    Returns the build process tree's peak memory as the child measured it.

    Raises:
        BuildFailed: the child failed or could not start (one-line message).
        BuildDetached: the caller stopped waiting; the child finishes and publishes.
    """
    if process is None:
        process = BuildProcess(publish.lock_fd if publish is not None else None)
    return process.build(
        path,
        papers,
        progress,
        procs,
        nice,
        compressed=compressed,
        publish=publish,
        leave=leave,
        lean=lean,
    )


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
