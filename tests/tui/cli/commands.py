"""Running the `paperscope` command as the CLI tests do: in this process, as a user would see it.

`run_paperscope` calls the console script's entry point (`tui.entry.main`, what `python -m
tui` runs) with the process-wide things a command reads set as a fresh process would have
them: the environment (and so PATH: which clipboard tools exist), the working directory,
stdin at /dev/null and stdout/stderr as files that are not terminals, pyperclip choosing
its clipboard afresh, and an escaping exception printed as a traceback with exit code 1.
A subprocess cost ~0.3 s of CPU per command (the interpreter and the imports) and the CLI
tests run hundreds of commands. `run_paperscope_process` is the real subprocess, for the
tests of what only a process shows (the entry point as installed, a clean interpreter).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

import pyperclip

from tui.cli.progress import HEADLINE

__all__ = ["run_paperscope", "run_paperscope_bytes", "run_paperscope_process"]


def run_paperscope(
    args: tuple[str, ...], *, env: Mapping[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """`paperscope ARGS` in this process, stdin closed; stderr without the slow-load notice.

    A cold load that takes over 0.3 s (any load on a busy machine) says so once on
    stderr; the tests assert the command's own messages, not how fast the machine was.
    A hung command is ended by pytest-timeout, as any test is.
    """
    done = run_paperscope_bytes(args, env=env, cwd=cwd)
    return _as_text(done)


def run_paperscope_bytes(
    args: tuple[str, ...] | list[str], *, env: Mapping[str, str], cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    """`paperscope ARGS` in this process: the exit code and the exact bytes written."""
    from tui.entry import main

    with _fresh_process(env, cwd) as (stdout, stderr):
        try:
            code: int | str | None = main(list(args))
        except SystemExit as leaving:  # argparse's usage errors, --help
            code = leaving.code
        except Exception:  # what Python does with an exception nobody caught
            # (not BaseException: pytest's own, a timeout's `Failed` and ctrl+c, go up)
            traceback.print_exc(file=sys.stderr)
            code = 1
        if isinstance(code, str):
            print(code, file=sys.stderr)
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        return subprocess.CompletedProcess(
            ["paperscope", *args], code or 0, _read(stdout), _read(stderr)
        )


def run_paperscope_process(
    args: tuple[str, ...], *, env: Mapping[str, str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python -m tui ARGS` as a real subprocess (see the module docstring)."""
    done = subprocess.run(
        [sys.executable, "-m", "tui", *args],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )
    return _as_text(done)


def _as_text(done: subprocess.CompletedProcess[bytes]) -> subprocess.CompletedProcess[str]:
    """Decoded as `subprocess.run(text=True, encoding="utf-8")` would, slow-load line dropped."""
    stdout, stderr = (_decoded(stream) for stream in (done.stdout, done.stderr))
    stderr = "".join(
        line for line in stderr.splitlines(keepends=True) if not line.startswith(HEADLINE)
    )
    return subprocess.CompletedProcess(done.args, done.returncode, stdout, stderr)


def _decoded(data: bytes) -> str:
    """Universal newlines, as a text-mode pipe reads them."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


def _read(stream: IO[bytes]) -> bytes:
    stream.seek(0)
    return stream.read()


@contextlib.contextmanager
def _fresh_process(env: Mapping[str, str], cwd: Path) -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """This process's environment, folder, streams and clipboard choice as a new one's."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_clipboard = pyperclip.copy, pyperclip.paste
    wrappers: tuple[io.TextIOWrapper, ...] = ()
    with (
        tempfile.TemporaryFile() as stdout,
        tempfile.TemporaryFile() as stderr,
        open(os.devnull, encoding="utf-8") as stdin,
    ):
        try:
            os.environ.clear()
            os.environ.update(env)
            os.chdir(cwd)
            # C.UTF-8 as this machine runs Python: surrogateescape on stdout, and stderr
            # backslashreplace as always; line buffering as for a pipe does not matter here.
            sys.stdin = stdin
            sys.stdout, sys.stderr = wrappers = (
                io.TextIOWrapper(stdout, encoding="utf-8", errors="surrogateescape"),
                io.TextIOWrapper(stderr, encoding="utf-8", errors="backslashreplace"),
            )
            # pyperclip picks its tool on the first copy and keeps it: pick again, here.
            pyperclip.copy, pyperclip.paste = (
                pyperclip.lazy_load_stub_copy,
                pyperclip.lazy_load_stub_paste,
            )
            yield stdout, stderr
        finally:
            for wrapper in wrappers:  # the temporary files are closed by their `with`
                with contextlib.suppress(ValueError):
                    wrapper.flush()
                    wrapper.detach()
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            pyperclip.copy, pyperclip.paste = saved_clipboard
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
