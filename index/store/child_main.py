"""The build process's own side: read the papers from stdin, build, report on stdout.

`index.store.child` starts this in a fresh interpreter (see there for why and for the
line protocol); it is a module of its own so the parent side never imports the writer's
caller and the writer never imports this (no cycle: child_main -> writer -> child).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from index.models import Paper
from index.store.writer import build_into

__all__ = ["main", "peak_rss_mb"]


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


def _read_papers(stream: IO[bytes], total: int) -> Iterator[tuple[Paper, str]]:
    """The parent's papers with their JSON (the stored field, so digests match exactly)."""
    for _ in range(total):
        line = stream.readline()
        if not line:
            raise EOFError("the library stream ended early")
        text = line.decode("utf-8", "surrogatepass").rstrip("\n")
        yield Paper.from_dict(json.loads(text)), text


def main() -> None:
    """The child's entry point: wait for the job, build, then report peak memory; any
    failure is one line.

    The job is the first line on stdin (`index.store.child.BuildProcess`), so a process
    can be started, and its imports done, before its papers are known. A process whose
    input ends before a job was sent was not needed: it exits quietly.
    """
    line = sys.stdin.buffer.readline()
    if not line:
        return
    job = json.loads(line)
    path, total, procs = Path(job["path"]), int(job["total"]), int(job["procs"])
    compressed = bool(job["compressed"])
    if int(job["nice"]) > 0 and hasattr(os, "nice"):
        os.nice(int(job["nice"]))  # before the writer workers fork: they inherit it
    out = sys.stdout

    def report(done: int, all_: int) -> None:
        out.write(f"progress {done} {all_}\n")
        out.flush()

    try:
        papers = _read_papers(sys.stdin.buffer, total)
        build_into(path, papers, report, total=total, procs=procs, compressed=compressed)
    except BaseException as error:
        message = " ".join(str(error).split()) or type(error).__name__
        sys.stderr.write(f"{type(error).__name__}: {message}\n")
        sys.stderr.flush()
        os._exit(1)  # skip joining Whoosh's worker processes: build_into stopped them
    out.write(f"done {json.dumps(peak_rss_mb())}\n")
    out.flush()
