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
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from index.models import Paper
from index.schema.fields import paper_json

Progress = Any  # index.store.writer.Progress; not imported here to keep the child's import small

# Started by the parent: restores its import path (as multiprocessing's "spawn" does), so
# the child imports the very `index` package and Whoosh the caller uses, never one that
# happens to sit in the current directory.
_BOOT = ("import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
         "from index.store.child import main; main(sys.argv[2:])")
# Seconds the child gets to clean up after its input is cut off, before it is killed.
_GRACE_S = 10.0


class BuildFailed(RuntimeError):
    """The build process failed; the message is its last line of output, one line."""


def _own_peak_kb() -> float | None:
    """This process's peak resident set since its exec, in kB (Linux), else None.

    `ru_maxrss` is no good for a process its parent started: Linux carries the pre-exec
    high-water mark over the exec, so the build process "peaked" at the caller's whole
    library (492 MB at 100,000 papers, when it never went past ~50 MB). `VmHWM` belongs
    to the process's own address space, which the exec replaced.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return float(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def peak_rss_mb() -> dict[str, float] | None:
    """This process's peak RSS and its largest finished child's, in MB (None off POSIX).

    The method of benchmarks/measure.py (their sum is the build's peak), with this
    process's own peak from `VmHWM` where there is one. The sum is an upper bound: a
    forked worker shares pages with its parent and the two need not peak together.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss units
    own = _own_peak_kb()
    if own is None:
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / scale
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / scale
    return {"self_mb": round(own / 1024, 1), "children_mb": round(children / 1024, 1)}


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


def build_in_child(path: Path, papers: Sequence[Paper], progress: Progress | None,
                   procs: int) -> dict[str, float] | None:
    """Builds the index of `papers` into the empty folder `path` in a fresh interpreter.

    Returns the build process tree's peak memory as the child measured it.

    Raises:
        BuildFailed: the child failed or could not start (one-line message).
    """
    command = [sys.executable, "-c", _BOOT, json.dumps(sys.path), str(path),
               str(len(papers)), str(procs)]
    with tempfile.TemporaryFile() as log:
        try:
            child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=log, close_fds=True)
        except OSError as error:
            raise BuildFailed(f"cannot start the build process: {error}") from None
        assert child.stdin is not None and child.stdout is not None
        feeder = threading.Thread(target=_feed, args=(child.stdin, papers),
                                  name="paperscope-build-feed", daemon=True)
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


def _read_papers(stream: IO[bytes], total: int) -> Iterator[tuple[Paper, str]]:
    """The parent's papers with their JSON (the stored field, so digests match exactly)."""
    for _ in range(total):
        line = stream.readline()
        if not line:
            raise EOFError("the library stream ended early")
        text = line.decode("utf-8", "surrogatepass").rstrip("\n")
        yield Paper.from_dict(json.loads(text)), text


def main(argv: Sequence[str]) -> None:
    """The child's entry point: build, then report peak memory; any failure is one line."""
    from index.store.writer import build_into  # noqa: PLC0415 - after sys.path is restored

    path, total, procs = Path(argv[0]), int(argv[1]), int(argv[2])
    out = sys.stdout

    def report(done: int, all_: int) -> None:
        out.write(f"progress {done} {all_}\n")
        out.flush()

    try:
        build_into(path, _read_papers(sys.stdin.buffer, total), report, total=total,
                   procs=procs)
    except BaseException as error:  # noqa: BLE001 - reported to the parent as one line
        message = " ".join(str(error).split()) or type(error).__name__
        sys.stderr.write(f"{type(error).__name__}: {message}\n")
        sys.stderr.flush()
        os._exit(1)  # skip joining Whoosh's worker processes: build_into stopped them
    out.write(f"done {json.dumps(peak_rss_mb())}\n")
    out.flush()
