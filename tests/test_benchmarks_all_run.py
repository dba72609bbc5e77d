"""Every script in `benchmarks/` is run by some smoke test.

A benchmark that does not run is not a benchmark: `memory.py` once failed at HEAD
(`'SearchEngine' object has no attribute '_letters'`) for weeks because nothing ran it.
Speed is never asserted; the smoke tests only prove that each script still works against
the current code. This test fails when a script is added without one.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _runnable_scripts() -> set[str]:
    """The scripts a person runs (those with a `__main__` block), not the shared modules."""
    return {
        path.stem
        for path in BENCHMARKS.glob("*.py")
        if re.search(r'^if __name__ == "__main__":', path.read_text(), re.MULTILINE)
    }


def _smoke_test_text() -> str:
    return "\n".join(
        path.read_text()
        for path in (ROOT / "tests").rglob("test_*.py")
        if path.name != Path(__file__).name
    )


def test_every_benchmark_script_has_a_smoke_run() -> None:
    text = _smoke_test_text()
    unrun = sorted(
        name
        for name in _runnable_scripts()
        if not re.search(
            rf'"{name}\.py"|\bimport {name}\b|BENCHMARKS / "{name}\.py"|benchmarks/{name}\.py',
            text,
        )
    )
    assert not unrun, f"benchmark scripts no smoke test runs: {unrun}"


def test_the_check_sees_the_scripts() -> None:
    """The check above is not vacuous: it finds the scripts and their runs."""
    scripts = _runnable_scripts()
    assert {"bench", "memory", "startup"} <= scripts
    assert "synth" not in scripts  # a shared module, imported by the scripts
