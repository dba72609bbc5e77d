"""Frames a headless test app draws when a test looks, not sixty times a second.

Under `App.run_test()` the app is headless: Textual still renders every frame its update
timer asks for (each keystroke, each result, each cursor move) and then discards it, since
there is no terminal to write to (`App._display` returns early for a headless app). That
rendering was about half the CPU of a Pilot test.

`defer_headless_frames` keeps the layout work (reflow, resize events, `call_after_refresh`
callbacks all run as before) and skips only the discarded drawing of the top screen: its
dirty regions stay marked, and `draw_pending` draws them all at once. `app_pilot.settle`
calls it, so every state a test settles on is still drawn, and a widget whose rendering
breaks (hostile text, a bad style) still fails the test there. What a test reads from the
screen (`screen_text`, snapshots via `export_screenshot`) is rendered afresh and was never
affected by this.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.screen import Screen

__all__ = ["defer_headless_frames", "draw_pending"]

_draw = Screen._compositor_refresh


def _deferred(self: Screen[Any]) -> None:
    """A frame: headless top screens only record it; everything else as Textual does."""
    app = self.app
    if app.is_headless and not app.is_inline and self is app.screen:
        self.__dict__["_frame_pending"] = True
        self._dirty_widgets.clear()
        app._update_mouse_over(self)
        return
    _draw(self)


def draw_pending(app: Any) -> None:
    """Draw what the screen on top has marked dirty since it was last drawn."""
    screen = app.screen
    if screen.__dict__.pop("_frame_pending", False):
        _draw(screen)


@pytest.fixture
def defer_headless_frames(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Headless apps in the test draw at `draw_pending` (see the module docstring)."""
    monkeypatch.setattr(Screen, "_compositor_refresh", _deferred)
    yield
