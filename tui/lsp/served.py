"""One open engine and the names its papers are cited by, with the entries edited since.

Served is what a request reads: one attribute of `LiveLibrary`, replaced whole (never
changed in place) when another engine is opened or another edit read, so a request sees
one consistent library.
"""

from __future__ import annotations

import bisect
import heapq
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from index.library.lookup import closest, paper_name
from index.models import Library, LoadWarning, Paper, SearchRequest
from tui.lsp.overlay import Overlay

if TYPE_CHECKING:
    from index.search.engine import SearchEngine
    from index.store.generations import Opened

__all__ = ["Served"]

_SORT_STEP = 8192  # items sorted per call: the interpreter lock is let go between calls


def _sorted_in_steps(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`sorted(items)`, in slices merged by heapq's (Python) merge: one sort of 100,000
    keys holds the interpreter's lock for a quarter of a second, and a request waits."""
    runs = [sorted(items[at : at + _SORT_STEP]) for at in range(0, len(items), _SORT_STEP)]
    return list(heapq.merge(*runs)) if len(runs) > 1 else (runs[0] if runs else [])


@dataclass
class Served:
    """One open engine and the names its papers are cited by.

    Attributes:
        engine: the search engine.
        keys: paper id -> the citation key completion inserts (the user's own key when
            their file has one, else paperscope's generated key, unique in the library).
        names: every name a manuscript may cite a paper by -> its id: ids, then generated
            keys, then the user's own keys (which win, as in `paperscope cited`).
        library: the loaded library, when one was (else the papers come from the index).
        warnings: the library's load problems.
        overlay: the entries edited since the index was built, served before its own.
    """

    engine: SearchEngine[Opened]
    keys: dict[str, str]
    names: dict[str, str]
    library: Library | None = None
    warnings: tuple[LoadWarning, ...] = ()
    _papers: dict[str, Paper] = field(default_factory=dict)
    # (key folded, paper id), sorted: the keys a typed key prefix starts, found by bisection.
    _folded: list[tuple[str, str]] = field(default_factory=list)
    _suggested: dict[str, list[str]] = field(default_factory=dict)
    # Entries edited since the index was built, until it has them (tui.lsp.overlay).
    overlay: Overlay = field(default_factory=Overlay)

    @classmethod
    def of(cls, engine: SearchEngine[Opened], library: Library | None) -> Served:
        from index.citations import citation_keys

        if library is not None:
            keys = citation_keys(library.papers)
            own = {p.citation_key: p.id for p in library.papers if p.citation_key}
            warnings = library.warnings
        else:
            keys = engine.saved_citation_keys() or {}
            own = {}
            warnings = tuple(engine.opened.warnings)
        names = {paper_id: paper_id for paper_id in engine.paper_ids()}
        names.update({key: paper_id for paper_id, key in keys.items()})
        names.update(own)
        papers = {p.id: p for p in library.papers} if library is not None else {}
        folded = _sorted_in_steps([(key.casefold(), paper_id) for paper_id, key in keys.items()])
        return cls(engine, keys, names, library, warnings, papers, folded)

    def warm(self) -> None:
        """One search, so what an engine reads on its first (the stored papers' lines,
        100,000 after an update at 100,000 papers: index.search.positions) is read here,
        in the library's thread, before a request searches it."""
        self.engine.search(SearchRequest(query="e", as_you_type=True, limit=20, counts=False))

    def with_overlay(self, overlay: Overlay) -> Served:
        """The same engine with other edited entries over it."""
        return replace(self, overlay=overlay)

    def keys_starting(self, prefix: str, limit: int) -> list[str]:
        """Ids of the papers whose key starts with `prefix` (case-insensitive), by key:
        a key typed from memory (`olshausen1996em`) is no query the index answers."""
        folded = prefix.casefold()
        if not folded:
            return []
        out = [paper.id for paper in self.overlay.keys_starting(prefix)]
        hidden = self.overlay.hidden
        start = bisect.bisect_left(self._folded, (folded, ""))
        for key, paper_id in self._folded[start : start + limit + len(hidden)]:
            if not key.startswith(folded) or len(out) >= limit:
                break
            if paper_id not in hidden:
                out.append(paper_id)
        return out

    def paper(self, paper_id: str) -> Paper | None:
        """The paper with that id: as edited, else from the library, else from the
        index's stored fields; None for one edited away."""
        edited = self.overlay.named(paper_id)
        if edited is not None:
            return edited
        if paper_id in self.overlay.hidden:
            return None
        found = self._papers.get(paper_id)
        return found if found is not None else self.engine.paper(paper_id)

    def every_paper(self) -> list[Paper]:
        """The whole library (a manuscript's `\\nocite{*}`), in the engine's order, the
        entries added since at the end."""
        ids = (
            [p.id for p in self.library.papers]
            if self.library is not None
            else list(self.engine.paper_ids())
        )
        seen = set(ids)
        ids += [paper.id for paper in self.overlay.papers if paper.id not in seen]
        found = (self.paper(paper_id) for paper_id in ids)
        return [paper for paper in found if paper is not None]

    def _id_of(self, name: str) -> str | None:
        written = paper_name(name)
        if written is None:
            return None
        edited = self.overlay.named(written)
        if edited is not None:
            return edited.id
        paper_id = self.names.get(written)
        return None if paper_id is None or paper_id in self.overlay.hidden else paper_id

    def knows(self, name: str) -> bool:
        """Whether a manuscript's key names a paper (without reading the paper)."""
        return self._id_of(name) is not None

    def find(self, name: str) -> Paper | None:
        """The paper a manuscript's key names (its own key, generated key or id), exactly."""
        paper_id = self._id_of(name)
        return self.paper(paper_id) if paper_id is not None else None

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """The closest keys, as `paperscope cited` suggests them (`lookup.closest`);
        remembered, since a document keeps its unknown keys while the user types on."""
        found = self._suggested.get(name)
        if found is None:
            found = self._suggested[name] = closest(name, self.names, limit)
        return found

    def key_of(self, paper: Paper) -> str:
        if self.overlay.named(paper.id) is not None:
            return paper.citation_key or paper.id
        return self.keys.get(paper.id) or paper.citation_key or paper.id
