"""The build process's own side: read the papers from stdin, build, report on stdout.

`index.store.child` starts this in a fresh interpreter (see there for why and for the
line protocol); it is a module of its own so the parent side never imports the writer's
caller and the writer never imports this (no cycle: child_main -> writer -> child).
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from index.models import Paper
from index.store.child import REST
from index.store.publish import finish_build
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


def _read_papers(stream: IO[bytes], total: int) -> Iterator[Paper]:
    """The parent's papers, read from its frames (`index.store.child.paper_frames`).

    A frame `(REST, path)` in their place says the parent stopped feeding (it is exiting:
    `index.store.leaving.LeaveBuilds`) and wrote the remaining frames to that file.
    """
    rest: IO[bytes] | None = None
    read = 0
    try:
        while read < total:
            try:
                frame = pickle.load(rest or stream)
            except EOFError:
                raise EOFError("the library stream ended early") from None
            if rest is None and isinstance(frame, tuple) and frame[:1] == (REST,):
                rest = open(frame[1], "rb")
                try:
                    os.unlink(frame[1])  # the open file stays readable; nothing is left behind
                except OSError:
                    pass  # Windows keeps an open file: the next build sweeps it
                continue
            yield from frame
            read += len(frame)
    finally:
        if rest is not None:
            rest.close()


def _workers_die_with_this_process(lock_fd: int | None) -> None:
    """Whoosh's writer workers, forked from here, end when this process does, holding
    nothing of its own.

    A build killed half-way (a SIGKILL, the OOM killer) left its two workers waiting on
    their queues for ever, and a build left to finish alone hands them the inherited
    build lock's descriptor, which would keep every later start from building. Each
    worker closes that descriptor (the lock stays this process's) and, on Linux, asks to
    be killed when this process dies (`PR_SET_PDEATHSIG`).
    """

    def in_worker() -> None:
        if lock_fd is not None:
            try:
                os.close(lock_fd)
            except OSError:
                pass
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            except (OSError, AttributeError):
                pass

    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=in_worker)


def main() -> None:
    """The child's entry point: wait for the job, build, then report peak memory; any
    failure is one line.

    The job is the first line on stdin (`index.store.child.BuildProcess`), so a process
    can be started, and its imports done, before its papers are known. A process whose
    input ends before a job was sent was not needed: it exits quietly.
    """
    if hasattr(signal, "SIGHUP"):
        # A build left to finish alone (the app quit) outlives the terminal it started in.
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    line = sys.stdin.buffer.readline()
    if not line:
        return
    job = json.loads(line)
    path, total, procs = Path(job["path"]), int(job["total"]), int(job["procs"])
    compressed = bool(job["compressed"])
    publish = job.get("publish")
    _workers_die_with_this_process(publish.get("lock_fd") if publish else None)
    if int(job["nice"]) > 0 and hasattr(os, "nice"):
        os.nice(int(job["nice"]))  # before the writer workers fork: they inherit it
    out = sys.stdout
    listening = [True]  # False once the parent has gone (it quit: the build goes on)

    def say(line: str) -> None:
        if not listening[0]:
            return
        try:
            out.write(line + "\n")
            out.flush()
        except (BrokenPipeError, OSError, ValueError):
            listening[0] = False

    def report(done: int, all_: int) -> None:
        say(f"progress {done} {all_}")

    try:
        papers = _read_papers(sys.stdin.buffer, total)
        lean = bool(job.get("lean", False))
        build_into(path, papers, report, total=total, procs=procs, compressed=compressed, lean=lean)
        if publish is not None:
            folder = Path(publish["folder"])
            finish_build(folder, str(publish["token"]), publish["manifest"])
    except BaseException as error:
        message = " ".join(str(error).split()) or type(error).__name__
        sys.stderr.write(f"{type(error).__name__}: {message}\n")
        sys.stderr.flush()
        os._exit(1)  # skip joining Whoosh's worker processes: build_into stopped them
    say(f"done {json.dumps(peak_rss_mb())}")
