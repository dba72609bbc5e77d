"""What the main screen's own keys do: move between panes, sort, show less, clear, correct.

The bindings are in `main_keys`; searching and drawing the result stay in `main`. A layer
of `MainScreen`.
"""

from __future__ import annotations

from dataclasses import replace

from tui.screens.searching import PAGE, SearchingScreen
from tui.view.filters import without_selection, without_typed_filters
from tui.widgets.detail_pane import DetailPane
from tui.widgets.facet_column import FacetColumn
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar

__all__ = ["SORTS", "MainActions"]

# The sort orders the sort key cycles through, with what the results' border says.
SORTS: tuple[tuple[str, str], ...] = (
    ("relevance", "best match first"),
    ("year", "newest first"),
    ("year-asc", "oldest first"),
    ("title", "by title"),
    ("author", "by first author"),
)


class MainActions(SearchingScreen):
    """Focus, sort order, compact rows, marked only, the facet panel, esc, clearing."""

    def action_focus_search(self) -> None:
        """Move to the search bar to type.

        `set_focus` at once, not `focus()` (which waits for the message queue): keys typed
        right after `/` are already queued, and must reach the search bar, not the results.
        """
        self.set_focus(self.query_one(SearchBar))

    def action_focus_results(self) -> None:
        """Move to the results list (at once, like `action_focus_search`)."""
        self.set_focus(self.query_one(ResultsList))

    def action_cycle_sort(self) -> None:
        """The next sort order (relevance, year newest, year oldest, title, first author)."""
        orders = [sort for sort, _ in SORTS]
        current = orders.index(self.request.sort) if self.request.sort in orders else 0
        self.action_sort(orders[(current + 1) % len(orders)])

    def action_sort(self, sort: str) -> None:
        """Sort the results in one order (a palette command per order)."""
        if sort in dict(SORTS):
            # The results' border says the order; no toast on top of the results too.
            self.request = replace(self.request, sort=sort, limit=PAGE)  # type: ignore[arg-type]

    def action_toggle_compact(self) -> None:
        """One line per paper (title, first author, year, venue), or the cards again."""
        results = self.query_one(ResultsList)
        results.compact = not results.compact

    def action_marked_only(self) -> None:
        """Only the marked papers (that match the search), or every paper again."""
        if not self.marked_only and not len(self._app.marks):
            self.notify("No marked papers: press m on a paper to mark it.", severity="warning")
            return
        self.marked_only = not self.marked_only

    def action_toggle_facets(self) -> None:
        """Hide the facet panel (more room on a narrow terminal), or show it again."""
        column, panel = self.query_one(FacetColumn), self.query_one(FacetPanel)
        focused = panel.has_focus_within
        column.display = not column.display
        if not column.display and focused:
            self.action_focus_results()

    def action_back(self) -> None:
        """Step back one level: detail or filters -> results -> search bar -> clear it.

        Esc on an empty search bar goes to the results again (when there are any), so
        esc never leaves the user stuck where pressing it does nothing.
        """
        bar = self.query_one(SearchBar)
        results = self.query_one(ResultsList)
        pane = self.query_one(DetailPane)
        if pane.has_focus_within and pane.step_back(self._app.papers.label):
            return
        if pane.has_focus_within or self.query_one(FacetPanel).has_focus_within:
            self.action_focus_results()
        elif not bar.has_focus_within:
            self.action_focus_search()
        elif bar.value:
            bar.value = ""
        elif results.hits:
            self.action_focus_results()

    def action_clear_filters(self) -> None:
        """Unselect every facet value, and take typed `topic:` and `hw:` filters out of the query."""
        request = without_typed_filters(without_selection(self.request))
        if request.query != self.request.query:
            self.query_one(SearchBar).value = request.query
        self.request = replace(request, limit=PAGE)

    def action_focus_facets(self) -> None:
        """Move to the facet panel (showing it if it was hidden)."""
        self.query_one(FacetColumn).display = True
        self.set_focus(self.query_one(FacetPanel))

    def action_accept_correction(self) -> None:
        """Search for the "did you mean" spelling."""
        if self.result is not None and self.result.correction:
            bar = self.query_one(SearchBar)
            bar.value = self.result.correction
            bar.cursor_position = len(bar.value)
            bar.focus()
