"""Small measuring helpers: percentiles, peak memory, and phases run in a child process.

Peak memory is only honest when the phase has a process to itself: `ru_maxrss` never goes
down, so a build measured in the process that already generated 100,000 papers would
report the generator's peak. Each build therefore runs in a fresh interpreter that loads
the library from disk, and reports its own `ru_maxrss` (and that of any worker processes
it started, which `RUSAGE_CHILDREN` keeps separately).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["peak_rss_mb", "percentile", "run_child", "summary"]


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile: an actual measured value, never an interpolation."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def summary(values: Sequence[float]) -> dict[str, float]:
    """p50, p95 and max of a list of milliseconds, rounded for reading."""
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 0.50), 2),
        "p95_ms": round(percentile(values, 0.95), 2),
        "max_ms": round(max(values), 2) if values else math.nan,
    }


def peak_rss_mb() -> dict[str, float]:
    """This process's peak resident set and its largest finished child's, in MB.

    On Linux `ru_maxrss` is in kilobytes (on macOS in bytes); Windows has no `resource`.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return {"self_mb": math.nan, "children_mb": math.nan}
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / scale
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / scale
    return {"self_mb": round(own / 1024, 1), "children_mb": round(children / 1024, 1)}


def run_child(script: Path, phase: str, options: Sequence[str]) -> dict[str, Any]:
    """Runs `script --child PHASE OPTIONS` in a fresh interpreter; returns its JSON line.

    The child's stderr passes through, so an engine's warnings and tracebacks stay visible.
    """
    completed = subprocess.run(
        [sys.executable, str(script), "--child", phase, *options],
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"child phase {phase!r} failed with exit code {completed.returncode}")
    return json.loads(completed.stdout.strip().splitlines()[-1])
