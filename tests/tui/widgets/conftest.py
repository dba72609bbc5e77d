"""What the widget tests share: a count of the whole-screen layouts their apps do."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen


@pytest.fixture
def reflows(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per whole-screen layout the test's apps do: Textual answers any widget's
    layout request by reflowing every widget of the screen."""
    done: list[int] = []
    original = Screen._refresh_layout

    def counted(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        done.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return done
