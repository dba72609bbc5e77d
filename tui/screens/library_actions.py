"""The main screen's keys for the user's layer: tags, status, saved searches, notes, files.

A mixin for `MainScreen` (kept apart so the screen's own file stays about searching):
each action works on the marked papers when there are any, else on the highlighted one,
and says which in its notice. The data lives in the app (tui.library_host); this module
only asks the user and tells the app what changed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual import work
from textual.binding import Binding

from index.models import READING_STATUSES, FacetCount, Paper, SearchRequest
from tui.services.notes import create_note, editor_command

__all__ = [
    "LIBRARY_BINDINGS",
    "LIBRARY_COMMANDS",
    "LibraryActions",
    "launch_editor",
    "system_opener",
]

LIBRARY_BINDINGS = [
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
        "w",
        "save_search",
        "Save search",
        show=False,
        id="save_search",
        tooltip="Save the query and the selected filters under a name",
    ),
    Binding(
        "W",
        "manage_saved",
        "Saved searches",
        show=False,
        id="manage_saved",
        tooltip="Recall, rename or delete saved searches",
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
        tooltip="Open the paper's first attached file (PDF) with the system's opener",
    ),
    *(
        Binding(
            str(n),
            f"recall_saved({n})",
            f"Saved {n}",
            show=False,
            id=f"recall_saved_{n}",
            tooltip=f"Recall saved search {n}",
        )
        for n in range(1, 10)
    ),
]


# The palette's names for these actions (tui.commands offers them with the others).
LIBRARY_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("Tags", "Add or remove your tags on the marked or highlighted papers", "edit_tags"),
    *(
        (
            f"Status: {status}",
            f"Set the reading status to {status}",
            f"set_reading_status('{status}')",
        )
        for status in READING_STATUSES
    ),
    ("Status…", "Pick the reading status in a small dialog", "pick_status"),
    ("Save search", "Save the query and selected filters under a name", "save_search"),
    ("Saved searches", "Recall, rename or delete a saved search", "manage_saved"),
    ("Note", "Write the paper's note in your editor", "edit_note"),
    ("Open file", "Open the paper's first attached file (PDF)", "open_attachment"),
)


def launch_editor(app: Any, command: Sequence[str], path: Path) -> str | None:
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


def system_opener(
    environ: Mapping[str, str] | None = None, which: Callable[[str], str | None] = shutil.which
) -> str | None:
    """The program that opens a file as the desktop would, or None (none, or over SSH)."""
    env = os.environ if environ is None else environ
    if env.get("SSH_CONNECTION") or env.get("SSH_TTY"):
        return None  # it would open on the remote machine's desktop, if anywhere
    for program in ("open",) if sys.platform == "darwin" else ("xdg-open", "gio"):
        found = which(program)
        if found:
            return found
    return None


def _request_key(request: SearchRequest) -> SearchRequest:
    return replace(request, limit=0, as_you_type=False, facet_limits=())


class LibraryActions:
    """Actions on the user's layer for a screen with `request` and `current_paper`."""

    _saved_counts: dict[str, int] | None = None

    @property
    def _host(self) -> Any:
        """The app: the `Host` protocol plus the library layer (tui.library_host).

        Typed loosely: naming `PaperscopeApp` here made the app and this mixin import each
        other; a protocol of what these actions use is still to be written.
        """
        return self.app  # type: ignore[attr-defined]

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
            self._notify(f"Tags changed on {what}")
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

    # -- saved searches -------------------------------------------------------------------

    def action_save_search(self) -> None:
        """Name the current query and filters; an existing name is replaced."""
        from tui.screens.library_dialogs import TextDialog

        request: SearchRequest = self.request  # type: ignore[attr-defined]
        app = self._host
        dialog = TextDialog(
            "Save this search",
            "A name for the query and the selected filters (1-9 recall the first nine):",
            request.query.strip()[:40],
        )

        def done(name: str | None) -> None:
            if name is None or not name.strip():
                return
            try:
                saved = app.saved_searches.save(name, request)
            except ValueError as error:
                self._notify(str(error), severity="warning")
                return
            app.report_save(app.saved_searches, saved)
            number = app.saved_searches.names.index(" ".join(name.split())) + 1
            self._notify(
                f"Saved as {' '.join(name.split())!r}" + (f" (key {number})" if number <= 9 else "")
            )
            self.count_saved()

        app.push_screen(dialog, done)

    def action_recall_saved(self, number: int) -> None:
        """Recall saved search `number` (1-9)."""
        names = self._host.saved_searches.names
        if not 1 <= number <= len(names):
            self._notify(f"No saved search {number} (w saves the current one)")
            return
        self.recall_saved(names[number - 1])

    def recall_saved(self, name: str) -> None:
        """Show a saved search: its query in the bar and its filters selected."""
        from tui.widgets.search_bar import SearchBar

        saved = self._host.saved_searches.get(name)
        if saved is None:
            self._notify(f"No saved search named {name!r}")
            return
        current: SearchRequest = self.request  # type: ignore[attr-defined]
        # A reactive of the screen this mixes into.
        setattr(self, "request", replace(saved, limit=current.limit, as_you_type=True))  # noqa: B010
        bar = self.query_one(SearchBar)  # type: ignore[attr-defined]
        bar.value = saved.query
        bar.cursor_position = len(saved.query)

    def action_manage_saved(self) -> None:
        """List saved searches with counts: recall, rename or delete one."""
        from tui.screens.library_dialogs import SavedSearchesDialog, TextDialog

        app = self._host
        store = app.saved_searches
        if not len(store):
            self._notify("No saved searches yet (w saves the current one)")
            return
        counts = self._saved_counts or {}
        rows = [(name, counts.get(name)) for name in store.names]

        def done(choice: tuple[str, str] | None) -> None:
            if choice is None:
                return
            action, name = choice
            if action == "recall":
                self.recall_saved(name)
            elif action == "delete":
                app.report_save(store, store.delete(name))
                self._notify(f"Deleted the saved search {name!r}")
                self.count_saved()
            elif action == "rename":

                def renamed(new: str | None) -> None:
                    if not new or not new.strip():
                        return
                    try:
                        app.report_save(store, store.rename(name, new))
                    except (KeyError, ValueError) as error:
                        self._notify(str(error), severity="warning")
                        return
                    self._notify(f"Renamed {name!r} to {' '.join(new.split())!r}")
                    self.count_saved()

                app.push_screen(
                    TextDialog("Rename saved search", f"A new name for {name!r}:", name), renamed
                )

        app.push_screen(SavedSearchesDialog(rows), done)

    @work(
        thread=True,
        exclusive=True,
        group="saved",
        exit_on_error=False,
        description="Counting saved searches",
    )
    def count_saved(self) -> None:
        """Each saved search's live count, for the facet panel's Saved section."""
        app = self._host
        engine = app.engine
        if engine is None:
            return
        counts = {
            name: engine.search(replace(request, limit=0)).total
            for name, request in app.saved_searches
        }
        app.call_from_thread(self._show_saved_counts, counts)

    def _show_saved_counts(self, counts: dict[str, int]) -> None:
        self._saved_counts = counts
        result = getattr(self, "result", None)
        if result is not None:
            from tui.view.facets import facet_view
            from tui.widgets.facet_panel import FacetPanel

            panel = self.query_one(FacetPanel)  # type: ignore[attr-defined]
            panel.show_facets(
                self.with_saved(facet_view(result, self._host.taxonomy)), result.more_values
            )

    def with_saved(
        self, view: dict[str, tuple[FacetCount, ...]]
    ) -> dict[str, tuple[FacetCount, ...]]:
        """The facet view with the Saved section (each saved search and its live count)."""
        counts = self._saved_counts
        if counts is None:
            return view
        current = _request_key(self.request)  # type: ignore[attr-defined]
        rows = tuple(
            FacetCount(
                "saved",
                name,
                (f"{n}. " if n <= 9 else "") + name,
                counts.get(name, 0),
                _request_key(request) == current,
            )
            for n, (name, request) in enumerate(self._host.saved_searches, 1)
        )
        return {"saved": rows, **view}

    # -- refreshes from the app ------------------------------------------------------------

    def user_layer_changed(self) -> None:
        """Tags, statuses or notes changed: search again, redraw the detail, recount."""
        self.start_search()  # type: ignore[attr-defined]
        self._reload_detail()
        self.count_saved()

    def library_reloaded(self) -> None:
        """The library changed under the screen: the same query on the new papers."""
        self.user_layer_changed()

    def _reload_detail(self) -> None:
        from tui.widgets.detail_pane import DetailPane

        pane = self.query_one(DetailPane)  # type: ignore[attr-defined]
        if pane.detail is not None and getattr(self, "wide", False):
            self.load_detail(pane.detail.paper.id, pane.detail.terms)  # type: ignore[attr-defined]

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

    def action_open_attachment(self) -> None:
        """Open the first attached file that exists; else say where it should be."""
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
        path = present[0]
        opener = system_opener()
        app = self._host
        if opener is None:
            # Over SSH or with no desktop: the path is what the user can use.
            # The copy says itself whether it landed; this says why it was needed.
            self._notify(f"No program here opens files: {path}")
            app.copy_text_to_clipboard(path, "the file's path")
            return
        try:
            subprocess.Popen(
                [opener, path],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as error:
            self._notify(
                f"{opener} failed: {error.strerror or error}; the file is {path}",
                severity="warning",
            )
            return
        self._notify(f"Opening {os.path.basename(path)}")
