"""mypy reports no errors on `index/` and `tui/`.

Type hints are part of the house style; this keeps them checked, so a wrong or stale hint
fails the suite instead of misleading the next reader. The options live in
`[tool.mypy]` in pyproject.toml, so running `mypy` by hand checks the same thing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_reports_no_errors() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"mypy failed:\n{done.stdout}{done.stderr}"
