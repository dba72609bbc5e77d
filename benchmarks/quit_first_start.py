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
finisher, a build process), says how long they took and how many papers the index the
next start opens holds (-1: none was published); without `--finish` they are killed, so
the next run has the machine to itself. A bare Textual app quit the same way gives the
floor (Textual's shutdown, the interpreter's exit, the shell's line).

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


# A Textual app that quits on `q` and does nothing else: the floor of any quit, timed
# the same way (Textual's shutdown, the interpreter's exit, the shell's line).
BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    BINDINGS = [("q", "quit")]

    def compose(self):
        yield Static("bare app ready")

Bare().run()
"""


def _quit_in_pane(
    command: str, ready: Any, after: float, timeout: float, what: str
) -> tuple[str, float, str]:
    """Runs `command` in a fresh tmux pane; once `ready(screen)` is true (and `after`
    seconds more) presses `q`. Returns the screen then, the seconds from `q` to the
    shell's line after the command, and tmux's terminal modes at that point."""
    socket = f"quit-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    subprocess.run(
        # Started outside any checkout, as in startup.py: PYTHONPATH is what runs.
        [*tmux, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "36"]
        + [
            "-c",
            tempfile.gettempdir(),
            "--",
            "sh",
            "-c",
            f"{command}; echo {BACK}; exec sleep 3600",
        ],
        check=True,
    )
    try:
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            if ready(_pane(socket, "capture-pane", "-p")):
                break
            time.sleep(0.005)
        else:
            raise RuntimeError(f"no {what} on screen within {timeout} s")
        time.sleep(after)  # into the step: its slow stretches come later
        screen = _pane(socket, "capture-pane", "-p")
        pressed = time.perf_counter()
        _pane(socket, "send-keys", "q")
        while time.perf_counter() - pressed < timeout:
            if BACK in _pane(socket, "capture-pane", "-p"):
                break
            time.sleep(0.005)
        else:
            raise RuntimeError(f"the prompt did not come back within {timeout} s of q")
        back = time.perf_counter() - pressed
        return screen, back, _pane(socket, "display-message", "-p", MODES).strip()
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, check=False)


def quit_bare(work: Path, timeout: float) -> dict[str, Any]:
    """The bare Textual app, `q` once it shows: the floor of the figures."""
    script = work / "bare_quit.py"
    script.write_text(BARE_APP, encoding="utf-8")
    _, back, modes = _quit_in_pane(
        f"env TERM=xterm-256color {sys.executable} {script}",
        lambda screen: "bare app ready" in screen,
        0.0,
        timeout,
        "bare app",
    )
    return {
        "step": "ready",
        "shown": "ready",
        "back_s": back,
        "restored": modes == MODES_RESTORED,
        "modes": modes,
        "finished_s": None,
        "published": None,
    }


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
    steps = re.compile("|".join(STEPS.values()))
    order = list(STEPS)
    later = re.compile("|".join(STEPS[name] for name in order[order.index(step) :]))

    def ready(screen: str) -> bool:
        """The step or one after it on screen, or the start over (a small library:
        rows and no step under way), or the app gone."""
        return bool(
            later.search(screen)
            or BACK in screen
            or (re.search(first_start.RESULTS, screen) and not steps.search(screen))
        )

    try:
        screen, back, modes = _quit_in_pane(
            f"{prefix} {paperscope} {corpus}", ready, after, timeout, f"{step!r} step"
        )
        shown = "done"
        for name, pattern in STEPS.items():
            if re.search(pattern, screen):
                shown = name
        finished = _wait_gone(tag, timeout) if finish else None
        published = _published(files, env) if finish else None
    finally:
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
        "published": published,
    }


# Run with a start's environment: the papers in the index the next start would open.
_PUBLISHED = """
import sys
from pathlib import Path
from index import open_current_engine
from index.facets.taxonomy import load_taxonomy
from tui.services.config import AppSettings
engine = open_current_engine(
    [Path(p) for p in sys.argv[1:]], load_taxonomy(), AppSettings.from_environment().cache_dir
)
print(-1 if engine is None else engine.size)
"""


def _published(files: list[Path], env: dict[str, str]) -> int:
    """How many papers the index left by the quit start holds (-1: none is current)."""
    done = subprocess.run(
        [sys.executable, "-c", _PUBLISHED, *map(str, files)],
        env={**os.environ, **env},
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1])


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
    bare = [quit_bare(work, timeout) for _ in range(runs)]
    backs = [r["back_s"] for r in bare]
    rows.append(
        {
            "library": "bare Textual",
            "step": "ready",
            "code": "-",
            "shown": ["ready"],
            "back_s": round(statistics.median(backs), 3),
            "back_max_s": round(max(backs), 3),
            "vs_first": 1.0,
            "restored": all(r["restored"] for r in bare),
            "finished_s": None,
            "published": [],
        }
    )
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
                        "published": sorted({r["published"] for r in results[n]} - {None}),
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
        if row["published"]:
            ended += f", {'/'.join(map(str, row['published']))} papers"
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
