"""Border titles that repaint only when they change.

Textual repaints a widget whenever its `border_title` or `border_subtitle` is assigned,
even to the text it already shows, and a container's repaint is its whole region with
every child in it. The results column's title (the sort) and the detail pane's (the
mark) were set on every result, so each keystroke redrew and sent both panes whole.
"""

from __future__ import annotations

from textual.widget import Widget

__all__ = ["set_border_subtitle", "set_border_title"]


def set_border_title(widget: Widget, title: str) -> None:
    """Show `title` (paperscope's own words, never a paper's) in the widget's top border."""
    if widget.border_title != title:
        widget.border_title = title


def set_border_subtitle(widget: Widget, subtitle: str) -> None:
    """Show `subtitle` (paperscope's own words) in the widget's bottom border."""
    if widget.border_subtitle != subtitle:
        widget.border_subtitle = subtitle
