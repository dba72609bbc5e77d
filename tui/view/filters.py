"""Where the query text and the facet selection meet: `topic:x` typed, or `x` clicked.

A filter can be typed into the query (`topic:training`, `hw:gpu`) or selected in the facet
panel; both must mean the same thing. This module finds the typed ones and folds them
into the selection when the user clicks a value of the same facet, so a click combines
with them by OR like any other selection. Pure functions over `SearchRequest`, no widgets.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from index.models import FACET_FIELDS, SearchRequest

__all__ = [
    "toggle_value",
    "typed_filters",
    "without_selection",
    "without_typed_filters",
]

_PREFIXES = {"topic": "topic", "topics": "topic", "hw": "hardware", "hardware": "hardware"}
_TOKEN = re.compile(r'(?<!\S)(?P<field>topics?|hw|hardware):(?P<value>"[^"]*"|\S+)', re.IGNORECASE)


def typed_filters(query: str) -> dict[str, dict[str, re.Pattern[str]]]:
    """The facet values typed in a query, each with a pattern that removes its token.

    Returns:
        facet -> value -> the regex matching that token, e.g. {"topic": {"training": ...}}.
    """
    found: dict[str, dict[str, re.Pattern[str]]] = {}
    for match in _TOKEN.finditer(query):
        facet = _PREFIXES[match["field"].lower()]
        value = match["value"].strip('"').lower()
        found.setdefault(facet, {})[value] = re.compile(
            r"(?<!\S)" + re.escape(match[0]) + r"(?!\S)"
        )
    return found


def toggle_value(request: SearchRequest, facet: str, value: str) -> SearchRequest:
    """The request with `value` of `facet` selected, or unselected if it was.

    Values of the same facet typed in the query move into the selection first (and out of
    the text), so unselecting a typed value works and a click ORs with the typed ones.
    The caller compares the query before and after to update the search bar.
    """
    name = FACET_FIELDS[facet]
    chosen = set(request.selected(facet))
    query = request.query
    typed = typed_filters(query).get(facet, {})
    for typed_value, pattern in typed.items():
        query = pattern.sub("", query)
        chosen.add(typed_value)
    chosen.symmetric_difference_update({value})
    values = frozenset(int(v) for v in chosen) if facet == "year" else frozenset(chosen)
    if typed:
        query = re.sub(r"\s{2,}", " ", query).strip()
    field: dict[str, Any] = {name: values}  # a field named at run time: mypy cannot match it
    return replace(request, query=query, **field)


def without_selection(request: SearchRequest) -> SearchRequest:
    """Every facet value unselected; filters typed in the query stay, they are text."""
    cleared: dict[str, Any] = {name: frozenset() for name in FACET_FIELDS.values()}
    return replace(request, **cleared)


def without_typed_filters(request: SearchRequest) -> SearchRequest:
    """The query without its typed `topic:` and `hw:` filters (the clear-filters key)."""
    query = request.query
    for patterns in typed_filters(query).values():
        for pattern in patterns.values():
            query = pattern.sub("", query)
    if query == request.query:
        return request
    return replace(request, query=re.sub(r"\s{2,}", " ", query).strip())
