"""What the app does to copy citations and links: format off the UI thread, then copy.

A mixin for `PaperscopeApp`. Screens ask for a copy (`copy_papers`,
`copy_text_to_clipboard`); a worker of the `copy` group formats the papers (the CSL engine
takes time for long lists) and tries every clipboard path (tui.services.clipboard), since
a clipboard tool may hang; the outcome comes back to the UI thread as a notice, or as a
dialog holding the text when nothing could copy it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work

from index.citations import style_label
from index.models import Paper

if TYPE_CHECKING:
    from tui.services.clipboard import CopyOutcome

__all__ = ["CopyHost"]


class CopyHost:
    """The app's copy actions (see the module docstring)."""

    @work(thread=True, group="copy", exit_on_error=False, description="Copying")
    def copy_papers(self, papers: list[Paper], description: str, style: str | None = None) -> None:
        """Format off the UI thread (the CSL engine takes time for long lists), then copy."""
        app: Any = self
        style = style or app.style
        what = f"{style_label(style)} {description}"
        papers = app.as_loaded(papers, what)
        if not papers:
            return
        text = app.papers.format(papers, style)
        self._copy(text, what)

    @work(thread=True, group="copy", exit_on_error=False, description="Copying")
    def copy_text_to_clipboard(self, text: str, description: str) -> None:
        """Copy any text (a link) off the UI thread; a clipboard tool may hang."""
        self._copy(text, description)

    def _copy(self, text: str, description: str) -> None:
        """In a "copy" worker: try every clipboard path, then tell the user what happened."""
        from tui.services.clipboard import copy_text

        app: Any = self
        outcome = copy_text(
            text,
            description=description,
            writer=self._terminal_writer,
            data_dir=app.settings.data_dir,
        )
        app.call_from_thread(self._deliver, outcome)

    def _terminal_writer(self, sequence: str) -> None:
        """Send a raw escape sequence (OSC 52) through the driver, on the UI thread."""
        app: Any = self

        def write() -> None:
            driver = app._driver  # Textual has no public raw write
            if driver is None:
                raise RuntimeError("the app is not running in a terminal")
            driver.write(sequence)

        app.call_from_thread(write)

    def _deliver(self, outcome: CopyOutcome) -> None:
        from tui.screens.dialogs import CopyFallback

        app: Any = self
        if outcome.copied:
            app._clipboard = outcome.text  # so Textual's own paste (ctrl+v) pastes it too
        if outcome.needs_dialog:
            app.push_screen(CopyFallback(outcome.text, outcome.message))
        else:
            app.notify(outcome.message, title="Copy", markup=False)
