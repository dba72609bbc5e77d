"""`-o /dev/stdout`, `/dev/stderr` and `/dev/fd/N` write through the open descriptor
(issue 46): after `>> log` the log keeps what it held, and a pipe gets the text, where
resolving the name and replacing what it pointed at lost the log and failed on a pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from index.atomic import write_text_atomic
from tests.tui.cli.commands import run_paperscope
from tests.tui.cli.conftest import bundled_cache, env

__all__ = ["bundled_cache", "env"]

MANUSCRIPT = "As shown by \\cite{arfeen2025pipefill}.\n"


def test_a_descriptor_opened_for_appending_is_appended_to(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_text("earlier\n", encoding="utf-8")
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        write_text_atomic(Path(f"/dev/fd/{fd}"), "later\n")
    finally:
        os.close(fd)
    assert log.read_text(encoding="utf-8") == "earlier\nlater\n"


def test_a_pipe_gets_the_text(tmp_path: Path) -> None:
    read, write = os.pipe()
    try:
        write_text_atomic(Path(f"/proc/self/fd/{write}"), "through the pipe\n")
        assert os.read(read, 100) == b"through the pipe\n"
    finally:
        os.close(read)
        os.close(write)


@pytest.mark.parametrize("command", ["export", "cited"])
def test_export_and_cited_append_to_a_log_through_dev_fd(
    command: str, tmp_path: Path, env: dict[str, str]
) -> None:
    (tmp_path / "paper.tex").write_text(MANUSCRIPT, encoding="utf-8")
    log = tmp_path / "log"
    log.write_text("earlier\n", encoding="utf-8")
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    args = {
        "export": ("export", "pipefill", "--format", "bibtex"),
        "cited": ("cited", "paper.tex"),
    }[command]
    try:
        done = run_paperscope((*args, "-o", f"/dev/fd/{fd}"), env=env, cwd=tmp_path)
    finally:
        os.close(fd)
    assert done.returncode == 0, done.stderr
    text = log.read_text(encoding="utf-8")
    assert text.startswith("earlier\n") and "@inproceedings{arfeen2025pipefill" in text, text[:200]


@pytest.mark.parametrize("shell", ["append", "pipe"])
def test_dev_stdout_of_a_real_process(shell: str, tmp_path: Path, env: dict[str, str]) -> None:
    """`paperscope export -o /dev/stdout >> log` and `... | cat`, as a shell runs them."""
    log = tmp_path / "log"
    log.write_text("earlier\n", encoding="utf-8")
    argv = [sys.executable, "-m", "tui", "export", "pipefill", "--format", "bibtex"]
    argv += ["-o", "/dev/stdout"]
    with open(log, "a", encoding="utf-8") as appended:
        done = subprocess.run(
            argv,
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=appended if shell == "append" else subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    if shell == "append":
        text = log.read_text(encoding="utf-8")
        assert text.startswith("earlier\n") and "@inproceedings{arfeen2025pipefill" in text, text[
            :200
        ]
    else:
        assert b"@inproceedings{arfeen2025pipefill" in done.stdout
