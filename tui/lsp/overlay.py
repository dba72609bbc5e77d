"""Entries edited since the served index was built, offered until the index has them.

Reading a big library again and updating its index takes tens of seconds at 100,000
papers; a writer who just fixed an entry cites it at once. So the edited `.bib` entries
are read alone (index.library.bib_delta) and kept here: completion, hover, definition and
diagnostics consult this first, and the index's own copies of the changed or removed
entries are hidden. It is small (what one sitting edits) and replaced whole by each
edit, and dropped when the index the server serves has caught up.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from index.library.bib_delta import BibDelta
from index.models import Paper

__all__ = ["Overlay"]

_WORD = re.compile(r"[^\W_]+")


def _folded(text: str) -> list[str]:
    """Words case- and accent-folded, as the index's analyzer folds them (`Kübler` ->
    `kubler`)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _WORD.findall(plain)


def _words(paper: Paper) -> frozenset[str]:
    """What a typed query may match in an edited entry: key, people, year, title, venue."""
    parts = [paper.citation_key or "", *paper.authors, paper.title, paper.venue or ""]
    if paper.year is not None:
        parts.append(str(paper.year))
    words = {word for part in parts for word in _folded(part)}
    if paper.citation_key:
        words.add(paper.citation_key.casefold())
    return frozenset(words)


@dataclass(frozen=True)
class Overlay:
    """The edited entries and what of the index they stand in for.

    Attributes:
        papers: the new or changed entries as the files now have them; a changed entry
            keeps the id the index gives it (so the user's tags still apply).
        hidden: ids of the index's papers changed or removed since it was built.
    """

    papers: tuple[Paper, ...] = ()
    hidden: frozenset[str] = frozenset()
    _by_name: dict[str, Paper] = field(default_factory=dict, compare=False)
    _words: dict[str, frozenset[str]] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, deltas: Iterable[BibDelta], names: Mapping[str, str]) -> Overlay:
        """The overlay of these files' deltas; `names`: the index's names -> paper ids."""
        papers: dict[str, Paper] = {}
        hidden: set[str] = set()
        for delta in deltas:
            hidden.update(names[key] for key in delta.gone if key in names)
            for paper in delta.papers:
                key = paper.citation_key
                if not key:  # no key tells which paper of the index it replaces: the
                    continue  # full read serves it
                known = names.get(key)
                paper = replace(paper, id=known or key)
                if known is not None:
                    hidden.add(known)
                papers[paper.id] = paper
        by_name = {paper.id: paper for paper in papers.values()}
        by_name.update((p.citation_key, p) for p in papers.values() if p.citation_key)
        words = {paper.id: _words(paper) for paper in papers.values()}
        return cls(tuple(papers.values()), frozenset(hidden), by_name, words)

    def __bool__(self) -> bool:
        return bool(self.papers or self.hidden)

    def named(self, name: str) -> Paper | None:
        """The edited entry with that key or id."""
        return self._by_name.get(name)

    def matching(self, query: str) -> list[Paper]:
        """The edited entries every word of `query` starts a word of (as the search bar
        reads a query as it is typed)."""
        typed = _folded(query)
        return [
            paper
            for paper in self.papers
            if all(any(word.startswith(t) for word in self._words[paper.id]) for t in typed)
        ]

    def keys_starting(self, prefix: str) -> list[Paper]:
        folded = prefix.casefold()
        return [
            paper
            for paper in self.papers
            if folded and (paper.citation_key or paper.id).casefold().startswith(folded)
        ]
