"""Which of a library's shingles a second text may hold: what dedupe's index needs to keep.

Dedupe finds candidate pairs through an index from each shingle (three word ids) to the
texts holding it (`index.library.dedupe`). A shingle only one text holds can never make a
pair, and in a big library nearly all shingles are such: of 100,000 synthetic abstracts'
shingles 2.3% are held twice or more, of the shared real exports' (11,454 papers) 5.6%.
Indexing all of them cost one dict entry and one bytes object per shingle, ~90 bytes: at
100,000 abstracts 1.8 GB of the load's 2.4 GB peak, and a million would not fit in memory.

One pass over every text first marks each shingle's slot in a byte table (its hash picks
the slot; a slot counts up to two texts), and the index then keeps the shingles whose slot
saw two. Two shingles sharing a slot only keep a shingle that was not needed (the table
is sized for a few per cent of such); a shingle that is shared is never left out, so the
pairs found are exactly those of indexing everything. Every step runs in C (`map` over
the table's and `bytes`' own methods, `translate` for the counting): about a
microsecond per shingle for both passes, ~7% more time for the pair search at 100,000
abstracts (the calls, not the table's size: a table of 8 KB costs nearly as much).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress

__all__ = ["SharedShingles"]

# A slot's count after one more text: 0 -> 1 -> 2, and 2 stays 2.
_COUNTED = bytes([1, 2, 2]) + bytes(253)
# Whether a slot's count says "two texts or more".
_TWICE = bytes([0, 0, 1]) + bytes(253)
# Slots per shingle expected, rounded up to a power of two: with `_scored_pairs`' estimate
# (characters / 4, about twice the shingles of prose) 7-14 slots per real shingle.
_ROOM = 4
_MIN_BITS, _MAX_BITS = 10, 31


class SharedShingles:
    """Counts, per slot of a hashed table, how many texts hold a shingle there (up to 2)."""

    def __init__(self, expected: int) -> None:
        """`expected`: about how many shingles all texts hold (more is only more memory)."""
        bits = min(_MAX_BITS, max(_MIN_BITS, (expected * _ROOM).bit_length()))
        self._mask = (1 << bits) - 1
        self._counts = bytearray(1 << bits)

    def add(self, grams: Iterable[bytes]) -> None:
        """Count one text's distinct shingles."""
        slots = list(map(self._mask.__and__, map(hash, grams)))
        counts = self._counts
        before = bytes(map(counts.__getitem__, slots))
        # `list` drives the map: each slot is set to its count plus this text.
        list(map(counts.__setitem__, slots, before.translate(_COUNTED)))

    def among(self, grams: Iterable[bytes]) -> frozenset[bytes]:
        """Those of `grams` a second text may hold: every shared one, and a few more."""
        grams = list(grams)
        counts = bytes(map(self._counts.__getitem__, map(self._mask.__and__, map(hash, grams))))
        return frozenset(compress(grams, counts.translate(_TWICE)))
