"""Paper data for the screens: labels, papers by id, citations and the detail pane's content.

These are reads of the engine and the library, shared by every screen, that do not need
the app itself; they live here so `app.py` stays the wiring. Several run in worker threads
(a detail, a bibliography), hence the lock around the lazily built citation keys.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from index.citations import citation_keys, format_citation, style_label
from index.citations.export import export_text
from index.facets.taxonomy import Taxonomy
from index.models import Library, PageMatch, Paper, SearchRequest, Segment, Snippet

if TYPE_CHECKING:
    from index.search.engine import SearchEngine

__all__ = ["PaperData", "PaperDetail"]


@dataclass(frozen=True)
class PaperDetail:
    """What the detail pane shows, computed off the UI thread (a value, no widgets)."""

    paper: Paper
    abstract: Snippet  # the full abstract with the query's words highlighted
    related: tuple[Paper, ...] = ()  # linked versions of the same work
    similar: tuple[Paper, ...] = ()  # more like this
    citation: str = ""
    style_label: str = ""
    terms: tuple[str, ...] = ()  # the query's words, to rebuild the detail in another style
    # The user's layer and the source's extras: (heading, text), see tui.view.user_detail.
    extra: tuple[tuple[str, str], ...] = ()
    # False for a first start's record as read (index.library.first_rows): not tagged yet.
    tagged: bool = True
    # Where the attachments' text matched (the hit's page), when the search found it there.
    page_match: PageMatch | None = None


class PaperData:
    """What the screens ask about papers, answered from the engine (once it is open).

    Args:
        taxonomy: names for facet ids.
        library: the papers as loaded, when the app indexed them itself; citation keys are
            computed over it so they match `paperscope cite`. None on a current index
            opened without the library: the keys are then the ones the build computed over
            the same library and saved (index.search.paper_keys).
        engine: returns the open engine, or None while the index is still being built.
    """

    def __init__(
        self, taxonomy: Taxonomy, library: Library | None, engine: Callable[[], SearchEngine | None]
    ) -> None:
        self._taxonomy = taxonomy
        self._library = library
        self._engine = engine
        self._keys: dict[str, str] | None = None  # citation keys, computed on first use
        self._keys_lock = threading.Lock()  # formatting runs in several worker threads
        # The detail's rows for the user's layer (tui.view.user_detail), set by the app.
        self.extras: Callable[[Paper], tuple[tuple[str, str], ...]] | None = None
        # A first start's records as read, by the id shown (index.library.first_rows).
        self.records: Callable[[str], Paper | None] | None = None

    def label(self, facet: str, value: str) -> str:
        """The taxonomy's name for a facet value, or the id when it has none."""
        labeler = getattr(self._taxonomy, "label", None)
        try:
            return str(labeler(facet, value)) if labeler else value
        except (KeyError, ValueError):
            return value

    def by_id(self, ids: Sequence[str]) -> list[Paper]:
        """The known papers among `ids`, in that order."""
        engine = self._engine()
        found = [engine.paper(paper_id) for paper_id in ids] if engine else []
        return [paper for paper in found if paper is not None]

    def as_loaded(self, papers: Sequence[Paper]) -> list[Paper]:
        """`papers`, shown from an early sample (before dedupe), as the loaded library has
        them: by id, or the paper that holds their first source when dedupe merged them
        into another one (`index.library.early_sample`). Those it has not are left out."""
        if self._library is None:
            return list(papers)
        by_id = {paper.id: paper for paper in self._library.papers}
        wanted = {paper.sources[0] for paper in papers if paper.id not in by_id and paper.sources}
        holder = {
            source: paper
            for paper in self._library.papers
            for source in paper.sources
            if source in wanted
        }
        found = [
            by_id.get(paper.id) or (holder.get(paper.sources[0]) if paper.sources else None)
            for paper in papers
        ]
        return list(dict.fromkeys(paper for paper in found if paper is not None))

    def format(self, papers: Sequence[Paper], style: str) -> str:
        """The citation as `paperscope cite` prints it: keys are unique in the whole library."""
        return format_citation(papers, style, keys=self._citation_keys())

    def export(self, papers: Sequence[Paper], fmt: str) -> str:
        """The file `paperscope export --format FMT` would write for these papers."""
        return export_text(papers, fmt, self._citation_keys())

    def _citation_keys(self) -> dict[str, str]:
        with self._keys_lock:
            if self._keys is None:
                self._keys = self._library_keys()
            return self._keys

    def _library_keys(self) -> dict[str, str]:
        if self._library:
            return citation_keys(self._library.papers)
        engine = self._engine()
        cites = engine.saved_citation_keys() if engine is not None else None
        if cites is not None:
            return cites
        return citation_keys(self._all_papers())  # an index from before the keys were saved

    def _all_papers(self) -> tuple[Paper, ...]:
        engine = self._engine()
        if engine is None:
            return ()
        result = engine.search(SearchRequest(limit=max(1, engine.size), counts=False))
        return tuple(hit.paper for hit in result.hits)

    def _unindexed(self, paper_id: str, style: str) -> PaperDetail | None:
        """A paper shown before the index has it (a first start's records as read, or the
        loaded library while it is indexed): its own fields, no similar papers, and its
        citation once the library is loaded (merging duplicates can change its key)."""
        library = self._library
        loaded = library is not None
        paper = None
        if library is not None:
            paper = next((p for p in library.papers if p.id == paper_id), None)
        tagged = paper is not None
        if paper is None and self.records is not None:
            paper = self.records(paper_id)
        if paper is None:
            return None
        citation = "(the citation once the library is read)"
        if loaded:
            try:
                citation = self.format([paper], style)
            except ValueError as error:
                citation = f"(cannot format this citation: {error})"
        abstract = Snippet((Segment(paper.abstract),)) if paper.abstract else Snippet()
        extra = self.extras(paper) if self.extras is not None else ()
        label = style_label(style)
        return PaperDetail(
            paper, abstract, citation=citation, style_label=label, extra=extra, tagged=tagged
        )

    def detail(
        self,
        paper_id: str,
        terms: tuple[str, ...],
        style: str,
        page_match: PageMatch | None = None,
    ) -> PaperDetail | None:
        """Everything the detail pane shows; runs in a worker thread. `page_match`: the
        hit's match in the full text, shown with it."""
        engine = self._engine()
        paper = engine.paper(paper_id) if engine else None
        if paper is None or engine is None:
            return self._unindexed(paper_id, style)
        abstract = (
            engine.highlight(paper.abstract, terms) if terms and paper.abstract else Snippet()
        )
        related = tuple(self.by_id(paper.related))
        similar = tuple(
            p for p in engine.more_like_this(paper.id, limit=5) if p.id not in paper.related
        )
        try:
            citation = self.format([paper], style)
        except ValueError as error:  # a key a key format cannot hold, a broken user style
            citation = f"(cannot format this citation: {error})"
        extra = self.extras(paper) if self.extras is not None else ()
        return PaperDetail(
            paper,
            abstract,
            related,
            similar,
            citation,
            style_label(style),
            terms,
            extra,
            page_match=page_match,
        )
