"""Finding a paper by what the user types: paperscope's id or their own citation key.

Users cite from their own files, so `westfahl:space`, `Smith_2020` or `Doe:78` (exactly
as written, case included) must find the paper as well as paperscope's shell-safe id
(`westfahl-space`). A miss suggests the closest few names (difflib), never a list of every
id: at 6,000 papers that list is a screenful of noise. The command line and the app both
ask here, so they cannot disagree about what a name means.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from index.models import Paper

__all__ = ["PaperLookup", "closest", "unknown_paper_message"]


def closest(word: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """Up to `limit` candidates spelled like `word` (case-insensitive), best first.

    The one "did you mean" rule: `PaperLookup.suggest` and the manuscript check
    (`paperscope cited`) both use it, so a hint means the same everywhere.
    """
    folded: dict[str, str] = {}
    for candidate in candidates:
        folded.setdefault(candidate.casefold(), candidate)
    key = word.strip().casefold()
    if key in folded:
        return [folded[key]]
    return [folded[m] for m in difflib.get_close_matches(key, list(folded), n=limit, cutoff=0.6)]


class PaperLookup:
    """Paper by id or citation key, and suggestions for a name that is neither.

    Args:
        papers: the library's papers.
    """

    def __init__(self, papers: Iterable[Paper]) -> None:
        self._by_name: dict[str, Paper] = {}
        for paper in papers:
            self._by_name.setdefault(paper.id, paper)
        for paper in self._by_name.copy().values():
            if paper.citation_key:  # an id wins over another paper's identical key
                self._by_name.setdefault(paper.citation_key, paper)

    def find(self, name: str) -> Paper | None:
        """The paper whose id or citation key is `name` exactly; else None."""
        return self._by_name.get(name.strip())

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Up to `limit` ids or keys closest to `name` (case-insensitive), best first."""
        return closest(name, self._by_name, limit)


def unknown_paper_message(name: str, suggestions: list[str]) -> str:
    """One line for a name that is no paper: the closest names, or where to look."""
    hint = (
        f"; did you mean {', '.join(suggestions)}?"
        if suggestions
        else "; `paperscope list` shows every id"
    )
    return f"unknown paper id or citation key {name!r}{hint}"
