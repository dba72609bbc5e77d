"""Posting lists read a block at a time: ~10x fewer Python calls than stepping a matcher.

Whoosh's block matcher (`W3LeafMatcher`) decodes postings in blocks of up to 128 but hands
them out one `next()` at a time. Building a facet mask or scoring a term over its whole
posting list only needs the decoded arrays, so these generators read `_ids` and `_weights`
block by block. Any other matcher (a different codec, another Whoosh release) is stepped
through the public API instead, with the same result.
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Callable, Iterator, Sequence
from io import BytesIO
from itertools import accumulate, repeat
from pickle import load, loads
from typing import Any

from whoosh import formats
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.reading import TermNotFound
from whoosh.system import _INT_SIZE
from whoosh.util.numeric import byte_to_length

import index.whoosh_ext as guard

__all__ = ["gaps_and_weights", "id_blocks", "phrase_ids", "scored_blocks"]

_BLOCK_ATTRS = ("_read_ids", "_read_weights", "_lastblock", "_atend", "_next_block")


def _leaf_matcher(matcher: Any) -> Any | None:
    """The block matcher under the deletion filter, at its first block, or None when
    there is none to read."""
    if not guard.fast_paths_enabled():
        return None
    child = _unfiltered(matcher)
    return child if all(hasattr(child, name) for name in _BLOCK_ATTRS) else None


def _unfiltered(matcher: Any) -> Any:
    """The matcher under the deletion filter (callers mask deleted documents), back at
    its first posting: the filter steps past the deleted documents it starts on, and past
    whole blocks of them, which would be missing from a mask that includes them."""
    inner = matcher
    while hasattr(inner, "child") and not hasattr(inner, "_read_ids"):
        inner = inner.child
    if inner is not matcher:  # a fresh matcher with no filter is at its start already
        inner.reset()
    return inner


def id_blocks(matcher: Any) -> Iterator[Sequence[int]]:
    """The matcher's document numbers (deleted ones included), a block at a time.

    The stock path steps `all_ids()` on the matcher's unfiltered child, so both paths
    include deleted documents and the caller masks them with the live-document set.
    """
    leaf = _leaf_matcher(matcher)
    if leaf is None:
        yield list(_unfiltered(matcher).all_ids())
        return
    while not leaf._atend:
        if leaf._ids is None:
            _read_ids(leaf)
        yield leaf._ids
        if leaf._lastblock:
            return
        _next_block(leaf)


def scored_blocks(matcher: Any) -> Iterator[tuple[Sequence[int], Sequence[float]]]:
    """(document numbers, term weights) per posting block, or per posting when stepped."""
    leaf = _leaf_matcher(matcher)
    if leaf is None:
        while matcher.is_active():
            yield (matcher.id(),), (matcher.weight(),)
            matcher.next()
        return
    while not leaf._atend:
        _read_ids(leaf)
        leaf._read_weights()
        yield leaf._ids, leaf._weights
        if leaf._lastblock:
            return
        _next_block(leaf)


def gaps_and_weights(matcher: Any) -> tuple[array[int], array[float]]:
    """A whole posting list as the gaps between its document numbers (the first from 0)
    and its weights as `scored_blocks` gives them (deleted documents included).

    Whoosh 3 blocks hold their ids as gaps already (each block's first from 0) and
    uniform weights as one value: these are taken as they are, with no Python step per
    posting beyond Whoosh's unpickling. Any other matcher is stepped through
    `scored_blocks`.
    """
    gaps: array[int] = array("i")
    weights: array[float] = array("d")
    leaf = _leaf_matcher(matcher)
    last = 0
    if leaf is None or type(leaf) is not W3LeafMatcher or leaf._byteids:
        for ids, block_weights in scored_blocks(matcher):
            for docnum in ids:
                gaps.append(docnum - last)
                last = docnum
            weights.fromlist(list(block_weights))
        return gaps, weights
    while not leaf._atend:
        if leaf._data is None:
            leaf._read_data()
        block_gaps, block_weights = leaf._data[0], leaf._data[1]
        gaps.append(block_gaps[0] - last)
        gaps.extend(block_gaps[1:])
        last = leaf._maxid
        if block_weights is None:  # every weight 1.0
            weights.extend(repeat(1.0, leaf._blocklength))
        elif isinstance(block_weights, float):  # one weight, which Whoosh hands out as float32
            weights.extend(repeat(array("f", [block_weights])[0], leaf._blocklength))
        else:
            weights.extend(block_weights)
        if leaf._lastblock:
            break
        _next_block(leaf)
    return gaps, weights


def phrase_ids(
    reader: Any, fieldname: str, terms: Sequence[bytes], slop: int, candidates: bytes
) -> list[int] | None:
    """The candidates holding `terms` as a phrase, as Whoosh's `Phrase` matches it.

    `candidates` is a membership table (`index.search.bitsets.member_test`) of the
    documents holding every term, so only their positions are decoded. Whoosh's own
    phrase matcher (`SpanNear2` over an intersection) steps each posting, builds `Span`
    objects and merges them: ~170 us per candidate, the whole cost of a finished phrase
    at 20k-100k papers. The rule is the same: a document matches when each next term
    has a position 1 to `slop` after a position the phrase so far reached. Returns None
    when any posting list is not a block matcher (another codec or Whoosh release, an
    inline posting list): the caller then asks Whoosh.
    """
    if not guard.fast_paths_enabled():
        return None
    out: list[int] = []
    for leaf, offset in reader.leaf_readers():
        reached: dict[int, set[int]] | None = None  # document -> positions the phrase ends at
        for term in terms:
            try:
                matcher = leaf.postings(fieldname, term)
            except TermNotFound:  # no document of this segment has the term
                reached = {}
                break
            block = _leaf_matcher(matcher)
            if block is None:
                return None
            decode = _positions_decoder(block.format)
            ahead: dict[int, set[int]] = {}
            while not block._atend:
                if block._ids is None:
                    _read_ids(block)
                values = None
                for i, docnum in enumerate(block._ids):
                    if reached is None:
                        number = docnum + offset
                        if not candidates[number >> 3] >> (number & 7) & 1:
                            continue
                    elif docnum not in reached:
                        continue
                    if values is None:
                        block._read_values()
                        values = block._values
                    positions = decode(values[i])
                    if reached is None:
                        ahead[docnum] = set(positions)
                        continue
                    before = reached[docnum]
                    if slop == 1:
                        ends = {p for p in positions if p - 1 in before}
                    else:
                        ends = {p for p in positions if any(0 < p - e <= slop for e in before)}
                    if ends:
                        ahead[docnum] = ends
                if block._lastblock:
                    break
                _next_block(block)
            reached = ahead
            if not reached:
                break
        out.extend(sorted(docnum + offset for docnum in reached or ()))
    return out


def _next_block(leaf: Any) -> None:
    """`leaf._next_block()`, reading a Whoosh 3 block in one read instead of ~20.

    Whoosh reads a block's length, then unpickles its info tuple straight from the
    compound file (a Python `read` and `seek` per pickle opcode, ~20 per block), then
    reads the data again. Here the block is read whole, its info unpickled from memory
    and its data decoded at once (every caller reads the ids next). The attributes set
    are the ones `W3LeafMatcher._goto` and `_read_data` set. At 1,000,000 papers a common
    word is ~2,000 blocks and this was a sixth of reading it.
    """
    if type(leaf) is not W3LeafMatcher:  # another codec or a subclass: its own reading
        leaf._next_block()
        return
    if leaf._lastblock:
        leaf._atend = True
        return
    position = leaf._nextoffset
    postfile = leaf._postfile
    length = postfile.get_int(position)
    if length < 0:
        leaf._lastblock = True
        length = -length
    body = postfile.get(position + _INT_SIZE, length)
    stream = BytesIO(body)
    info = load(stream)
    start = stream.tell()
    leaf._ids = leaf._weights = leaf._values = None
    leaf._i = 0
    leaf._nextoffset = position + _INT_SIZE + length
    leaf._dataoffset = position + _INT_SIZE + start
    (
        leaf._blocklength,
        leaf._maxid,
        leaf._maxweight,
        leaf._compression,
        shortest,
        longest,
    ) = info
    leaf._minlength = byte_to_length(shortest)
    leaf._maxlength = byte_to_length(longest)
    data = memoryview(body)[start:]
    leaf._data = loads(zlib.decompress(data) if leaf._compression else data)


def _read_ids(leaf: Any) -> None:
    """`leaf._read_ids()`, its gaps summed in C (`accumulate`) rather than by Whoosh's
    `delta_decode` generator: a Python step per posting, ~10% of reading a common word."""
    if type(leaf) is not W3LeafMatcher:
        leaf._read_ids()
        return
    if leaf._data is None:
        leaf._read_data()
    ids = leaf._data[0]
    leaf._ids = ids if leaf._byteids else tuple(accumulate(ids))


def _decode_positions(value: bytes) -> list[int]:
    """`formats.Positions.decode_positions`, without its per-call compatibility shims.

    The value is the position count (4 bytes) and a pickle of the gaps between positions,
    its stop opcode sometimes stripped. Whoosh's own decoder builds `b(".")` through
    `whoosh.compat` for every posting: over a phrase's 116,000 candidates at 1,000,000
    papers that was half of decoding their positions.
    """
    gaps = loads(value[_INT_SIZE:] if value.endswith(b".") else value[_INT_SIZE:] + b".")
    return list(accumulate(gaps))


def _positions_decoder(format: Any) -> Callable[[bytes], list[int]]:
    """The format's position decoder: `_decode_positions` for Whoosh's `Positions`, the
    format's own for any other (a subclass may encode differently)."""
    if type(format) is formats.Positions:
        return _decode_positions
    decoder: Callable[[bytes], list[int]] = format.decoder("positions")
    return decoder
