"""Which of a library's shingles a second text may hold: what dedupe's index needs to keep.

Dedupe finds candidate pairs through an index from each shingle (three word ids) to the
texts holding it (`index.library.dedupe`). A shingle only one text holds can never make a
pair, and in a big library nearly all shingles are such: of 100,000 synthetic abstracts'
shingles 2.3% are held twice or more, of the shared real exports' (11,454 papers) 5.6%.
Indexing all of them cost one dict entry and one key object per shingle, ~90 bytes: at
100,000 abstracts 1.8 GB of the load's 2.4 GB peak, and a million would not fit in memory.

One pass over every text first marks each shingle's slot in a byte table (a hash of its
word ids picks the slot), and the index then keeps the shingles whose slot saw two texts.
Two shingles sharing a slot only keep a shingle that was not needed (the table is sized
for a few per cent of such); a shingle that is shared is never left out, so the pairs
found are exactly those of indexing everything.

The table is bigger than the processor's caches, so each look at it is a trip to memory
(~0.2 microseconds on the 2-core machines, most of the counting's time). It is looked at
once per shingle, while counting: an empty slot takes the tag of the block of texts the
text belongs to (one of 254), and a text meeting a slot already held notes the slot for
its own block and for the block of the tag it found (the slot's first holder). The second
pass asks only its block's noted slots, a set small enough to stay in cache, and the
table is freed before it. A block's set also holds other texts' slots of that block: a
shingle kept for nothing now and then, never one left out. A text's slots and keys are
computed for the whole text at once (`index.library.shingles`).
"""

from __future__ import annotations

from array import array
from itertools import compress

from index.library.shingles import keys_and_slots, slots

__all__ = ["SharedShingles"]

_BLOCKS = 254  # tags 1..254; 0 is an empty slot, 255 one held by texts of two blocks or more
_FULL = 255
# A slot's next value when a text of block `tag` holds it: its tag if empty, else "full".
_HELD_BY = [b""] + [bytes([tag]) + bytes([_FULL]) * 255 for tag in range(1, _BLOCKS + 1)]
_TAKEN = bytes([0]) + bytes([1]) * 255  # the slot was held already
_TAGGED = bytes([0]) + bytes([1]) * _BLOCKS + bytes([0])  # ...by one block's texts only
# Slots per shingle expected, rounded up to a power of two: with `_scored_pairs`' estimate
# (characters / 4, about twice the shingles of prose) 7-14 slots per real shingle.
_ROOM = 4
_MIN_BITS, _MAX_BITS = 10, 31


class SharedShingles:
    """Which shingles of `texts` texts a second text may hold: all texts are `add`ed in
    order first, then each is asked `among` in the same order."""

    def __init__(self, expected: int, texts: int) -> None:
        """`expected`: about how many shingles all texts hold (more is only more memory)."""
        self._bits = min(_MAX_BITS, max(_MIN_BITS, (expected * _ROOM).bit_length()))
        self._counts: bytearray | None = bytearray(1 << self._bits)
        self._block = max(1, -(-texts // _BLOCKS))  # texts per tag
        self._noted = [array("I") for _ in range(_BLOCKS + 1)]  # tag -> slots to keep
        self._added = 0
        self._asked: tuple[int, frozenset[int]] = (0, frozenset())  # a tag, its noted slots

    def add(self, ids: array[int]) -> None:
        """Count the next text (its word ids); a shingle it holds twice counts once."""
        counts = self._counts
        assert counts is not None, "every text is added before the first is asked"
        tag = 1 + self._added // self._block
        self._added += 1
        where = slots(ids, self._bits)
        before = bytes(map(counts.__getitem__, where))
        # `list` drives the map (a slot met twice in one text is set twice, the same way).
        list(map(counts.__setitem__, where, before.translate(_HELD_BY[tag])))
        taken = before.translate(_TAKEN)
        if 1 in taken:
            noted = self._noted
            noted[tag].extend(compress(where, taken))
            for holder, slot in compress(zip(before, where), before.translate(_TAGGED)):
                noted[holder].append(slot)

    def among(self, number: int, ids: array[int]) -> tuple[frozenset[int], frozenset[int]]:
        """Text `number`'s shingles (as `index.library.shingles` keys), and those of them a
        second text may hold: every shared one, and a few more."""
        self._counts = None  # counting is over
        tag = 1 + number // self._block
        if self._asked[0] != tag:
            self._asked = (tag, frozenset(self._noted[tag]))
            self._noted[tag] = array("I")
        grams, where = keys_and_slots(ids, self._bits)
        kept = bytes(map(self._asked[1].__contains__, where))
        return frozenset(grams), frozenset(compress(grams, kept))
