"""The coBib comparison runs end to end on a tiny .bib and reports what it promises.

Speed is never asserted (the machine is shared). coBib itself is not installed here (the
benchmark pip-installs it into a venv of its own, which needs the network): a stand-in
that answers `init`, `add`, `--version` and draws a table as coBib's TUI does is given
with `--cobib-bin`, so the run proves the rest: the import once, the tmux timing of both
apps, and the report with its ratio.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from tests.installed import needs_tmux_and_command

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

FAKE_COBIB = """#!{python}
import sys, time
from pathlib import Path
args = sys.argv[1:]
log = Path({log!r})
log.open("a").write(" ".join(args or ["tui"]) + "\\n")
if args[:1] == ["--version"]:
    print("coBib v0.0-stand-in")
elif not args:
    print("label          title")
    print("smith2020      Tangible Bits Revisited")
    time.sleep(60)
"""

BIB = """@article{smith2020, title={Tangible Bits Revisited}, author={Smith, Ann}, year={2020}}
@article{lee2021, title={Shape Displays}, author={Lee, Bo}, year={2021}}
"""


@needs_tmux_and_command
def test_runs_on_a_tiny_bib_against_a_stand_in_and_reports_the_ratio(tmp_path: Path) -> None:
    log = tmp_path / "cobib-calls.txt"
    cobib = tmp_path / "cobib"
    cobib.write_text(FAKE_COBIB.format(python=sys.executable, log=str(log)), encoding="utf-8")
    cobib.chmod(0o755)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    command = [
        sys.executable,
        str(BENCHMARKS / "first_rows_cobib.py"),
        str(bib),
        "--runs",
        "1",
        "--json",
        "--cobib-bin",
        str(cobib),
        "--env-dir",
        str(tmp_path / "env"),
        "--timeout",
        "240",
    ]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert report["file"] == "refs.bib" and report["runs"] == 1
    assert report["cobib_version"] == "v0.0-stand-in"
    for key in ("bare_s", "cobib_s", "paperscope_s", "paperscope_vs_cobib", "cobib_vs_bare"):
        assert math.isfinite(report[key]) and report[key] > 0, key
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls[0] == "init" and calls[1].startswith(f"add --bibtex {bib}")
    assert calls.count("tui") == 2  # once to write its own cache, once timed
    # The imported database is kept: a second run does not import again.
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr[-3000:]
    calls = log.read_text(encoding="utf-8").splitlines()
    assert [call for call in calls if call.startswith(("init", "add"))] == calls[:2]
