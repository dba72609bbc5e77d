"""Keys for the user's layer on papers: tags, reading status, the note, the attached file.

A mixin for every screen that shows papers (the results and the full-screen detail), so
`t`, `R`, `n` and `O` work wherever a paper is on show. Each acts on the marked papers when
there are any (tags, status), else on the paper the keys act on (`current_paper`), and says
which in its notice. The data lives in the app (tui.library_host).
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual.binding import Binding

from index.models import READING_STATUSES, Paper
from tui.services.annotations import normalize_tag
from tui.services.fulltext import page_of
from tui.services.notes import create_note, editor_command
from tui.services.opener import (
    OpenOutcome,
    launch,
    no_display_reason,
    no_opener_reason,
    open_file,
    system_opener,
)
from tui.services.viewer import viewer_argv

if TYPE_CHECKING:
    from tui.host import LibraryHostView

__all__ = [
    "LAYER_BINDINGS",
    "PaperLayerActions",
    "launch_editor",
    "open_with_viewer",
    "system_opener",
]

# Seconds to wait for a viewer run directly: it shows the file itself, so one still
# running after a moment is showing it (an opener hands the file on, and may take longer).
VIEWER_WAIT = 1.5

LAYER_BINDINGS = [
    Binding(
        "t",
        "edit_tags",
        "Tags",
        show=False,
        id="edit_tags",
        tooltip="Add or remove your tags on the marked papers, or the highlighted one",
    ),
    Binding(
        "R",
        "pick_status",
        "Status",
        show=False,
        id="reading_status",
        tooltip="Pick the reading status (unread, to-read, reading, read, or none) of the marked papers, or the highlighted one",
    ),
    Binding(
        "n",
        "edit_note",
        "Note",
        show=False,
        id="edit_note",
        tooltip="Write the paper's note in your editor ($VISUAL, $EDITOR)",
    ),
    Binding(
        "O",
        "open_attachment",
        "Open file",
        show=False,
        id="open_attachment",
        tooltip="Open the paper's attached file (PDF), at the page the search matched on when the viewer takes a page",
    ),
]


def launch_editor(app: LibraryHostView, command: Sequence[str], path: Path) -> str | None:
    """Run the editor on `path` with the app suspended; None, or why it could not run."""
    from textual.app import SuspendNotSupported

    try:
        with app.suspend():
            done = subprocess.run([*command, str(path)], check=False)
    except SuspendNotSupported:
        return f"the terminal cannot be handed to an editor here; the note is {path}"
    except OSError as error:
        return f"could not start {command[0]}: {error.strerror or error}"
    if done.returncode != 0:
        return f"{command[0]} exited with status {done.returncode}"
    return None


class PaperLayerActions:
    """Tags, status, notes and files for a screen with `current_paper`."""

    @property
    def _host(self) -> LibraryHostView:
        """The app, seen through the protocol of what these actions use.

        Naming `PaperscopeApp` here would make the app and this mixin import each other.
        """
        return cast("LibraryHostView", self.app)  # type: ignore[attr-defined]

    def _targets(self) -> tuple[list[Paper], str]:
        """The marked papers, else the current one; and how to name them in a notice."""
        app = self._host
        marked = app.papers.by_id(app.marks.ids) if len(app.marks) else []
        if marked:
            return marked, f"{len(marked)} marked paper" + ("s" if len(marked) > 1 else "")
        paper = self.current_paper  # type: ignore[attr-defined]
        return ([paper], "the paper") if paper is not None else ([], "")

    def _notify(self, text: str, **options: Any) -> None:
        self._host.notify(text, markup=False, **options)

    # -- tags and status ----------------------------------------------------------------

    def action_edit_tags(self) -> None:
        """Ask for tags to add (`word`, `+word`) or remove (`-word`), with completion."""
        from tui.screens.library_dialogs import TagSuggester, TextDialog

        papers, what = self._targets()
        if not papers:
            self._notify("No paper to tag: highlight one or mark some")
            return
        app = self._host
        current = " ".join(app.annotations.tags_of(papers[0])) if len(papers) == 1 else ""
        help_text = f"Tags for {what}: words or +word add, -word removes; tab completes. " + (
            f"Now: {current}" if current else ""
        )
        dialog = TextDialog("Tags", help_text, suggester=TagSuggester(app.annotations.all_tags()))

        def done(text: str | None) -> None:
            if not text or not text.strip():
                return
            words = text.split()
            remove = [w[1:] for w in words if w.startswith("-")]
            add = [w.lstrip("+") for w in words if not w.startswith("-")]
            app.report_save(app.annotations, app.annotations.change_tags(papers, add, remove))
            # Each tag as stored (`To Read` is kept as `to-read`), so the notice is what is there.
            changes = [f"+{tag}" for tag in dict.fromkeys(normalize_tag(t) for t in add) if tag]
            changes += [f"-{tag}" for tag in dict.fromkeys(normalize_tag(t) for t in remove) if tag]
            tags = " ".join(changes) or "no change"
            self._notify(f"Tags on {what}: {tags}")
            app.apply_user_layer()

        app.push_screen(dialog, done)

    def action_pick_status(self) -> None:
        """Pick the reading status of the marked papers, or the highlighted one."""
        from tui.screens.library_dialogs import CLEAR, StatusPicker

        papers, what = self._targets()
        if not papers:
            self._notify("No paper: highlight one or mark some")
            return
        app = self._host
        now = Counter(app.annotations.status_of(paper) for paper in papers)
        ordered = {status: now[status] for status in READING_STATUSES if now[status]}

        def done(status: str | None) -> None:
            if status == CLEAR:
                self.clear_status(papers, what)
            elif status is not None:
                self.set_status(papers, status, what)

        app.push_screen(StatusPicker(READING_STATUSES, what, ordered), done)

    def action_set_reading_status(self, status: str) -> None:
        """Set the reading status of the marked papers, or the highlighted one."""
        papers, what = self._targets()
        if not papers:
            self._notify("No paper: highlight one or mark some")
            return
        self.set_status(papers, status, what)

    def set_status(self, papers: list[Paper], status: str, what: str = "the paper") -> None:
        """Set a reading status (the palette offers each one by name)."""
        app = self._host
        before = sum(1 for paper in papers if app.annotations.status_of(paper) == status)
        app.report_save(app.annotations, app.annotations.set_status(papers, status))
        unchanged = " (no change)" if before == len(papers) else ""
        self._notify(f"{what[0].upper()}{what[1:]}: {status}{unchanged}")
        app.apply_user_layer()

    def clear_status(self, papers: list[Paper], what: str = "the paper") -> None:
        """Forget the reading status: the papers count as unread, with no status stored."""
        app = self._host
        app.report_save(app.annotations, app.annotations.clear_status(papers))
        self._notify(f"{what[0].upper()}{what[1:]}: no status (counts as unread)")
        app.apply_user_layer()

    # -- notes and files ------------------------------------------------------------------

    def action_edit_note(self) -> None:
        """Open the paper's note in the editor, the app suspended until it exits."""
        paper = self.current_paper  # type: ignore[attr-defined]
        if paper is None:
            self._notify("No paper to write a note on")
            return
        app = self._host
        try:
            path = create_note(app.notes_dir, paper)
        except OSError as error:
            self._notify(
                f"Cannot create the note in {app.notes_dir}: {error.strerror or error}",
                severity="error",
            )
            return
        command = editor_command()
        if command is None:
            self._notify(f"No editor found (set $EDITOR); the note is {path}", severity="warning")
            return
        problem = launch_editor(app, command, path)
        if problem:
            self._notify(problem, severity="warning")
        app.apply_user_layer()

    def matched_page(self, paper: Paper) -> tuple[str, int | None] | None:
        """The attachment and page `paper`'s result matched on in its text: the screen's
        `page_match_of` (the result's `Hit.page_match`; the full-screen detail keeps the
        one it was opened with), as (path, page)."""
        hook = getattr(self, "page_match_of", None)
        return page_of(hook(paper.id)) if hook is not None else None

    def action_open_attachment(self) -> None:
        """Open the first attached file that exists (the one the search matched in, at its
        page, when the viewer takes one: tui.services.viewer); else say where it should be."""
        paper = self.current_paper  # type: ignore[attr-defined]
        if paper is None or not paper.attachments:
            self._notify("This paper has no attached files")
            return
        present = [p for p in paper.attachments if os.path.exists(p)]
        if not present:
            self._notify(
                f"The attached file is missing: {paper.attachments[0]}", severity="warning"
            )
            return
        path, page = present[0], None
        match = self.matched_page(paper)
        if match is not None and match[0] in present:
            path, page = match
        configured = self._host.config.pdf_viewer
        if page is None and not configured:
            opener = system_opener()
            if opener is None:
                # Over SSH or with no desktop: the path is what the user can use.
                # The copy says itself whether it landed; this says why it was needed.
                self._notify(f"No program here opens files ({no_opener_reason()}): {path}")
                self._host.copy_text_to_clipboard(path, "the file's path")
                return
            self._open_in_background(lambda: (open_file(opener, path), None), path)
            return
        unseen = no_display_reason()
        if unseen is not None:
            where = f"{path} (page {page})" if page else path
            self._notify(f"No program here opens files ({unseen}): {where}")
            self._host.copy_text_to_clipboard(path, "the file's path")
            return
        self._open_in_background(lambda: open_with_viewer(configured, path, page), path)

    def _open_in_background(
        self, run_opener: Callable[[], tuple[OpenOutcome, int | None]], path: str
    ) -> None:
        """Run the opener in a worker and say what it did once it has said (tui.services.opener)."""
        app = self.app  # type: ignore[attr-defined]

        def run() -> None:
            outcome, page = run_opener()
            app.call_from_thread(self._opened, outcome, path, page)

        app.run_worker(
            run, thread=True, group="open", description="open a file", exit_on_error=False
        )

    def _opened(self, outcome: OpenOutcome, path: str, page: int | None = None) -> None:
        """ "Opened X" (at page N), or why not and the path copied instead, as `O` promises."""
        if outcome.opened:
            at = f" at page {page}" if page else ""
            self._notify(f"Opened {os.path.basename(path)}{at}")
            return
        self._notify(
            f"Could not open {os.path.basename(path)}: {outcome.reason}", severity="warning"
        )
        self._host.copy_text_to_clipboard(path, "the file's path")


def open_with_viewer(
    configured: str, path: str, page: int | None
) -> tuple[OpenOutcome, int | None]:
    """Open `path` with the configured or default viewer, at `page` when it takes one, else
    with the desktop's opener; and the page it opened at (blocks: runs `xdg-mime`, waits
    for the viewer's verdict)."""
    command = viewer_argv(configured, path, page)
    if command is not None:
        argv, at_page = command
        return launch(argv, VIEWER_WAIT), page if at_page else None
    opener = system_opener()
    if opener is None:
        return OpenOutcome(False, f"no program here opens files ({no_opener_reason()})"), None
    return open_file(opener, path), None
