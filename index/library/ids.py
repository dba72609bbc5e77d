"""Paper ids: short, stable, shell-safe names the user types (`paperscope show dynapipe`).

An id must survive a shell unquoted and a URL, so it is `[a-z0-9][a-z0-9._-]*`. It is
derived from what the source itself calls the paper (a BibTeX key, an arXiv id) so that it
stays the same from one run to the next, and only falls back to a slug of author, year
and title when the source gives no name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = ["ID_PATTERN", "IdAllocator", "paper_slug", "slugify", "title_words"]

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_STOPWORDS = {"a", "an", "the", "on", "of", "for", "to", "in", "and", "towards", "toward"}


def slugify(text: str, max_length: int = 48) -> str:
    """Any text -> the id alphabet; "" when nothing usable is left.

    Accents are folded (`Kübler` -> `kubler`), anything else outside `[a-z0-9._-]` becomes
    a hyphen, and leading punctuation is dropped so the id never looks like an option.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    slug = re.sub(r"[^a-z0-9._-]+", "-", ascii_text.lower())
    slug = re.sub(r"-{2,}", "-", slug).strip("-._")
    return slug[:max_length].rstrip("-._")


def paper_slug(authors: Iterable[str], year: int | None, title: str) -> str:
    """`firstauthorfamily + year + first title word`, e.g. `jiang2024dynapipe`."""
    family = ""
    for name in authors:
        parts = name.replace(",", " ").split()
        if parts:
            family = parts[-1]
            break
    significant = title_words(title)
    first = significant[0] if significant else ""
    return slugify(f"{family}{year or ''}{first}") or "paper"


def title_words(title: str) -> list[str]:
    """The title's words without articles and prepositions, as id material."""
    return [w.lower() for w in re.findall(r"[^\W_]+", title) if w.lower() not in _STOPWORDS]


class IdAllocator:
    """Hands out ids that are unique within one library: `x`, then `x-2`, `x-3`, ...

    Args:
        taken: ids already in use (for example curated ids from a sidecar).
    """

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._taken: set[str] = set(taken)
        self._next: dict[str, int] = {}  # next suffix to try per base, so n clashes cost O(n)

    @property
    def taken(self) -> frozenset[str]:
        """Every id handed out or reserved so far."""
        return frozenset(self._taken)

    def reserve(self, ids: Iterable[str]) -> None:
        """Keep `ids` out of what `allocate` hands out (the caller gives them itself)."""
        self._taken.update(ids)

    def allocate(self, *candidates: str | None) -> str:
        """The first usable candidate, made unique; `paper` when none is usable."""
        base = next((s for s in (slugify(c or "") for c in candidates) if s), "paper")
        if base not in self._taken:
            self._taken.add(base)
            return base
        counter = self._next.get(base, 2)
        while f"{base}-{counter}" in self._taken:
            counter += 1
        unique = f"{base}-{counter}"
        self._next[base] = counter + 1
        self._taken.add(unique)
        return unique
