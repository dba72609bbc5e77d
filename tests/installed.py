"""What a smoke test that starts the installed `paperscope` command in tmux needs.

Several benchmarks drive the command in a real terminal; their smoke tests skip, with one
reason, where the machine has no tmux or the package is not installed beside this
interpreter.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

needs_tmux_and_command = pytest.mark.skipif(
    shutil.which("tmux") is None or not Path(sys.executable).with_name("paperscope").exists(),
    reason="needs tmux and the installed paperscope command",
)
