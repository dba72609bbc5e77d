"""The option list of the dialogs and the similar papers: `j`/`k` move its cursor.

Textual's `OptionList` moves with the arrows only. In paperscope `j`/`k` move every list
(the results, the facets), so a list where `j` did nothing (the style picker, the saved
searches) or scrolled the pane around it (the similar papers) read as broken.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import OptionList

__all__ = ["KeyList"]


class KeyList(OptionList):
    """An `OptionList` whose cursor `j` and `k` move too."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="list.down", tooltip="Next"),
        Binding("k", "cursor_up", "Up", show=False, id="list.up", tooltip="Previous"),
    ]
