"""Which indexed papers carry an identity or name a note, without reading every paper's keys.

The user's layer is their few annotated papers and notes; to apply it to an index opened
without the library, each annotation's identities and each note's file name must be
matched to the papers that carry them. Reading every paper's saved keys to match them
(`SavedKeys.rows`) cost ~60 ms at 27,500 papers and ~0.5 s at 100,000, paid by every
search and start of a user with a single tag. The build therefore saves beside the rows
(index.search.paper_keys) a table sorted by a 64-bit digest of each (paper, identity) and
(paper, note name) pair, with the paper's row and the identity's rank (0: its strongest);
a lookup is a binary search in it, and reading it is copying three byte strings and a
list of ids.

A digest could in principle name two different identities; at 64 bits and a million
papers' pairs the chance is about one in 10^7, against a tag shown on a wrong paper.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from hashlib import blake2b
from typing import Any, Protocol

__all__ = ["Identified", "KeyLookup", "lookup_section", "note_stem", "patched_section"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")
_DIGESTS, _ROWS, _RANKS = "Q", "I", "B"  # array type codes: 8, 4 and 1 bytes
_MAX_RANK = 255
_RANK, _ENTRY = 8, 40  # an entry: digest << 40 | row << 8 | rank
_ROW_MASK = (1 << (_ENTRY - _RANK)) - 1


class Identified(Protocol):
    """What the table is made of: a paper's saved keys (index.search.paper_keys.PaperKeys)."""

    @property
    def id(self) -> str: ...

    @property
    def identities(self) -> tuple[str, ...]: ...

    @property
    def citation_key(self) -> str | None: ...


def note_stem(citation_key: str | None, paper_id: str) -> str:
    """The file name, without `.md`, of a paper's note: its citation key (else its id) with
    every character unsafe in a file name replaced, never hidden nor empty."""
    return _UNSAFE.sub("_", citation_key or paper_id).lstrip(".") or paper_id


def _digest(kind: str, value: str) -> int:
    data = f"{kind}\x00{value}".encode("utf-8", "surrogatepass")
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "little")


def lookup_section(keys: Sequence[Identified]) -> dict[str, Any]:
    """The table for `keys` (one row per paper, in their order), as marshal can save it.

    Each entry is packed into one int (digest, row, rank) so the sort compares ints, not
    tuples: ~1.4 -> ~0.9 s at 100,000 papers (400,000 entries).
    """
    entries: list[int] = []
    add = entries.append
    for row, paper in enumerate(keys):
        for rank, identity in enumerate(paper.identities):
            add(_digest("identity", identity) << _ENTRY | row << _RANK | min(rank, _MAX_RANK))
        add(_digest("note", note_stem(paper.citation_key, paper.id)) << _ENTRY | row << _RANK)
    entries.sort()
    return {
        "digests": array(_DIGESTS, [e >> _ENTRY for e in entries]).tobytes(),
        "rows": array(_ROWS, [(e >> _RANK) & _ROW_MASK for e in entries]).tobytes(),
        "ranks": array(_RANKS, [e & _MAX_RANK for e in entries]).tobytes(),
        "sizes": [array(code).itemsize for code in (_DIGESTS, _ROWS, _RANKS)],
        "ids": [paper.id for paper in keys],
    }


def patched_section(
    section: dict[str, Any], dead: set[str], added: Sequence[Identified]
) -> dict[str, Any]:
    """A saved table (`lookup_section`) without the entries of the papers in `dead` and
    with those of `added`, whose rows follow the table's last: no identity is digested
    again but theirs. Its answers are those of a table written afresh; its ids keep the
    dead papers' rows, unused, until the next full write.

    Raises ValueError or TypeError for a table that is not what was written.
    """
    old = KeyLookup(section)
    dead_rows = {row for row, paper_id in enumerate(old._ids) if paper_id in dead}
    entries = [
        digest << _ENTRY | row << _RANK | rank
        for digest, row, rank in zip(old._digests, old._rows, old._ranks)
        if row not in dead_rows
    ]
    ids = old._ids + [paper.id for paper in added]
    new = lookup_section(added)
    first = len(old._ids)
    entries += (
        digest << _ENTRY | (first + row) << _RANK | rank
        for digest, row, rank in zip(
            array(_DIGESTS, new["digests"]), array(_ROWS, new["rows"]), array(_RANKS, new["ranks"])
        )
    )
    entries.sort()
    return {
        "digests": array(_DIGESTS, [e >> _ENTRY for e in entries]).tobytes(),
        "rows": array(_ROWS, [(e >> _RANK) & _ROW_MASK for e in entries]).tobytes(),
        "ranks": array(_RANKS, [e & _MAX_RANK for e in entries]).tobytes(),
        "sizes": new["sizes"],
        "ids": ids,
    }


class KeyLookup:
    """The saved table: the papers that carry an identity, the papers a note names."""

    def __init__(self, section: dict[str, Any]) -> None:
        """Raises ValueError or TypeError for a table that is not what was written."""
        if section.get("sizes") != [array(c).itemsize for c in (_DIGESTS, _ROWS, _RANKS)]:
            raise ValueError("the table was written with other item sizes")
        self._digests = array(_DIGESTS, section["digests"])
        self._rows = array(_ROWS, section["rows"])
        self._ranks = array(_RANKS, section["ranks"])
        self._ids: list[str] = list(section["ids"])
        count = len(self._digests)
        if not (len(self._rows) == len(self._ranks) == count):
            raise ValueError("the table's columns differ in length")
        if count and max(self._rows) >= len(self._ids):
            raise ValueError("the table names a row it has no paper for")

    def overlaid(self, changed: KeyLookup) -> KeyLookup:
        """This table with the papers of `changed` (a table of their new keys) answered
        from it instead: an in-place update's changed papers (index.search.paper_keys)."""
        self._replaced = frozenset(changed._ids)
        self._overlay: KeyLookup | None = changed
        return self

    _replaced: frozenset[str] = frozenset()
    _overlay: KeyLookup | None = None

    def papers_with(self, identity: str) -> list[tuple[str, int]]:
        """(paper id, rank of `identity` among that paper's identities, 0 the strongest)
        for every paper that carries `identity`."""
        found = [
            (self._ids[self._rows[i]], self._ranks[i]) for i in self._find("identity", identity)
        ]
        if self._overlay is None:
            return found
        kept = [hit for hit in found if hit[0] not in self._replaced]
        return kept + self._overlay.papers_with(identity)

    def papers_named(self, stem: str) -> list[str]:
        """The papers whose note is `<stem>.md` (`note_stem`)."""
        found = [self._ids[self._rows[i]] for i in self._find("note", stem)]
        if self._overlay is None:
            return found
        kept = [paper_id for paper_id in found if paper_id not in self._replaced]
        return kept + self._overlay.papers_named(stem)

    def _find(self, kind: str, value: str) -> range:
        digest = _digest(kind, value)
        start = bisect_left(self._digests, digest)
        return range(start, bisect_right(self._digests, digest, lo=start))
