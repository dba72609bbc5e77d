"""The small messages widgets and workers post up to the screen that owns the state.

Widgets never reach into their parents: they say what happened, and the screen (which
owns the `SearchRequest`) decides what it means. Workers post results the same way, since
`post_message` is safe to call from a thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from index.models import Paper, SearchResult

__all__ = [
    "FacetToggled",
    "HitHighlighted",
    "IndexFailed",
    "IndexPreview",
    "IndexProgress",
    "IndexReady",
    "LibraryUpdating",
    "MoreResultsWanted",
    "PaperChosen",
    "QueryChanged",
    "QuerySubmitted",
    "SearchFinished",
]


@dataclass
class QueryChanged(Message):
    """The search text changed (every keystroke): search as the user types."""

    query: str


@dataclass
class QuerySubmitted(Message):
    """The user pressed enter in the search bar: remember the query, move to the results."""

    query: str


@dataclass
class FacetToggled(Message):
    """A facet value was picked in the facet panel (select it, or unselect it)."""

    facet: str  # "topic", "hardware", "year", "venue", "author"
    value: str


@dataclass
class HitHighlighted(Message):
    """The results cursor moved; the detail pane follows it when it is visible."""

    paper: Paper | None


@dataclass
class PaperChosen(Message):
    """The user asked to open a paper (a result, a linked version or a similar paper)."""

    paper_id: str
    step: bool = False  # from the detail's similar list: a step that esc undoes


@dataclass
class MoreResultsWanted(Message):
    """The cursor reached the last loaded hit while more papers match."""


@dataclass
class SearchFinished(Message):
    """A search worker finished; dropped by the screen when its request is no longer current.

    `follow_up` marks the second message of a search (a "did you mean" found after a
    pause), sent when the screen may already have started the next search.
    """

    result: SearchResult
    follow_up: bool = False


@dataclass
class SearchThreadEnded(Message):
    """A search worker's thread returned (answered, cancelled or failed): the next search
    may start. `worker` says which, so a late one is not taken for the current one."""

    worker: object


@dataclass
class IndexProgress(Message, bubble=False):
    """The first-run index build moved on; `done` of `total` papers are indexed.

    `step` is a step of the library's load before it, when the app reads the library
    itself (`index.library.load.LoadProgress`: "reading files", "merging duplicates",
    "tagging"); "" for the index build.

    The index messages do not bubble: the app posts them to the main screen, which must
    not hand them back up to the app.
    """

    done: int
    total: int
    step: str = ""


@dataclass
class IndexReady(Message, bubble=False):
    """The search engine is open and can answer searches."""

    engine: object  # index.search.engine.SearchEngine; kept loose so this module stays import-light


@dataclass
class IndexPreview(Message, bubble=False):
    """While a big library's first index is built, `engine` searches a sample of it.

    Searching, reading and copying work on it; `IndexReady` follows with the full index.
    """

    engine: object  # index.search.engine.SearchEngine, as for IndexReady


@dataclass
class RecordsRead(Message, bubble=False):
    """A first start's files are read: `records` (`index.library.first_rows.ReadRecords`)
    show their first page and answer plain searches until the full index is open."""

    records: object


@dataclass
class IndexFailed(Message, bubble=False):
    """The index could not be opened or built: no search, and `reason` says why."""

    reason: str


@dataclass
class LibraryUpdating(Message, bubble=False):
    """Changed source files are being read again: the papers shown are from before them.

    `files` are their paths; empty when the update is over (served, or kept the old papers).
    """

    files: tuple[str, ...]
