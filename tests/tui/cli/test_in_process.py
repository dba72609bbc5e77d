"""The CLI tests run commands in-process (tests/tui/cli/commands.py): it must show what a
real `python -m tui` process shows, byte for byte, exit code for exit code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.tui.cli.commands import run_paperscope, run_paperscope_process
from tests.tui.cli.conftest import user_env

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "args",
    [
        ("styles",),
        ("cite", "dynapipe", "--style", "apa"),
        ("cite", "dynapipe", "--style", "bibtex", "--copy"),  # no clipboard tool on PATH
        ("show", "no-such-paper"),  # a user error: exit 2, one line
        ("search", "--year", "20x5", "gpu"),  # argparse's own error
        ("--corpus", "/nonexistent/papers.bib", "list"),
    ],
)
def test_in_process_equals_a_real_process(
    args: tuple[str, ...], tmp_path: Path, bundled_cache: Path
) -> None:
    # Each on its own user folders: a warning is shown once per user (the data folder
    # remembers it), so a second run on the same folders would be told less.
    envs = []
    for name in ("inside", "process"):
        shutil.copytree(bundled_cache, tmp_path / name / "cache")
        envs.append(user_env(tmp_path / name))
    inside = run_paperscope(args, env=envs[0], cwd=REPO)
    process = run_paperscope_process(args, env=envs[1], cwd=REPO)

    def seen(done: subprocess.CompletedProcess[str], name: str) -> tuple[int, str, str]:
        home = str(tmp_path / name)  # the one difference allowed: whose folders they are
        return done.returncode, done.stdout.replace(home, "~"), done.stderr.replace(home, "~")

    assert seen(inside, "inside") == seen(process, "process")


def test_the_environment_and_folder_are_given_back(env: dict[str, str], tmp_path: Path) -> None:
    import os
    import sys

    before = dict(os.environ), os.getcwd(), sys.stdout, sys.stderr, sys.stdin
    done = run_paperscope(("styles",), env={**env, "PAPERSCOPE_PROBE": "1"}, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout
    assert (dict(os.environ), os.getcwd(), sys.stdout, sys.stderr, sys.stdin) == before
