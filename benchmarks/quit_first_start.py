"""Quitting during a first start: seconds from `q` to the shell prompt, at each step.

Issue 50 asks that `q` during a first start gives the terminal back within a second at any
point and at any library size, the start finished by a process of its own
(`index.store.finish_alone`) or its build process. This starts the installed `paperscope
--corpus FILES` in a tmux pane with empty cache, data and config folders (the XDG ones,
so no path of the user's is touched), waits until the status line shows the chosen step
of the load ("Reading files", "Merging duplicates", "Tagging", "Indexing"), presses `q`
and polls the pane until the line the shell prints after the command shows. It then asks
tmux whether the terminal was left as it was (no alternate screen, no mouse reporting,
the cursor shown) and, with `--finish`, waits for the processes the start left (the
finisher, a build process) and says how long they took; without it they are killed, so
the next run has the machine to itself.

A step that passes before the screen shows it is skipped (a small file is read in an
instant): the row says what was on screen when `q` was pressed ("done": rows and no step,
the start was over).

Each library is measured by every `--code` in turn (a folder holding `index/`, `tui/`
and `assets/`, e.g. `git archive BASE index tui assets | tar -x -C SNAPSHOT`, put first
on PYTHONPATH); the first is the baseline and each row gives the median's ratio to it.
`--synth N` adds a generated library of N arXiv-style papers in 10 JSONL files
(`first_start.write_inputs`).

    python benchmarks/quit_first_start.py [FILE.bib ...] [--synth 20000] \
        [--code BASE --code NEW] [--steps reading,merging,tagging,indexing] [--runs 1] \
        [--after SECONDS] [--finish] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import first_start

# What the status line leads with during each step of a first start (tui.view.facets).
STEPS = {
    "reading": r"Reading files",
    "merging": r"Merging duplicates",
    "tagging": r"Tagging",
    "indexing": r"Indexing|Writing the index",
}
# Printed by the pane's shell once the command has ended: the prompt is back.
BACK = "QUIT-BENCH-PROMPT-BACK"
# tmux's view of the terminal's modes after the app: all as a shell expects them.
MODES = "#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag} #{cursor_flag}"
MODES_RESTORED = "0 0 0 1"


def _pane(socket: str, *args: str) -> str:
    done = subprocess.run(
        ["tmux", "-L", socket, *args], capture_output=True, text=True, check=False
    )
    return done.stdout


def _left_processes(tag: str) -> list[int]:
    """This machine's processes whose environment holds `tag` (the run's own folder):
    the finisher and build processes a start leaves, and nothing of anyone else's."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if tag.encode() in environ:
            found.append(int(entry.name))
    return found


