"""A key footer that rebuilds only when the keys it would show have changed.

Textual's `Footer` recomposes on every `bindings_updated_signal`: each focus change, each
shown result (the main screen refreshes its bindings so `check_action` can grey keys out)
and each reactive declared with `bindings=True`. A recompose mounts a fresh `FooterKey`
per shown key and restyles them all; in the app that was about a quarter of the work of
a keystroke that changed nothing in the footer. `SteadyFooter` compares what the footer
would show (key, its display, description, action, enabled, tooltip, group) with what it
shows and leaves the footer alone when they are equal.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer

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
