"""The settings a user changes from inside the app (citation style, theme), kept in the config.

A mixin for `PaperscopeApp`, apart from the wiring in `app.py`: picking a style or a theme
takes effect at once and is written to the config file, unless that file has errors the
user should fix themselves (it is never overwritten then).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from textual.theme import Theme

from index.citations.keyformats import is_key_style
from index.library.lookup import handle
from tui.services.config import Config, ConfigNotWritable, save_config
from tui.services.user_data import describe_os_error

if TYPE_CHECKING:
    from tui.host import Host

__all__ = ["SettingsActions"]


class SettingsActions:
    """The style picker and the saving of style and theme choices.

    Only ever mixed into `PaperscopeApp`, so each method casts `self` to the `Host` protocol
    (`app`), which the app satisfies; naming the app itself here would be an import cycle.
    """

    def action_pick_style(self) -> None:
        """Pick the citation style with a live preview; the choice is saved to the config."""
        # The dialogs (and TextArea) are imported on first use, not at start-up.
        from tui.screens.dialogs import StylePicker

        app = cast("Host", self)
        paper = getattr(app.screen, "current_paper", None)

        def preview(style: str) -> str:
            resolved = app.style_book.resolve(style)
            return (
                app.papers.format([paper], resolved) if paper else "(highlight a paper to preview)"
            )

        about = f"Preview: {handle(paper)} · {paper.title}" if paper else "No paper to preview"
        app.push_screen(
            StylePicker(app.style_book.choices(), app.config.style, preview, about),
            self._style_picked,
        )

    def _style_picked(self, style: str | None) -> None:
        app = cast("Host", self)
        if style and style != app.config.style:
            # A key format picked here is also what the yank-key action copies in from now on.
            config = replace(app.config, style=style)
            if is_key_style(style):
                config = replace(config, key_style=style)
            self._save_config(config, f"Citation style: {app.style_book.label(style)}")
            reload = getattr(app.screen, "reload_detail", None)
            if reload is not None:
                reload()

    def _remember_theme(self, theme: Theme) -> None:
        """A theme picked from the palette is kept for the next session."""
        app = cast("Host", self)
        if theme.name != app.config.theme:
            self._save_config(replace(app.config, theme=theme.name), f"Theme: {theme.name}")

    def _save_config(self, config: Config, what: str) -> None:
        """Use the new setting now; write it unless the user's file is broken (theirs to fix)."""
        app = cast("Host", self)
        app.config = config
        if app.config_writable:
            try:
                save_config(app.settings.config_path, config)
            except (OSError, ConfigNotWritable) as error:
                reason = describe_os_error(error) if isinstance(error, OSError) else str(error)
                app.notify(
                    f"{what} (not saved: could not save the config: {reason})",
                    severity="warning",
                    markup=False,
                )
                return
            app.notify(f"{what} (saved)", markup=False)
        else:
            app.notify(
                f"{what} (not saved: the config file has errors)", severity="warning", markup=False
            )
