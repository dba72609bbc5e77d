"""First rows of a real .bib from an empty cache, against coBib's start on its own database.

Issue 50 asks that the first page of an ordinary library (a few thousand papers, one
Better BibTeX export) show from an empty cache within 1.5x the time coBib's TUI takes to
show its rows from the database it already imported. In one run this

1. installs coBib (pinned, `COBIB_VERSION`) into a venv of its own under a cache folder
   (kept between runs: `--env-dir`), unless `--cobib-bin` names one already installed;
2. imports the .bib into a coBib database once (`cobib init`, `cobib add --bibtex`; kept
   beside the venv under the file's digest) and starts coBib once, so its own database
   cache is written, as on any start after the first;
3. then, alternating, `--runs` times: coBib's TUI in a tmux pane until its table shows a
   row (the header `label  title` with a line under it), paperscope `--corpus FILE` with
   empty cache and data folders until its first result rows show (the status line's "N of
   M papers", which a provisional page, a sample and the full index all show), and a bare
   Textual app painting one line (the part of any start that is Python and Textual).

The machine is shared: read the ratio, not the seconds.

    python benchmarks/first_rows_cobib.py FILE.bib [--runs 3] [--json] [--env-dir DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import startup

# The coBib measured; bump on purpose (its TUI and its database cache change with it).
COBIB_VERSION = "6.0.3"
# coBib's table: the header and one row under it.
COBIB_ROWS = r"label\s+title[^\n]*\n[^\S\n]*\S"
# paperscope's results: "12 of 3,670 papers" in the status line, from the first rows on (a
# provisional page, a sample, the full index); never the build's "Indexing… 5 of 20 papers".
PAPERSCOPE_ROWS = r"(?<![\d,])(?<!… )\d[\d,]* of [\d,]+ papers"


def cobib_env(home: Path) -> dict[str, str]:
    """Every folder coBib reads or writes (config, database, its cache, log), under `home`."""
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
        "TERM": "xterm-256color",
    }


def install_cobib(env_dir: Path, version: str = COBIB_VERSION) -> Path:
    """coBib `version` in a venv of its own under `env_dir` (reused when already there)."""
    venv = env_dir / f"cobib-{version}"
    command = venv / "bin" / "cobib"
    marker = venv / "installed"
    if not marker.exists():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"cobib=={version}"],
            check=True,
        )
        marker.write_text(version)
    return command


def import_into_cobib(cobib: Path, bib: Path, home: Path) -> None:
    """`bib` imported into a fresh coBib database under `home`, once (kept by its digest:
    importing 3,700 entries takes coBib ~20 s)."""
    done = home / "imported"
    if done.exists():
        return
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    env = {**os.environ, **cobib_env(home)}
    subprocess.run([str(cobib), "init"], env=env, check=True, capture_output=True)
    subprocess.run(
        [str(cobib), "add", "--bibtex", str(bib), "--disambiguation", "keep", "--skip-download"],
        env=env,
        check=True,
        capture_output=True,
    )
    done.write_text(str(bib))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def paperscope_env(base: Path) -> dict[str, str]:
    """Empty cache, data and config folders under `base`: a first start."""
    env = {
        "PAPERSCOPE_CACHE_DIR": str(base / "cache"),
        "PAPERSCOPE_DATA_DIR": str(base / "data"),
        "PAPERSCOPE_CONFIG": str(base / "config.toml"),
        "TERM": "xterm-256color",
    }
    if os.environ.get("PYTHONPATH"):  # a pinned snapshot of the code (benchmarks/README)
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def measure(
    bib: Path, runs: int, work: Path, env_dir: Path, cobib: Path | None, timeout: float
) -> dict[str, Any]:
    """Median seconds to the first rows of coBib, paperscope (empty cache) and a bare
    Textual app over `runs` alternating runs, with the ratios."""
    paperscope = Path(sys.executable).with_name("paperscope")
    if shutil.which("tmux") is None or not paperscope.exists():
        raise SystemExit("needs tmux and the installed paperscope command")
    cobib = cobib or install_cobib(env_dir)
    home = env_dir / f"cobib-db-{_digest(bib)}-{_digest(cobib)}"
    import_into_cobib(cobib, bib, home)
    cobib_command = str(cobib)
    # Once, not timed: coBib writes its database cache at its first start.
    startup.times_to_screen(cobib_command, [COBIB_ROWS], cobib_env(home), timeout)
    bare_script = work / "bare.py"
    bare_script.write_text(startup.BARE_APP)
    times: dict[str, list[float]] = {"bare": [], "cobib": [], "paperscope": []}
    for run in range(runs):
        base = work / f"run{run}"
        shutil.rmtree(base, ignore_errors=True)
        env = paperscope_env(base)
        times["bare"].append(
            startup.times_to_screen(f"{sys.executable} {bare_script}", ["bare app ready"], env)[0]
        )
        times["cobib"].append(
            startup.times_to_screen(cobib_command, [COBIB_ROWS], cobib_env(home), timeout)[0]
        )
        command = f"{paperscope} --corpus {bib}"
        times["paperscope"].append(
            startup.times_to_screen(command, [PAPERSCOPE_ROWS], env, timeout)[0]
        )
        print(
            f"run {run + 1}/{runs}: "
            + ", ".join(f"{name} {values[-1]:.2f} s" for name, values in times.items())
            + f" (load {os.getloadavg()[0]:.1f})",
            file=sys.stderr,
        )
    figures: dict[str, Any] = {
        "file": bib.name,
        "runs": runs,
        "cobib_version": cobib_version(cobib),
        "load_average": round(os.getloadavg()[0], 1),
    }
    for name, values in times.items():
        figures[f"{name}_s"] = round(statistics.median(values), 3)
    figures["paperscope_vs_cobib"] = round(figures["paperscope_s"] / figures["cobib_s"], 2)
    figures["cobib_vs_bare"] = round(figures["cobib_s"] / figures["bare_s"], 2)
    figures["paperscope_vs_bare"] = round(figures["paperscope_s"] / figures["bare_s"], 2)
    return figures


def cobib_version(cobib: Path) -> str:
    """What `cobib --version` says (the pinned version, or the one given by `--cobib-bin`)."""
    done = subprocess.run(
        [str(cobib), "--version"], capture_output=True, text=True, check=False, timeout=60
    )
    words = (done.stdout or done.stderr).split()
    return words[-1] if words else "unknown"


def print_report(f: dict[str, Any]) -> None:
    print(
        f"first rows of {f['file']} (median of {f['runs']} run(s), load average "
        f"{f['load_average']}), coBib {f['cobib_version']}"
    )
    print(f"  bare Textual app               {f['bare_s']:7.2f} s   baseline")
    print(
        f"  coBib TUI, its own database    {f['cobib_s']:7.2f} s   "
        f"x{f['cobib_vs_bare']:.2f} bare   baseline"
    )
    print(
        f"  paperscope, empty cache        {f['paperscope_s']:7.2f} s   "
        f"x{f['paperscope_vs_cobib']:.2f} coBib   target <= 1.5x coBib"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bib", type=Path, help="the .bib file both open")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300, help="seconds for one start")
    parser.add_argument(
        "--env-dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "paperscope-bench-cobib",
        help="where coBib's venv and its imported database are kept between runs",
    )
    parser.add_argument("--cobib-bin", type=Path, help="a coBib already installed (no venv)")
    parser.add_argument("--work-dir", type=Path, help="keep paperscope's caches here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    bib = args.bib.resolve()
    if not bib.is_file():
        parser.error(f"{args.bib}: no such file")
    args.env_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="first-rows-") as tmp:
        work = args.work_dir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        figures = measure(bib, args.runs, work, args.env_dir, args.cobib_bin, args.timeout)
    figures["wall_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(figures))
    else:
        print_report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
