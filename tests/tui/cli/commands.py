"""Running the `paperscope` command in a subprocess, as the CLI tests do."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from tui.cli.progress import HEADLINE


def run_paperscope(
    args: tuple[str, ...], *, env: Mapping[str, str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python -m tui ARGS`, stdin closed; stderr without the slow-load notice.

    A cold load that takes over 0.3 s (any load on a busy machine) says so once on
    stderr; the tests assert the command's own messages, not how fast the machine was.
    """
    done = subprocess.run(
        [sys.executable, "-m", "tui", *args],
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        encoding="utf-8",
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )
    done.stderr = "".join(
        line for line in done.stderr.splitlines(keepends=True) if not line.startswith(HEADLINE)
    )
    return done
