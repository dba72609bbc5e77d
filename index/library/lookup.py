"""Finding a paper by what the user types: paperscope's id or their own citation key.

Users cite from their own files, so `westfahl:space`, `Smith_2020` or `Doe:78` (exactly
as written, case included) must find the paper as well as paperscope's shell-safe id
(`westfahl-space`). A miss suggests the closest few names (difflib), never a list of every
id: at 6,000 papers that list is a screenful of noise. The command line and the app both
ask here, so they cannot disagree about what a name means.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from index.models import Paper

__all__ = ["PaperLookup", "closest", "handle", "paper_name", "unknown_paper_message"]

# What an id or a citation key can look like: one token, no quotes or parentheses (BibTeX
# keys hold colons, dots, slashes and more, so nothing else is excluded).
_NAME = re.compile(r"[^\s'\"()]+")


def paper_name(text: str) -> str | None:
    """`text` as a paper's id or citation key would be written, or None when it cannot be.

    The search engine asks this of a whole query: `westfahl:space` typed in the search
    bar (or given to `paperscope pick`) is then first of all that paper, found exactly as
    `PaperLookup.find` finds it (case-sensitive, id or key), before the words it also is.
    """
    name = text.strip()
    return name if _NAME.fullmatch(name) else None


def handle(paper: Paper) -> str:
    """The name to show a paper by: the user's own citation key, which their documents
    cite and citar, fzf-bibtex and telescope-bibtex show; paperscope's id only for a
    paper without one. `PaperLookup.find` finds a paper by either."""
    return paper.citation_key or paper.id


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
        generated: paperscope's generated citation keys (paper id -> key), for names a
            manuscript may use (`paperscope cited`); none for the other commands.
        keys_first: when one paper's id or generated key is spelled like another paper's
            own key, the own key wins (a manuscript cites the user's keys); by default the
            id wins (`show ID` names what `paperscope list` printed).
    """

    def __init__(
        self,
        papers: Iterable[Paper],
        generated: Mapping[str, str] | None = None,
        keys_first: bool = False,
    ) -> None:
        papers = list(papers)
        ids = {paper.id: paper for paper in reversed(papers)}  # the first of an id wins
        own: dict[str, Paper] = {}
        for paper in papers:
            if paper.citation_key:
                own.setdefault(paper.citation_key, paper)
        made: dict[str, Paper] = {}
        for paper in papers:
            key = (generated or {}).get(paper.id)
            if key:
                made.setdefault(key, paper)
        layers = (ids, made, own) if keys_first else (made, own, ids)  # weakest first
        merged: dict[str, Paper] = {}
        for layer in layers:
            merged.update(layer)
        # Of two names one case apart a hint offers the first: for `show ID` the id
        # `paperscope list` printed; for a manuscript the user's own key, which their .bib
        # holds too (a case slip in `\cite{OlshField96}` was offered the id `olshfiel96`).
        order = (*own, *made, *ids) if keys_first else (*ids, *own, *made)
        self._by_name = {name: merged[name] for name in order}

    def find(self, name: str) -> Paper | None:
        """The paper whose id or citation key is `name` exactly; else None."""
        written = paper_name(name)
        return self._by_name.get(written) if written is not None else None

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
