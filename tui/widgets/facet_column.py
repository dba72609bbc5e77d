"""The filters column: the facet panel, and under it the value at its cursor, whole.

A name cut to fit the panel ("Compilers and tensor…") is read here in full, with what to
type to filter by it without the panel (`topic:compilers`, `hw:aws-trainium`) and its
count, so a user learns the query ids by moving through the panel. The line shows only
while the panel has the focus (app.tcss), where there is a cursor to describe.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static, Tree

from tui.widgets.facet_panel import FacetPanel

__all__ = ["FacetColumn", "FacetHint"]


class FacetHint(Static):
    """The cursor's facet value: its whole name, its query id and its count."""


class FacetColumn(Vertical):
    """`FacetPanel` plus the `FacetHint` that follows its cursor."""

    def compose(self) -> ComposeResult:
        yield FacetPanel(id="facets")
        yield FacetHint(id="facet-hint")

    def on_mount(self) -> None:
        self.border_title = "Filters"

    @on(Tree.NodeHighlighted)
    @on(FacetPanel.Rebuilt)
    def describe_cursor(self) -> None:
        """The cursor moved, or the counts under it changed: say what it is on."""
        hint = self.query_one(FacetPanel).cursor_hint()
        self.query_one(FacetHint).update(hint if hint is not None else Text())
