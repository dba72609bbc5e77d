"""What the user can do with papers wherever they are shown: copy, mark, export, open.

The main screen and the full-screen detail view both offer these keys, so they live in
one mixin; each screen only says which paper is "current" (`current_paper`).
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urlsplit

from textual import work
from textual.binding import Binding

from index.atomic import write_text_atomic
from index.citations.export import FILE_FORMATS, export_label
from index.library.lookup import handle
from index.models import Paper
from index.text_safety import for_terminal
from tui.widgets.detail_pane import paper_links

if TYPE_CHECKING:
    from tui.host import Host

__all__ = ["PAPER_BINDINGS", "PaperActions", "checked_link", "launch_browser"]

PAPER_BINDINGS = [
    Binding(
        "c",
        "copy_citation",
        "Copy",
        id="copy_citation",
        tooltip="Copy the paper's citation in the current style",
    ),
    Binding(
        "y",
        "copy_keys",
        "Copy key",
        id="copy_keys",
        tooltip="Copy the citation keys of the marked papers (else the current one) "
        "in the last key format picked (key, LaTeX, pandoc, Typst, Org)",
    ),
    Binding(
        "m",
        "toggle_mark",
        "Mark",
        id="toggle_mark",
        tooltip="Mark or unmark the paper for a bibliography",
    ),
    Binding(
        "b",
        "copy_bibliography",
        "Copy marked",
        id="copy_bibliography",
        tooltip="Copy every marked paper as one bibliography",
    ),
    Binding(
        "e",
        "export_bibliography",
        "Export marked",
        show=False,
        id="export_bibliography",
        tooltip="Write every marked paper as one bibliography to a file",
    ),
    Binding(
        "o",
        "open_link",
        "Open link",
        show=False,
        id="open_link",
        tooltip="Open the paper's DOI, arXiv or URL in a browser",
    ),
]


class PaperActions:
    """Paper actions for a screen that has a `current_paper`."""

    @property
    def current_paper(self) -> Paper | None:  # pragma: no cover - overridden by screens
        return None

    @property
    def _app(self) -> Host:
        return cast("Host", self.app)  # type: ignore[attr-defined]

    def refresh_marks(self) -> None:
        """Redraw whatever shows marks; screens override."""

    def action_copy_citation(self) -> None:
        """Copy the current paper's citation in the current style."""
        paper = self.current_paper
        if paper is None:
            self._app.notify("No paper to copy: search, then highlight one.", severity="warning")
            return
        self._app.copy_papers([paper], f"citation of {handle(paper)}")

    def action_copy_keys(self) -> None:
        """Copy keys for pasting into a draft: the marked papers', else the current paper's."""
        if self._marks_unknown():
            return
        papers = self._marked_papers()
        what = f"for {len(papers)} marked papers"
        if not papers:
            paper = self.current_paper
            if paper is None:
                self._app.notify(
                    "No paper to copy: search, then highlight one.", severity="warning"
                )
                return
            papers, what = [paper], f"for {handle(paper)}"
        self._app.copy_papers(papers, what, style=self._app.key_style)

    def action_toggle_mark(self) -> None:
        """Mark the current paper (or unmark it); marks are saved at once."""
        paper = self.current_paper
        if paper is None:
            return
        marks = self._app.marks
        marked = marks.toggle(paper.id)
        message = f"{'Marked' if marked else 'Unmarked'} {handle(paper)} ({len(marks)} marked)"
        if marks.save_error:
            self._app.notify(
                f"{message}, but {marks.save_error}",
                title="Marks",
                severity="warning",
                markup=False,
            )
        else:
            self._app.notify(message, markup=False)
        self.refresh_marks()

    def action_clear_marks(self) -> None:
        """Unmark every paper, after asking (marks are a reading list built over time)."""
        from tui.screens.dialogs import ConfirmDialog

        count = len(self._app.marks)
        if not count:
            self._app.notify("No marked papers.", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._app.marks.clear()
                self.refresh_marks()
                self._app.notify(f"Cleared {count} marks")

        papers = "paper" if count == 1 else "papers"
        self._app.push_screen(
            ConfirmDialog("Clear marks", f"Unmark {count} marked {papers}?"), answered
        )

    def _marked_papers(self) -> list[Paper]:
        return self._app.papers.by_id(self._app.marks.ids)

    def _marks_unknown(self) -> bool:
        """True, said so, while marks cannot be resolved: a first start's early sample
        serves and may not hold every marked paper (tui/first_start.py)."""
        if not self._app.marks.ids or self._app.library_loaded.is_set():
            return False
        self._app.notify(
            "Your marked papers can be copied once the library is read; "
            "the status line says how far it got.",
            title="Marks",
            severity="warning",
        )
        return True

    def action_copy_bibliography(self) -> None:
        """Copy every marked paper, in the order marked, as one bibliography."""
        if self._marks_unknown():
            return
        papers = self._marked_papers()
        if not papers:
            self._app.notify("No marked papers: press m on a paper to mark it.", severity="warning")
            return
        self._app.copy_papers(papers, f"bibliography of {len(papers)} marked papers")

    def action_export_bibliography(self) -> None:
        """Ask where (and so in which format), then write the marked papers there (atomically)."""
        from index.citations.export import extension_for
        from tui.screens.export_dialog import CYCLE, ExportDialog

        if self._marks_unknown():
            return
        papers = self._marked_papers()
        if not papers:
            self._app.notify("No marked papers: press m on a paper to mark it.", severity="warning")
            return
        style = self._app.style
        last = self._app.last_export
        default = last if last else Path.cwd() / f"marked.{extension_for(style)}"
        book = self._app.style_book
        # ctrl+t offers what the style picker offers, resolved the same way (`latex:citep`).
        formats = [f if f in FILE_FORMATS else book.resolve(f) for f in CYCLE]
        formats += [book.resolve(name) for name in book.custom]

        def chosen(answer: tuple[Path, str] | None) -> None:
            if answer is not None:
                target, fmt = answer
                self._app.last_export = target
                self._export(papers, fmt, target)

        self._app.push_screen(
            ExportDialog(len(papers), style, default, Path.cwd(), formats), chosen
        )

    @work(thread=True, group="copy", exit_on_error=False, description="Exporting the bibliography")
    def _export(self, papers: list[Paper], fmt: str, path: Path) -> None:
        try:
            text = self._app.papers.export(papers, fmt)
            write_text_atomic(path, text)
        except (OSError, ValueError) as error:  # a full disk; a key a key format cannot hold
            reason = error.strerror if isinstance(error, OSError) else None
            self._app.call_from_thread(
                self._app.notify,
                f"Could not write {path}: {reason or error}",
                title="Export",
                severity="error",
                markup=False,
            )
            return
        self._app.call_from_thread(
            self._app.notify,
            f"Exported {len(papers)} papers as {export_label(fmt)} to {path}",
            title="Exported",
            markup=False,
        )

    def action_open_link(self) -> None:
        """Open the paper's best safe link (DOI, then arXiv, then URL) in the browser.

        Document text is never markup (`markup=False`, and the link shown through
        `for_terminal`), and only web links are opened: see `checked_link`.
        """
        paper = self.current_paper
        links = paper_links(paper) if paper else []
        if not links:
            self._app.notify("This paper has no DOI, arXiv id or URL.", severity="warning")
            return
        checked = [checked_link(link) for link in links]
        url = next((url for url, _ in checked if url is not None), None)
        if url is None:  # say why the best one was refused
            self._app.notify(
                f"Not opening {shown_link(links[0])}: {checked[0][1]}.",
                title="Open link",
                severity="warning",
                markup=False,
            )
            return
        self._open_link(url)

    @work(thread=True, group="open", exit_on_error=False, description="Opening the link")
    def _open_link(self, url: str) -> None:
        """Launch the browser off the UI thread; when none opens, copy the link instead."""
        failure = launch_browser(url, os.environ)
        if failure is None:
            self._app.call_from_thread(
                self._app.notify, f"Opening {shown_link(url)}", title="Open link", markup=False
            )
            return
        self._app.call_from_thread(
            self._app.notify,
            f"{failure}: copying the link instead.",
            title="Open link",
            severity="warning",
            markup=False,
        )
        self._app.call_from_thread(self._app.copy_text_to_clipboard, url, "link")


# Schemes a browser may be asked to open; `javascript:`, `file:`, `data:` and the rest are
# refused (a document chose the link, not the user).
_WEB_SCHEMES = ("http", "https")
_SHOWN_MAX = 200


def checked_link(link: str) -> tuple[str | None, str]:
    """The link when it is safe to hand to a browser, else None and why not.

    A value starting with `-` would be read by a browser as a command-line switch; a
    link with spaces or control characters is not one a browser should guess at.
    """
    url = link.strip()
    if url.startswith("-"):
        return None, "it starts with '-', which a browser would read as an option"
    if any(ch.isspace() or not ch.isprintable() for ch in url):
        return None, "it holds spaces or control characters"
    parts = urlsplit(url)
    if parts.scheme.lower() not in _WEB_SCHEMES:
        scheme = f"{parts.scheme}:" if parts.scheme else "no scheme"
        return None, f"only http(s) links are opened, not {scheme}"
    if not parts.netloc or parts.netloc.startswith("-"):
        return None, "it names no web site"
    return url, ""


def shown_link(link: str) -> str:
    """The link as a notification may show it: one line, safe, and not a page long."""
    text = for_terminal(link, one_line=True)
    return text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 1] + "…"


def launch_browser(url: str, env: Mapping[str, str]) -> str | None:
    """Open `url` in a graphical browser; returns why none could be opened, or None.

    Over SSH a browser would open on the remote machine, and without a display Python's
    `webbrowser` would start a text browser (lynx, w3m) inside the app's own terminal:
    both count as "no browser", and the caller copies the link instead.
    """
    if env.get("SSH_TTY") or env.get("SSH_CONNECTION"):
        return "Over SSH a browser would open on the remote machine"
    graphical = (
        sys.platform in ("darwin", "win32") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")
    )
    if not graphical:
        return "No graphical browser here (no DISPLAY)"
    try:
        if webbrowser.open(url, new=2):
            return None
    except Exception as error:  # webbrowser.Error, or a browser that crashed at start
        return f"The browser failed ({type(error).__name__})"
    return "No browser could be opened"