def _wait_gone(tag: str, timeout: float) -> float | None:
    """Seconds until every process left by the run has ended (None: killed at `timeout`)."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if not _left_processes(tag):
            return time.perf_counter() - start
        time.sleep(0.2)
    _kill_left(tag)
    return None


def _kill_left(tag: str) -> None:
    for pid in _left_processes(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def quit_once(
    files: list[Path],
    code: Path | None,
    step: str,
    work: Path,
    timeout: float,
    finish: bool,
    after: float = 0.0,
) -> dict[str, Any]:
    """One first start from empty folders, `q` at `step` (`after` seconds into it): the
    seconds to the prompt."""
    paperscope = Path(sys.executable).with_name("paperscope")
    tag = f"quit-{uuid.uuid4().hex[:10]}"
    base = work / tag
    env = {
        "XDG_CACHE_HOME": str(base / "cache"),
        "XDG_DATA_HOME": str(base / "data"),
        "XDG_CONFIG_HOME": str(base / "config"),
        "TERM": "xterm-256color",
    }
    if code is not None:
        env["PYTHONPATH"] = str(code)
    unset = "-u PYTHONDONTWRITEBYTECODE -u PAPERSCOPE_CACHE_DIR -u PAPERSCOPE_DATA_DIR"
    prefix = f"env {unset} -u PAPERSCOPE_CONFIG " + " ".join(f"{k}={v}" for k, v in env.items())
    corpus = " ".join(f"--corpus {path}" for path in files)
    command = f"{prefix} {paperscope} {corpus}; echo {BACK}; exec sleep 3600"
    socket = f"quit-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    subprocess.run(
        # Started outside any checkout, as in startup.py: PYTHONPATH is what runs.
        [*tmux, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "36"]
        + ["-c", tempfile.gettempdir(), "--", "sh", "-c", command],
        check=True,
    )
    steps = re.compile("|".join(STEPS.values()))
    order = list(STEPS)
    later = re.compile("|".join(STEPS[name] for name in order[order.index(step) :]))
    shown = "done"
    try:
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            screen = _pane(socket, "capture-pane", "-p")
            if later.search(screen) or BACK in screen:  # the step, or one after it
                break
            if re.search(first_start.RESULTS, screen) and not steps.search(screen):
                break  # rows and no step under way: the start is over (a small library)
            time.sleep(0.005)
        else:
            raise RuntimeError(f"no {step!r} step on screen within {timeout} s")
        time.sleep(after)  # into the step: its slow stretches come later
        screen = _pane(socket, "capture-pane", "-p")
        for name, pattern in STEPS.items():
            if re.search(pattern, screen):
                shown = name
        pressed = time.perf_counter()
        _pane(socket, "send-keys", "q")
        while time.perf_counter() - pressed < timeout:
            screen = _pane(socket, "capture-pane", "-p")
            if BACK in screen:
                break
            time.sleep(0.005)
        else:
            raise RuntimeError(f"the prompt did not come back within {timeout} s of q")
        back = time.perf_counter() - pressed
        modes = _pane(socket, "display-message", "-p", MODES).strip()
        finished = _wait_gone(tag, timeout) if finish else None
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, check=False)
        if not finish:
            _kill_left(tag)
        shutil.rmtree(base, ignore_errors=True)
    return {
        "step": step,
        "shown": shown,
        "back_s": back,
        "restored": modes == MODES_RESTORED,
        "modes": modes,
        "finished_s": finished,
    }


def measure(
    libraries: dict[str, list[Path]],
    codes: list[Path | None],
    steps: list[str],
    runs: int,
    work: Path,
    timeout: float,
    finish: bool,
    after: float = 0.0,
) -> list[dict[str, Any]]:
    """A row per library, step and code: the median seconds to the prompt over `runs`
    (codes in turn within each run), with the ratio to the first code's median."""
    rows = []
    for name, files in libraries.items():
        for step in steps:
            results: dict[int, list[dict[str, Any]]] = {n: [] for n in range(len(codes))}
            for run in range(runs):
                for n, code in enumerate(codes):
                    result = quit_once(files, code, step, work, timeout, finish, after)
                    results[n].append(result)
                    print(
                        f"{name} {step} code {n} run {run + 1}: shown {result['shown']}, "
                        f"back {result['back_s']:.2f} s, modes {result['modes']}",
                        file=sys.stderr,
                    )
            baseline = statistics.median(r["back_s"] for r in results[0])
            for n, code in enumerate(codes):
                backs = [r["back_s"] for r in results[n]]
                ends = [r["finished_s"] for r in results[n] if r["finished_s"] is not None]
                rows.append(
                    {
                        "library": name,
                        "step": step,
                        "code": str(code) if code is not None else "installed",
                        "shown": sorted({r["shown"] for r in results[n]}),
                        "back_s": round(statistics.median(backs), 3),
                        "back_max_s": round(max(backs), 3),
                        "vs_first": round(statistics.median(backs) / baseline, 2),
                        "restored": all(r["restored"] for r in results[n]),
                        "finished_s": round(statistics.median(ends), 1) if ends else None,
                    }
                )
    return rows


def print_report(rows: list[dict[str, Any]], runs: int) -> None:
    print(f"q during a first start to the shell prompt (median of {runs} run(s); load: ", end="")
    print(f"{os.getloadavg()[0]:.1f})")
    print(
        f"{'library':14} {'step':9} {'code':24} {'shown':18} {'back':>7} {'max':>7} "
        f"{'ratio':>6} restored finished"
    )
    for row in rows:
        ended = "-" if row["finished_s"] is None else f"{row['finished_s']:.1f} s"
        print(
            f"{row['library'][:14]:14} {row['step']:9} {row['code'][-24:]:24} "
            f"{','.join(row['shown'])[:18]:18} {row['back_s']:6.2f}s {row['back_max_s']:6.2f}s "
            f"{row['vs_first']:5.2f}x {'yes' if row['restored'] else 'NO':8} {ended}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="each file a library of its own")
    parser.add_argument("--synth", type=int, default=0, help="a generated library of N papers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--code", type=Path, action="append", help="repeat: first = baseline")
    parser.add_argument("--steps", default="reading,merging,tagging,indexing")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--after", type=float, default=0.0, help="seconds into the step")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument(
        "--finish", action="store_true", help="wait for the finisher and time it (else killed)"
    )
    parser.add_argument("--work-dir", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    steps = [step for step in args.steps.split(",") if step]
    for step in steps:
        if step not in STEPS:
            parser.error(f"--steps: {step!r} is none of {', '.join(STEPS)}")
    codes: list[Path | None] = [code.resolve() for code in args.code or []] or [None]
    for code in codes:
        if code is not None and not (code / "tui").is_dir():
            parser.error(f"--code {code}: no tui/ package there")
    if shutil.which("tmux") is None or not Path(sys.executable).with_name("paperscope").exists():
        raise SystemExit("needs tmux and the installed paperscope command")
    with tempfile.TemporaryDirectory(prefix="quit-bench-", dir=args.work_dir) as tmp:
        work = Path(tmp)
        libraries = {path.name: [path.resolve()] for path in args.files}
        if args.synth:
            folder = work / "synth"
            first_start.write_inputs(args.synth, args.seed, folder)
            libraries[f"synth-{args.synth}"] = [folder]
        if not libraries:
            parser.error("no library: name a file or give --synth N")
        rows = measure(
            libraries, codes, steps, args.runs, work, args.timeout, args.finish, args.after
        )
    if args.json:
        print(json.dumps(rows))
    else:
        print_report(rows, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
