"""A load in the running app gets its worker processes.

Inside a running Textual app `sys.stderr` is Textual's print capture, whose `fileno()` is
-1, and multiprocessing's resource tracker, started on first use with that descriptor,
failed: the load's pool gave up and a first load ran on one core. The check runs in a
fresh interpreter, where no earlier test has started the tracker already.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECK = """
import sys
from pathlib import Path
import index.library.parallel as parallel
from index.facets.taxonomy import load_taxonomy
from tui.services.processes import start_worker_support

class Capture:  # what Textual puts in sys.stderr while the app runs
    def write(self, text): return len(text)
    def flush(self): pass
    def fileno(self): return -1

if __name__ == "__main__":
    if sys.argv[1] == "prepared":
        start_worker_support()  # tui.cli.run_app, before the app runs
    sys.stderr = Capture()
    parallel.PARALLEL_MIN_BYTES = 1
    files = [(Path(name), Path(name).name) for name in sys.argv[2:]]
    with parallel.LoadPool(load_taxonomy(), workers=2) as pool:
        papers = sum(len(result.papers) for _, result, _ in pool.parse(files))
        print(pool.started, pool.workers, papers)
"""


def run_check(tmp_path: Path, mode: str) -> str:
    names = []
    for n in range(2):
        path = tmp_path / f"refs{n}.bib"
        path.write_text(f"@article{{k{n},\n  title = {{Paper {n}}},\n}}\n", encoding="utf-8")
        names.append(str(path))
    script = tmp_path / "check.py"
    script.write_text(CHECK, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), mode, *names],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,  # its stderr says why, below
        cwd=Path(__file__).resolve().parents[3],
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_load_in_the_app_gets_its_worker_processes(tmp_path: Path) -> None:
    assert run_check(tmp_path, "prepared") == "True 2 2"


ABANDON = """
import os, sys, time
import index.library.parallel as parallel
from index.facets.taxonomy import load_taxonomy
from tui.services.processes import stop_load_workers

if __name__ == "__main__":
    pool = parallel.LoadPool(load_taxonomy(), workers=2)
    pool.start_workers()  # a first start's load, abandoned when the user quits
    pids = [child.pid for child in __import__("multiprocessing").active_children()]
    print(" ".join(map(str, pids)), flush=True)
    stop_load_workers()
    os._exit(0)  # as tui.cli.run_app exits after a hand-off: nothing joined
"""


def test_workers_of_an_abandoned_load_do_not_outlive_the_app(tmp_path: Path) -> None:
    import os
    import time

    script = tmp_path / "abandon.py"
    script.write_text(ABANDON, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    pids = [int(pid) for pid in done.stdout.split()]
    assert len(pids) == 2
    deadline = time.monotonic() + 10
    for pid in pids:
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, f"worker {pid} outlived its app"
            time.sleep(0.05)


def test_an_abandoned_load_prints_nothing_on_the_terminal_after_the_app(tmp_path: Path) -> None:
    """The resource tracker outlives a process that ends with `os._exit` and reported the
    abandoned pool's semaphores ("5 leaked semaphore objects") over the shell's prompt;
    its output goes to /dev/null, as every background process's does."""
    script = tmp_path / "abandon.py"
    script.write_text(
        ABANDON.replace(
            "if __name__", "from tui.services.processes import start_worker_support\nif __name__"
        ).replace(
            "    pool = ", "    start_worker_support()  # as tui.cli.run_app does\n    pool = "
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,  # until every holder of this stderr (the tracker too) is gone
        text=True,
        timeout=120,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert "start_worker_support()" in script.read_text(encoding="utf-8")
    assert done.stderr == ""
