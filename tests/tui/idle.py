"""Pilot's idle checks every 5 ms instead of every 20 ms.

Every `pilot.press` key and every `pilot.pause()` ends in Textual's `wait_for_idle`, which
sleeps `SLEEP_GRANULARITY` (20 ms) and repeats until a sleep passed with under
`SLEEP_IDLE` (1 ms, 5%) spent on the CPU, or a second went by. A test typing a 20-letter
query waited at least 0.8 s that way, mostly with nothing to wait for.

`quick_idle` sleeps 5 ms and calls the app idle under 0.5 ms of CPU in it (10%). An idle
app costs about 1% (its timers and the event loop: 10-13 ms of CPU a second); a busy one,
on the UI thread or in a worker thread, takes the whole slice. Finer is worse: at 2 ms
and 5% the loop's own overhead (~0.1 ms a slice) read as work and most checks ran on.
Measured on tests/tui/screens/test_app.py, one process: 40-42 s wall at Textual's
setting, 26-27 s at this one, the same CPU. What the tests rely on for order is
unchanged: Pilot's `_wait_for_screen` (every widget's queued messages handled) before
each idle check, and `app_pilot.settle` waiting on the app's workers.
"""

from __future__ import annotations

import pytest
import textual._wait

__all__ = ["quick_idle"]

GRANULARITY = 0.005
IDLE_CPU = GRANULARITY / 10


@pytest.fixture
def quick_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot waits for an idle app in 5 ms steps (see the module docstring)."""
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", GRANULARITY)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", IDLE_CPU)
