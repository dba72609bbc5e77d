"""Pilot's idle checks at 2 ms instead of 20 ms: the same check, ten times finer.

Every `pilot.press` key and every `pilot.pause()` ends in Textual's `wait_for_idle`, which
sleeps `SLEEP_GRANULARITY` (20 ms) and repeats until a sleep passed with under 5% of it
spent on the CPU (nothing left to do), or a second went by. A test typing a 20-letter query
waited at least 0.8 s that way, mostly with nothing to wait for: in the TUI tests the idle
waits were about 40% of the wall time.

`quick_idle` keeps the check and its 5% rule and makes the sleep 2 ms. What the tests rely
on for order is unchanged: Pilot's `_wait_for_screen` (every widget's queued messages
handled) before each idle check, and `app_pilot.settle` waiting on the app's workers.
"""

from __future__ import annotations

import pytest
import textual._wait

__all__ = ["quick_idle"]

GRANULARITY = 1 / 500


@pytest.fixture
def quick_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot waits for an idle app in 2 ms steps (see the module docstring)."""
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", GRANULARITY)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", GRANULARITY / 20)
