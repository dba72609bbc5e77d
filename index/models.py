"""The values that cross paperscope's module boundaries.

Everything here is a frozen dataclass made of plain Python values, so a result can be
handed from a worker thread to the UI, cached, compared in tests or dumped to JSON without
dragging a live Whoosh searcher (which dies when it is closed) along with it.

This module is where the rest of paperscope imports them from; each is defined beside
what it belongs to: a paper and what its sources said (index.library.papers,
index.library.source_records) in the library package, whose cache pickles them and whose
code fingerprint covers them, and a search's request and result in index.search_values.
"""

from __future__ import annotations

from dataclasses import replace

from index.library.papers import Label, Library, LoadWarning, Name, Paper
from index.library.source_records import (
    JSON_FORMATS,
    Source,
    SourceRecord,
    json_fields,
    json_value,
)
from index.search_values import (
    FACET_FIELDS,
    READING_STATUSES,
    FacetCount,
    Hit,
    PageMatch,
    SearchRequest,
    SearchResult,
    Segment,
    Snippet,
    SortOrder,
)

__all__ = [
    "FACET_FIELDS",
    "JSON_FORMATS",
    "READING_STATUSES",
    "FacetCount",
    "Hit",
    "Label",
    "Library",
    "LoadWarning",
    "Name",
    "PageMatch",
    "Paper",
    "SearchRequest",
    "SearchResult",
    "Segment",
    "Snippet",
    "SortOrder",
    "Source",
    "SourceRecord",
    "json_fields",
    "json_value",
    "replace",
]
