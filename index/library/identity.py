"""A paper's stable identities: what the user's own layer (tags, status, notes) is keyed by.

Paper ids are generated (`smith2021-pipeline`) and may change when a source is re-exported,
deduplicated differently or renamed, so data the user typed must not hang off them. A
paper is known instead by every identity that names it in the outside world, strongest
first: its DOI, its arXiv id (without the version), the source's citation key, and a
normalised title with the year. A stored record keeps all of them; a paper matches the
record when any one agrees, so a paper that gained a DOI, lost its citation key or got a
new id after a re-import is still recognised.
"""

from __future__ import annotations

import re

from index.library.normalize import words
from index.models import Paper

__all__ = ["identities", "primary_identity"]

_ARXIV_VERSION = re.compile(r"v\d+$")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
_ARXIV_PREFIX = re.compile(r"^(?:arxiv:|https?://arxiv\.org/abs/)", re.IGNORECASE)


def identities(paper: Paper) -> tuple[str, ...]:
    """Every identity of `paper`, strongest first (`doi:...`, `arxiv:...`, `key:...`, `title:...`).

    The title identity is the paper's normalised words (accents, case, LaTeX and
    punctuation folded) and its year; an inferred title (derived from the abstract) is no
    identity at all, since it changes whenever the abstract is edited.
    """
    found: list[str] = []
    if paper.doi:
        found.append("doi:" + _DOI_PREFIX.sub("", paper.doi.strip()).lower())
    if paper.arxiv:
        found.append(
            "arxiv:" + _ARXIV_VERSION.sub("", _ARXIV_PREFIX.sub("", paper.arxiv.strip()).lower())
        )
    if paper.citation_key:
        found.append("key:" + paper.citation_key.strip())
    if paper.title and not paper.title_inferred:
        title = " ".join(words(paper.title))
        if title:
            found.append(f"title:{title}|{paper.year if paper.year is not None else ''}")
    if not found:  # nothing else is known: the id is the only handle there is
        found.append("id:" + paper.id)
    return tuple(dict.fromkeys(found))


def primary_identity(paper: Paper) -> str:
    """The strongest identity, for messages and file names."""
    return identities(paper)[0]
