"""Turning untrusted paper text into Rich `Text`, never through markup.

Titles, authors and abstracts come from files the user did not write. Building `Text` by
appending plain strings with a style (instead of `Text.from_markup` or a `str` label that
Textual would parse) keeps `[bold]`, `[@click=app.quit]` and `[link=...]` as characters,
and `index.text_safety.for_terminal` shows control characters as visible symbols (ESC as
`␛`) and removes bidi and other invisible characters, so nothing in a file acts on the terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from index.author_lists import author_list
from index.models import PageMatch, Paper, Snippet
from index.text_safety import for_terminal

__all__ = [
    "Body",
    "Labeler",
    "clean",
    "literal",
    "meta_line",
    "short_authors",
    "snippet_text",
    "sparkline",
]

Labeler = Callable[[str, str], str]
"""(facet, id) -> the human label, e.g. ("hardware", "nvidia-gpu") -> "NVIDIA GPU"."""


def clean(text: str, *, one_line: bool = False) -> str:
    """Make untrusted text safe to show: see `index.text_safety.for_terminal`.

    Args:
        text: any string from a document.
        one_line: also fold newlines and tabs into spaces (for list rows).
    """
    return for_terminal(text, one_line=one_line)


def literal(text: str, style: str | Style = "", *, one_line: bool = False, **options: Any) -> Text:
    """Text from anywhere but this program's own strings, as a widget's content: the one
    way a name, label, message or field becomes `Text`.

    `Text(name)` alone keeps markup as characters but lets an escape sequence through: a
    saved search named `ESC ]0;...` retitled the terminal from the `W` list (issue 46).

    Args:
        text: a saved-search name, a style's title, a file name, a message quoting one.
        style: the style of the whole text.
        one_line: fold newlines and tabs into spaces (list rows).
        options: what else `Text` takes (`no_wrap`, `overflow`).
    """
    return Text(clean(text, one_line=one_line), style=style, **options)


_SPARK = "▁▂▃▄▅▆▇█"


def snippet_text(
    snippet: Snippet,
    *,
    match_style: Style | str,
    base_style: Style | str = "",
    one_line: bool = False,
) -> Text:
    """A highlighted snippet as `Text`, each segment appended literally."""
    text = Text(style=base_style)
    for segment in snippet.segments:
        text.append(
            clean(segment.text, one_line=one_line), match_style if segment.highlighted else ""
        )
    return text


def page_match_text(
    found: PageMatch,
    *,
    label_style: Style | str,
    match_style: Style | str,
    base_style: Style | str = "",
) -> Text:
    """ "p. 7: …the KV cache is paged…", a full-text match on one line, appended literally
    (the page's text comes from a PDF: anything may be in it)."""
    label = f"p. {found.page}: " if found.page is not None else "text: "
    text = Text(label, style=label_style)
    return text + snippet_text(
        found.snippet, match_style=match_style, base_style=base_style, one_line=True
    )


def short_authors(paper: Paper, limit: int = 3) -> str:
    """ "A, B, C, et al." so a row shows who wrote it without wrapping."""
    return author_list(
        paper, limit, unknown="authors unknown", each=lambda name: clean(name, one_line=True)
    )


def meta_line(paper: Paper) -> str:
    """ "authors · year · venue", the second line of a result row."""
    parts = [short_authors(paper), str(paper.year) if paper.year else "n.d."]
    if paper.venue:
        parts.append(clean(paper.venue, one_line=True))
    return " · ".join(parts)


def sparkline(counts: Iterable[int]) -> str:
    """Block characters scaled to the largest count: a year histogram in one label."""
    values = list(counts)
    top = max(values, default=0)
    if top <= 0:
        return "".join(_SPARK[0] for _ in values)
    return "".join(
        _SPARK[min(len(_SPARK) - 1, (v * (len(_SPARK) - 1) + top - 1) // top)] for v in values
    )


class Body(Static):
    """The `Static` of paperscope's text panes (detail body, citation, help)."""
