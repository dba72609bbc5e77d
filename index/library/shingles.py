"""A text's word 3-shingles as integers, cut for the whole text at once in C.

Dedupe handles every shingle of every abstract twice (`index.library.shared_shingles`
counts them, then the pair search files the shared ones): 4.4 million at 20,000 papers.
Cut one by one (a 12-byte slice per shingle, hashed, masked, looked up) that was most of
dedupe's time. Here a text's word ids become one big integer with a 64-bit lane per word;
shifting it by one and two lanes lines each word up with the next two, so a few integer
operations on the whole text give every shingle's key, and a few more every shingle's
slot in the counting table, with Python touching each shingle only to look its slot up.

A key packs the three word ids into 63 bits (21 bits each) while every id is below
2**21, the vocabulary of any library we know of many times over; a shingle holding a
larger id gets a key above 2**96 instead, so keys stay one-to-one. Such texts are cut
one shingle at a time, as is every text on a big-endian machine: slower, the same keys.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence

__all__ = ["SHINGLE", "keys", "keys_and_slots", "slots"]

SHINGLE = 3
_BITS = 21  # bits per word id in a packed key
_NARROW = 1 << _BITS
_WIDE = 1 << 96  # marks a key of ids that do not fit 21 bits
# Multiply-shift hashing of the three ids into a 32-bit value whose top bits are the slot.
_C1, _C2, _C3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
_LANE = 8  # bytes per word in the big integer
_FAST = sys.byteorder == "little"  # the lanes are read back as native 32/64-bit cells
_BELOW_NARROW = bytes(range(_NARROW >> 16))  # a third id byte that keeps it under 2**21


def _narrow(ids: array[int]) -> bool:
    """True when every id fits 21 bits (its two high bytes say so), checked in C."""
    raw = ids.tobytes()
    return _FAST and not raw[3::4].strip(b"\0") and not raw[2::4].translate(None, _BELOW_NARROW)


def _lanes(ids: array[int]) -> int:
    """The ids as one integer, id k in bits 64k to 64k+21."""
    wide = bytearray(_LANE * len(ids))
    memoryview(wide).cast("I")[0::2] = ids
    return int.from_bytes(wide, "little")


def _packed(lanes: int, count: int) -> Sequence[int]:
    """Each shingle's key from the lanes: word k, k+1 and k+2 in one 63-bit value."""
    packed = lanes | (lanes >> 64) << _BITS | (lanes >> 128) << 2 * _BITS
    return memoryview(packed.to_bytes(_LANE * (count + SHINGLE - 1), "little")).cast("Q")[:count]


# For a table of 2**bits slots: which byte of a 32-bit cell to cut to how many low bits.
def _cuts(bits: int) -> tuple[tuple[int, bytes], ...]:
    cuts = []
    for byte in range(4):
        keep = min(8, max(0, bits - 8 * byte))
        if keep < 8:
            cuts.append((byte, bytes(value & ((1 << keep) - 1) for value in range(256))))
    return tuple(cuts)


_CUTS = {bits: _cuts(bits) for bits in range(33)}


def _hashed(lanes: int, count: int, bits: int) -> Sequence[int]:
    """Each shingle's slot from the lanes (as `_slot` gives it), for a table of 2**bits."""
    # Each lane's sum stays under 2**55 (ids under 2**21): no carry reaches the next lane.
    mixed = lanes * _C1 + (lanes >> 64) * _C2 + (lanes >> 128) * _C3
    cells = bytearray((mixed >> (32 - bits)).to_bytes(_LANE * (count + SHINGLE - 1), "little"))
    for byte, table in _CUTS[bits]:
        cells[byte::_LANE] = cells[byte::_LANE].translate(table)
    return memoryview(cells).cast("I")[0 : 2 * count : 2]


def _key(a: int, b: int, c: int) -> int:
    if a < _NARROW and b < _NARROW and c < _NARROW:
        return a | b << _BITS | c << 2 * _BITS
    return _WIDE | a | b << 32 | c << 64


def _slot(a: int, b: int, c: int, bits: int) -> int:
    return ((a * _C1 + b * _C2 + c * _C3) & 0xFFFFFFFF) >> (32 - bits)


def keys(ids: array[int]) -> Sequence[int]:
    """Every shingle's key, in text order (a repeated shingle repeats its key)."""
    count = len(ids) - SHINGLE + 1
    if count <= 0:
        return ()
    if _narrow(ids):
        return _packed(_lanes(ids), count)
    return [_key(*ids[k : k + SHINGLE]) for k in range(count)]


def slots(ids: array[int], bits: int) -> Sequence[int]:
    """Every shingle's slot in a table of 2**bits (bits <= 32), in text order."""
    count = len(ids) - SHINGLE + 1
    if count <= 0:
        return ()
    if _narrow(ids):
        return _hashed(_lanes(ids), count, bits)
    return [_slot(ids[k], ids[k + 1], ids[k + 2], bits) for k in range(count)]


def keys_and_slots(ids: array[int], bits: int) -> tuple[Sequence[int], Sequence[int]]:
    """`keys(ids)` and `slots(ids, bits)`, the text's lanes built once."""
    count = len(ids) - SHINGLE + 1
    if count <= 0:
        return (), ()
    if _narrow(ids):
        lanes = _lanes(ids)
        return _packed(lanes, count), _hashed(lanes, count, bits)
    return keys(ids), slots(ids, bits)
