"""What counts as evidence that two records are one paper, decided in one place.

Merging is data loss as the user sees it when it is wrong: the merged-away paper vanishes
from search and its id says "unknown paper". So `dedupe` only merges on evidence it can
name, and this module says what is evidence and what is not:

- a placeholder or very short abstract ("Not Available", "No Abstract.", "Keywords",
  "CHI 2015", "Book by ...") says nothing about the paper: reference managers fill the
  field with such stubs for hundreds of unrelated entries;
- two records carrying different DOIs or different arXiv ids are different works (a
  conference paper and its journal version), whatever their abstracts share;
- a shared DOI with clearly different titles is a book and its chapters (publishers give
  chapters the book's DOI), not one paper;
- texts that agree are one paper only when their real titles agree too.
"""

from __future__ import annotations

import difflib
import re

from index.library.normalize import words
from index.models import Paper

__all__ = [
    "MIN_EVIDENCE_WORDS",
    "arxiv_key",
    "doi_key",
    "has_real_title",
    "is_placeholder",
    "titles_agree",
    "titles_clearly_differ",
]

# An abstract of fewer words is a stub or a label ("CHI 2015"), not a text to compare.
MIN_EVIDENCE_WORDS = 10
# Stock texts that reference managers and publishers put where an abstract is missing.
_PLACEHOLDER = re.compile(
    r"^\W*(?:(?:abstract\s+)?not\s+available|no\s+abstract(?:\s+available)?|n/?a|none|"
    r"abstract|keywords?|summary|book\s+by\b.*|(?:this\s+)?abstract\s+(?:is\s+)?not\s+"
    r"(?:available|provided)\b.*|no\s+abstract\s+(?:is\s+)?(?:available|provided)\b.*)\W*$",
    re.IGNORECASE | re.DOTALL,
)
_DOI_PREFIX = re.compile(r"^\s*(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_ARXIV_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
# Title word overlap (difflib ratio over folded words) at which two titles are one title,
# and under which they are clearly two different works.
_AGREE_AT = 0.8
_DIFFER_BELOW = 0.5


def is_placeholder(abstract: str, word_count: int | None = None) -> bool:
    """True when the abstract is a stub that must never count as evidence of sameness.

    `word_count`: its number of `words`, when the caller has tokenised it anyway (dedupe
    does: at 100,000 abstracts a second tokenising here was ~10 s of the load).
    """
    text = abstract.strip()
    if not text:
        return True
    if (len(words(text)) if word_count is None else word_count) < MIN_EVIDENCE_WORDS:
        return True
    return len(text) < 400 and _PLACEHOLDER.match(text) is not None


def doi_key(doi: str | None) -> str:
    """A DOI as compared: bare (no resolver URL or `doi:`), lower case; "" when none."""
    return _DOI_PREFIX.sub("", doi or "").strip().lower()


def arxiv_key(arxiv: str | None) -> str:
    """An arXiv id as compared: without its version (`2401.00001v2` is `2401.00001`)."""
    return _ARXIV_VERSION.sub("", (arxiv or "").strip().lower())


def has_real_title(paper: Paper) -> bool:
    """True when the title is the source's own, not derived from the text or missing."""
    return not paper.title_inferred and bool(words(paper.title))


def _title_ratio(first: str, second: str) -> float:
    a, b = words(first), words(second)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    if len(shorter) >= 3 and longer[: len(shorter)] == shorter:
        return 1.0  # a title without its subtitle
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def titles_agree(first: Paper, second: Paper) -> bool:
    """True unless both records have real titles and those titles are not one title."""
    if not (has_real_title(first) and has_real_title(second)):
        return True
    return _title_ratio(first.title, second.title) >= _AGREE_AT


def titles_clearly_differ(first: Paper, second: Paper) -> bool:
    """True when both have real titles that share too little to be one work's title."""
    if not (has_real_title(first) and has_real_title(second)):
        return False
    return _title_ratio(first.title, second.title) < _DIFFER_BELOW
