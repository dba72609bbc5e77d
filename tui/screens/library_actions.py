"""The main screen's keys for the user's layer: saved searches, plus the paper keys.

A mixin for `MainScreen` (kept apart so the screen's own file stays about searching).
Tags, status, notes and files are in `layer_actions` (the full-screen detail has them
too); this module saves, recalls and counts searches, and follows changes of the layer.
The data lives in the app (tui.library_host).
"""

from __future__ import annotations

from dataclasses import replace

from textual import work
from textual.binding import Binding

from index.models import READING_STATUSES, FacetCount, SearchRequest
from tui.screens.layer_actions import LAYER_BINDINGS, PaperLayerActions

__all__ = [
    "LIBRARY_BINDINGS",
    "LIBRARY_COMMANDS",
    "LibraryActions",
]

LIBRARY_BINDINGS = [
    *LAYER_BINDINGS,
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


def _request_key(request: SearchRequest) -> SearchRequest:
    return replace(request, limit=0, as_you_type=False, facet_limits=())


class LibraryActions(PaperLayerActions):
    """Saved searches and the layer's refreshes for a screen with `request` (the main one);
    tags, status, notes and files come from `PaperLayerActions`."""

    _saved_counts: dict[str, int] | None = None

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
                try:
                    app.report_save(store, store.delete(name))
                except KeyError:  # deleted meanwhile by another app or a script
                    pass
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
            name: engine.search(replace(request, limit=0, counts=False)).total
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
