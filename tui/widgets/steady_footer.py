"""A key footer that rebuilds only when the keys it would show have changed.

Textual's `Footer` recomposes on every `bindings_updated_signal`: each focus change, each
shown result (the main screen refreshes its bindings so `check_action` can grey keys out)
and each reactive declared with `bindings=True`. A recompose mounts a fresh `FooterKey`
per shown key and restyles them all; in the app that was about a quarter of the work of
a keystroke that changed nothing in the footer. `SteadyFooter` compares what the footer
would show (key, its display, description, action, enabled, tooltip, group) with what it
shows and leaves the footer alone when they are equal.

New keys are made in the footer's current compactness. A `FooterKey` starts compact
and `data_bind` then gives it the footer's value: two class changes, each restyling the
key and its parts, for every key of every rebuild, about a third of the styling of the
app's start.

It also shows only the keys that fit. Textual's footer scrolls what does not fit, under
the command palette's key docked on the right: at 80 columns the first letter of the
hidden "s Style" showed after "^p palette" ("paletteS"). Keys past the room are hidden
from the end (F1's help lists every key), and come back when the terminal widens.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

__all__ = ["SteadyFooter"]

Shown = tuple[Any, ...]


def shown_keys(footer: Footer, screen: Screen[Any]) -> Shown:
    """Everything `Footer.compose` reads to build its keys, as one comparable value."""
    app = footer.app
    keys = tuple(
        (
            key,
            binding.key,
            app.get_key_display(binding),
            binding.description,
            binding.action,
            enabled,
            tooltip,
            binding.tooltip,
            None if binding.group is None else (binding.group.description, binding.group.compact),
        )
        for key, (_, binding, enabled, tooltip) in screen.active_bindings.items()
        if binding.show or key == app.COMMAND_PALETTE_BINDING
    )
    return (
        keys,
        footer.show_command_palette,
        app.ENABLE_COMMAND_PALETTE,
        footer.combine_groups,
    )


class SteadyFooter(Footer):
    """`Footer`, minus the rebuilds that would show the same keys again."""

    _shown: Shown | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            shown = shown_keys(self, screen)
            if shown == self._shown and self._bindings_ready:
                return
            self._shown = shown
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        """Textual's keys, each starting as compact as the footer (see the module docstring)."""
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # The palette's key is not bound to the footer: it stays compact, its default.
                palette = widget.has_class("-command-palette")
                compact = True if palette else self.compact
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self.fit_keys)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit_keys)

    def watch_compact(self, compact: bool) -> None:
        # The screen makes the footer compact below 110 columns: the keys' widths change.
        self.call_after_refresh(self.fit_keys)

    def fit_keys(self) -> None:
        """Hide the keys, from the last, that would run under the command palette's key."""
        keys: list[Widget] = []
        room = self.size.width
        for child in self.children:
            if child.has_class("-command-palette"):
                room -= _width(child)
            else:
                keys.append(child)
        used = 0
        for key in keys:
            # A key's margin only parts it from the next one: the last may do without.
            width = _width(key, margin=False)
            key.display = used + width <= room
            used += width + key.styles.margin.width


def _width(widget: Widget, *, margin: bool = True) -> int:
    """The cells `widget` takes in the footer's row, shown or not."""
    content = widget.get_content_width(Size(0, 1), Size(0, 1))
    return content + widget.styles.gutter.width + (widget.styles.margin.width if margin else 0)
