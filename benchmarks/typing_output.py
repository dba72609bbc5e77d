"""What the app sends to the terminal while a query is typed, per keystroke, in tmux.

Over SSH every byte of a redraw crosses the network, and a terminal draws what it is sent:
a keystroke that repaints panes that did not change costs the user latency for nothing.
This starts paperscope on the bundled corpus (or `--corpus`) in a tmux pane, waits for
its first results, presses `/`, then records the pane's output (`tmux pipe-pane`) while
`--query` is typed one key every `--gap` seconds. In the same run, and the same way, it
types into a bare Textual app (a search field and a line echoing it): the floor of what a
keystroke costs in Textual at all. With `--baseline-code SNAPSHOT` (a folder holding
`index`, `tui` and `assets` of another commit, e.g. `git archive REV index tui assets |
tar -x -C SNAPSHOT`) that code is typed into the same way, alternating with this one.

    python benchmarks/typing_output.py [--rounds 3] [--size 120x40] [--query "memory scheduling"]
        [--baseline-code SNAPSHOT] [--corpus DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

BARE_APP = """
from textual.app import App
from textual.widgets import Input, Static

class Bare(App):
    def compose(self):
        yield Input(placeholder="bare app ready", id="q")
        yield Static(id="echo")

    def on_input_changed(self, event):
        self.query_one("#echo", Static).update(event.value)

Bare().run()
"""


def _screen(tmux: list[str]) -> str:
    return subprocess.run(
        [*tmux, "capture-pane", "-p"], check=False, capture_output=True, text=True
    ).stdout


def _wait_for(tmux: list[str], text: str, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while text not in _screen(tmux):
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out waiting for {text!r}:\n{_screen(tmux)}")
        time.sleep(0.1)


def typed_bytes(
    command: str, ready: str, env: dict[str, str], query: str, size: str, gap: float
) -> int:
    """Bytes the program in a fresh tmux pane writes while `query` is typed into it.

    The pane starts outside any checkout: `python -m tui` puts the working folder first on
    sys.path, ahead of PYTHONPATH, and a baseline snapshot would not be what ran.
    """
    socket = f"typing-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    width, height = size.split("x")
    prefix = "exec env " + " ".join(f"{k}={v}" for k, v in env.items())
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", width, "-y", height, "-c", tempfile.gettempdir()]
        + [f"{prefix} {command}"],
        check=True,
    )
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "pane.out"
        try:
            _wait_for(tmux, ready, timeout=120)
            subprocess.run([*tmux, "send-keys", "/"], check=True)
            time.sleep(1.0)
            subprocess.run([*tmux, "pipe-pane", "-o", f"cat >> {out}"], check=True)
            for key in query:
                subprocess.run([*tmux, "send-keys", "-l", key], check=True)
                time.sleep(gap)
            time.sleep(1.0)
            subprocess.run([*tmux, "pipe-pane"], check=True)
        finally:
            subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)
        return out.stat().st_size if out.exists() else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--query", default="memory scheduling")
    parser.add_argument("--gap", type=float, default=0.6, help="seconds between keys")
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--baseline-code", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="typing-"))
    (work / "bare.py").write_text(BARE_APP)
    corpus = f" --corpus {args.corpus.resolve()}" if args.corpus else ""
    app = f"{sys.executable} -m tui{corpus}"
    runs: dict[str, tuple[str, str, dict[str, str]]] = {
        "bare": (f"{sys.executable} {work / 'bare.py'}", "bare app ready", {}),
    }
    codes = {"paperscope": None, "baseline": args.baseline_code}
    for name, code in codes.items():
        if name == "baseline" and code is None:
            continue
        home = work / name
        env = {
            "PAPERSCOPE_CACHE_DIR": str(home / "cache"),
            "PAPERSCOPE_DATA_DIR": str(home / "data"),
            "PAPERSCOPE_CONFIG": str(home / "config.toml"),
        }
        if code is not None:
            env["PYTHONPATH"] = str(code.resolve())
        runs[name] = (app, " papers", env)
    base_env = {"TERM": os.environ.get("TERM", "xterm-256color")}
    figures: dict[str, list[int]] = {name: [] for name in runs}
    for round_number in range(args.rounds + 1):  # round 0 builds the indexes: not counted
        for name, (command, ready, env) in runs.items():
            size = typed_bytes(command, ready, base_env | env, args.query, args.size, args.gap)
            if round_number:
                figures[name].append(size)
        print(
            f"round {round_number}: "
            + ", ".join(f"{n} {v[-1] if v else '-'}" for n, v in figures.items()),
            file=sys.stderr,
        )
    keys = len(args.query)
    per_key = {name: statistics.median(values) / keys for name, values in figures.items()}
    report = {
        "keys": keys,
        "size": args.size,
        "bytes": figures,
        "bytes_per_key": per_key,
        "vs_bare": {n: per_key[n] / per_key["bare"] for n in per_key if n != "bare"},
    }
    if "baseline" in per_key:
        report["vs_baseline"] = per_key["paperscope"] / per_key["baseline"]
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{keys} keys typed at {args.size}, median of {args.rounds} rounds:")
    for name, value in per_key.items():
        ratio = "" if name == "bare" else f"  ({value / per_key['bare']:.1f}x bare)"
        print(f"  {name:11s} {value / 1024:7.1f} kB per key{ratio}")
    if "vs_baseline" in report:
        print(f"  paperscope / baseline: {report['vs_baseline']:.2f}")


if __name__ == "__main__":
    main()
