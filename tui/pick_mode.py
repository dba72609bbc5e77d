"""`paperscope pick`: the whole app as a chooser, like fzf: enter prints, esc cancels.

The app is drawn on the terminal (Textual writes to stderr and reads stdin), so stdout
carries only the picked citation: `key=$(paperscope pick)` works, and so does an editor
reading the command's output. Enter means "pick" only where a paper is under the cursor;
in the search bar it still moves to the results, so typing a query and pressing enter never
prints a paper the user has not seen highlighted.

Marks start empty and are not saved: marking papers here is for this one pick, and must not
change (or be changed by) the bibliography the user is collecting in the app.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from index.citations import KeyFormatError, StyleFileError
from tui.app import PaperscopeApp
from tui.services.user_data import Marks
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar

__all__ = ["PickApp"]


class PickApp(PaperscopeApp):
    """The app, returning the citation of the papers picked (or None when cancelled).

    Args:
        pick_style: the style the picked papers are printed in (a resolved style name).
        query: what the search bar starts with.
    """

    BINDINGS = [
        # Priority, so enter on the results picks instead of opening the detail; disabled
        # (and passed on) everywhere else: the search bar, the facets, dialogs.
        Binding(
            "enter",
            "pick",
            "Pick",
            priority=True,
            id="pick",
            tooltip="Print the citation of the marked papers, or of the highlighted one, and leave",
        ),
        Binding(
            "escape",
            "cancel_pick",
            "Cancel",
            priority=True,
            id="cancel_pick",
            tooltip="Leave without printing anything (exit status 1)",
        ),
        # The app's own keys again, so the help screen (which lists this class's bindings)
        # shows quit, help, search and style here too; Textual merges the repeats.
        *PaperscopeApp.BINDINGS,
    ]

    def __init__(self, *args: Any, pick_style: str = "key", query: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pick_style = pick_style
        self.initial_query = query
        self.marks = Marks(None)  # in memory only (see the module doc)
        self.sub_title = "pick"

    def on_mount(self) -> None:
        if self.initial_query:
            self.call_after_refresh(self._type_query)

    def _type_query(self) -> None:
        bar = self.main_screen.query_one(SearchBar)
        bar.value = self.initial_query
        bar.cursor_position = len(self.initial_query)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Pick only on the main screen's results (shown dimmed elsewhere on it); dialogs keep enter and esc."""
        if action not in ("pick", "cancel_pick"):
            return True
        if self.screen is not self.main_screen:
            return False
        if action == "pick" and not isinstance(self.focused, ResultsList):
            return None
        return True

    def action_pick(self) -> None:
        """Leave with the citation of the marked papers, else of the highlighted one."""
        papers = self.papers.by_id(self.marks.ids)
        if not papers:
            paper = self.main_screen.query_one(ResultsList).highlighted
            papers = [paper] if paper is not None else []
        if not papers:
            self.notify("No paper to pick: search, then highlight one.", severity="warning")
            return
        try:
            text = self.papers.format(papers, self.pick_style)
        except (KeyFormatError, StyleFileError) as error:
            self.notify(str(error), title="Cannot pick", severity="error", markup=False)
            return
        self.exit(text)

    def action_cancel_pick(self) -> None:
        """Leave printing nothing, with exit status 1 (as fzf does)."""
        self.exit(None, return_code=1)

    async def action_quit(self) -> None:
        """Quitting a pick is cancelling it."""
        self.action_cancel_pick()
