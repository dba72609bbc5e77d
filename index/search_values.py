"""What a search is asked (`SearchRequest`) and what it answers (`SearchResult`).

Frozen values, never Whoosh objects (which die with their searcher), so a result can go
from a worker thread to the UI, be cached and be compared in tests. `index.models`
re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from index.library.papers import Paper

__all__ = [
    "FACET_FIELDS",
    "READING_STATUSES",
    "FacetCount",
    "Hit",
    "PageMatch",
    "SearchRequest",
    "SearchResult",
    "Segment",
    "Snippet",
    "SortOrder",
]

SortOrder = Literal["relevance", "year", "year-asc", "title", "author"]
# "year" is newest first, "year-asc" oldest first, "author" by the first author's family name.
# A paper's reading status, in the order a reader goes through them; `unread` when unset.
READING_STATUSES = ("unread", "to-read", "reading", "read")


@dataclass(frozen=True)
class Segment:
    """A run of snippet text; `highlighted` runs matched the query."""

    text: str
    highlighted: bool = False


@dataclass(frozen=True)
class Snippet:
    """Highlighted text as plain segments, never markup, so untrusted text stays literal."""

    segments: tuple[Segment, ...] = ()

    @property
    def plain(self) -> str:
        return "".join(segment.text for segment in self.segments)

    def marked(self, before: str = "**", after: str = "**") -> str:
        """The text with highlighted runs wrapped, for the command line."""
        return "".join(
            f"{before}{s.text}{after}" if s.highlighted else s.text for s in self.segments
        )


# Facet -> the `SearchRequest` field holding its selected values: the one map the index's
# counting (index.search.counting), the user's layer (index.search.user_layer) and the
# TUI's filters (tui.view.filters) read. The index counts topic to category; tag, status
# and collection are the layer's.
FACET_FIELDS: Mapping[str, str] = MappingProxyType(
    {
        "topic": "topics",
        "hardware": "hardware",
        "year": "years",
        "venue": "venues",
        "author": "authors",
        "keyword": "keywords",
        "category": "categories",
        "tag": "tags",
        "status": "statuses",
        "collection": "collections",
    }
)


@dataclass(frozen=True)
class SearchRequest:
    """Everything that decides a search result; equal requests give equal results.

    Selections are OR within one facet and AND across facets.
    """

    query: str = ""
    topics: frozenset[str] = frozenset()
    hardware: frozenset[str] = frozenset()
    years: frozenset[int] = frozenset()
    venues: frozenset[str] = frozenset()
    authors: frozenset[str] = frozenset()
    # The user's layer and the source's own labels (index.search.user_layer).
    tags: frozenset[str] = frozenset()  # the user's tags
    statuses: frozenset[str] = frozenset()  # reading statuses
    keywords: frozenset[str] = frozenset()  # the source's own keywords / tags (BibTeX, Zotero)
    categories: frozenset[str] = frozenset()  # arXiv categories ("hep-ph")
    collections: frozenset[str] = frozenset()  # Zotero collections ("Thesis/Chapter 2")
    year_range: tuple[int | None, int | None] | None = None  # inclusive; from --year A..B
    # Only these papers (ids), for the marked-only view: its hits and its facet counts.
    within: frozenset[str] | None = None
    sort: SortOrder = "relevance"
    limit: int = 50
    as_you_type: bool = False  # the last, unfinished word matches as a prefix
    # How many values to list per facet, where more than the engine's default are wanted
    # (a panel's "more…"); a limit past the facet's number of values lists every one.
    facet_limits: tuple[tuple[str, int], ...] = ()
    # False: the result has no facet counts (`facets` empty). A command that prints only
    # the papers asks for none: counting every facet over the matches is a fifth of a search.
    counts: bool = True

    @property
    def filter_count(self) -> int:
        count = sum(len(getattr(self, name)) for name in FACET_FIELDS.values())
        return count + (1 if self.year_range else 0)

    def selected(self, facet: str) -> frozenset[str]:
        """The values selected in `facet` (years as text, like the year facet's values)."""
        if facet == "year":
            return frozenset(str(year) for year in self.years)
        values: frozenset[str] = getattr(self, FACET_FIELDS[facet])
        return values


@dataclass(frozen=True)
class PageMatch:
    """Where a paper's full text matched: an attachment, its page, the words around."""

    path: str  # the attachment (as `Paper.attachments` has it)
    page: int | None  # 1-based; None when the source has no page breaks
    snippet: Snippet = field(default_factory=Snippet)


@dataclass(frozen=True)
class Hit:
    """One ranked paper in a result."""

    paper: Paper
    score: float
    matched_fields: tuple[str, ...] = ()
    snippet: Snippet = field(default_factory=Snippet)  # abstract fragments
    title: Snippet = field(default_factory=Snippet)  # the title, highlighted
    # Set when the paper matched in the full text of an attachment (index.search.fulltext).
    page_match: PageMatch | None = None


@dataclass(frozen=True)
class FacetCount:
    """How many matching papers carry one facet value, given the other facets' selections."""

    facet: str  # "topic", "hardware", "year", "venue", "author", "keyword", "category", "tag", ...
    value: str
    label: str
    count: int
    selected: bool = False
    parent: str | None = None  # for the hardware hierarchy


@dataclass(frozen=True)
class SearchResult:
    """What a search returns: ranked hits, totals and the facet counts over all matches."""

    request: SearchRequest
    total: int
    hits: tuple[Hit, ...]
    facets: dict[str, tuple[FacetCount, ...]]
    elapsed_ms: float = 0.0
    notice: str | None = None  # e.g. "Could not parse the query; searched the words instead"
    correction: str | None = None  # "did you mean" query, when nothing matched
    partial: bool = False  # a short prefix was capped to its most frequent expansions
    terms: tuple[str, ...] = ()  # the query's words as matched, for highlighting elsewhere
    library_size: int = 0
    # Facets whose listed values stop at the most frequent: `facet_limits` asks for more.
    more_values: frozenset[str] = frozenset()
