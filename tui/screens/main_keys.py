"""The main screen's keys, in the order the footer and the help show them.

Kept apart from the screen so that its code reads as what it does; the paper keys
(`PAPER_BINDINGS`) and the library layer's (`LIBRARY_BINDINGS`) come from their actions.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from tui.screens.library_actions import LIBRARY_BINDINGS
from tui.screens.paper_actions import PAPER_BINDINGS

__all__ = ["MAIN_BINDINGS"]

MAIN_BINDINGS: list[BindingType] = [
    # A priority binding: it runs before the app hands the next keys to the focused
    # widget, so "/dyn" typed fast lands in the search bar, not in the results. Off
    # while the bar has the focus (see `check_action`), where "/" is text.
    Binding(
        "slash",
        "focus_search",
        "Search",
        id="focus_search",
        priority=True,
        tooltip="Type a search (the search bar)",
    ),
    # Enter in the search bar, for the same reason: "gpu", enter, j typed fast moves
    # the cursor instead of searching for "gpuj". Off everywhere else.
    Binding(
        "enter",
        "submit_search",
        "Done typing",
        show=False,
        id="submit_search",
        priority=True,
        tooltip="In the search bar: keep the query and move to the results",
    ),
    *PAPER_BINDINGS,
    Binding(
        "S",
        "cycle_sort",
        "Sort",
        id="cycle_sort",
        tooltip="Next sort order: relevance, year (newest, oldest), title, first author",
    ),
    Binding(
        "v",
        "toggle_compact",
        "View",
        show=False,
        id="toggle_compact",
        tooltip="One line per paper, or the cards again",
    ),
    Binding(
        "M",
        "marked_only",
        "Marked only",
        show=False,
        id="marked_only",
        tooltip="Show only the marked papers, or every paper again",
    ),
    Binding(
        "X",
        "clear_marks",
        "Clear marks",
        show=False,
        id="clear_marks",
        tooltip="Unmark every paper (asks first)",
    ),
    Binding(
        "F",
        "toggle_facets",
        "Hide filters",
        show=False,
        id="toggle_facets",
        tooltip="Hide or show the facet panel",
    ),
    *LIBRARY_BINDINGS,  # tags, status, saved searches, notes, files (library_actions)
    Binding(
        "escape",
        "back",
        "Back",
        show=False,
        id="back",
        tooltip="Step back: detail or filters, results, search bar; clear the bar; results again",
    ),
    # Shown in the footer only when they would do something (see `check_action`).
    Binding(
        "ctrl+y",
        "accept_correction",
        "Did you mean",
        id="accept_correction",
        tooltip="Search for the suggested spelling",
    ),
    Binding(
        "x",
        "clear_filters",
        "Clear filters",
        id="clear_filters",
        tooltip="Unselect every facet value, typed topic: and hw: filters too",
    ),
    Binding(
        "f",
        "focus_facets",
        "Facets",
        show=False,
        id="focus_facets",
        tooltip="Move to the facet panel",
    ),
    Binding(
        "r",
        "focus_results",
        "Results",
        show=False,
        id="focus_results",
        tooltip="Move to the results",
    ),
]
