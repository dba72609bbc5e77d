"""One line, "terminal too small", instead of the app laid out in a terminal it cannot fit.

At 1x1 Textual's layout raised (an option list's wrap width came out as zero: `range()
arg 3 must not be zero`) and the app died (issue 46). Below `MIN_SIZE` the app shows this
screen on top of whatever was open; at a usable size again it is dismissed and the screens
under it come back as they were. They are not laid out meanwhile: Textual resizes the top
screen and the screens that show through it, always including the one right under it, so
a blank opaque screen sits between (`_Blank`); a screen resumed lays itself out at the
current size.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

__all__ = ["MIN_SIZE", "TooSmallScreen", "follow_size"]

# The smallest terminal the app is laid out in (columns, rows).
MIN_SIZE = Size(40, 10)


class _Blank(Screen[None]):
    """Nothing, opaque: the screens under it are not resized while the terminal is tiny."""


class TooSmallScreen(Screen[None]):
    """The line that says how small the terminal is and what it needs."""

    DEFAULT_CSS = """
    TooSmallScreen { layout: vertical; }
    TooSmallScreen > Static { width: 1fr; height: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show(self.app.size)

    def show(self, size: Size) -> None:
        """Says the current size; cut to the width, one line whatever the width."""
        line = (
            f"Terminal too small: {size.width}x{size.height} "
            f"(paperscope needs {MIN_SIZE.width}x{MIN_SIZE.height})"
        )
        text = Text(line, no_wrap=True, overflow="ellipsis")
        self.query_one("#too-small", Static).update(text)


def too_small(size: Size) -> bool:
    return size.width < MIN_SIZE.width or size.height < MIN_SIZE.height


def follow_size(app: App[Any], size: Size) -> None:
    """Show or dismiss the line for the terminal's new size (call on every resize)."""
    try:
        top = app.screen
    except Exception:  # no screen yet: the first one is checked when it is pushed
        return
    if too_small(size):
        if isinstance(top, TooSmallScreen):
            if top.is_mounted:
                top.show(size)
        else:
            app.push_screen(_Blank())
            app.push_screen(TooSmallScreen())
    elif isinstance(top, TooSmallScreen):
        app.pop_screen()
        if isinstance(app.screen, _Blank):
            app.pop_screen()
        # The screen under it missed the resizes: its breakpoint classes follow this one.
        app.screen.post_message(events.Resize(size, size))
