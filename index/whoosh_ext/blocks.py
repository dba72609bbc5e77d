"""Posting lists read a block at a time: ~10x fewer Python calls than stepping a matcher.

Whoosh's block matcher (`W3LeafMatcher`) decodes postings in blocks of up to 128 but hands
them out one `next()` at a time. Building a facet mask or scoring a term over its whole
posting list only needs the decoded arrays, so these generators read `_ids` and `_weights`
block by block. Any other matcher (a different codec, another Whoosh release) is stepped
through the public API instead, with the same result.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import index.whoosh_ext as guard

__all__ = ["id_blocks", "scored_blocks"]

_BLOCK_ATTRS = ("_read_ids", "_read_weights", "_lastblock", "_atend", "_next_block")


def _leaf_matcher(matcher: Any) -> Any | None:
    """The block matcher under the deletion filter, or None when there is none to read."""
    if not guard.fast_paths_enabled():
        return None
    while hasattr(matcher, "child") and not hasattr(matcher, "_read_ids"):
        matcher = matcher.child  # the deletion filter: callers mask deleted documents
    return matcher if all(hasattr(matcher, name) for name in _BLOCK_ATTRS) else None


def id_blocks(matcher: Any) -> Iterator[Sequence[int]]:
    """The matcher's document numbers (deleted ones included), a block at a time.

    The stock path steps `all_ids()` on the matcher's unfiltered child, so both paths
    include deleted documents and the caller masks them with the live-document set.
    """
    leaf = _leaf_matcher(matcher)
    if leaf is None:
        while hasattr(matcher, "child"):
            matcher = matcher.child
        yield list(matcher.all_ids())
        return
    while not leaf._atend:
        if leaf._ids is None:
            leaf._read_ids()
        yield leaf._ids
        if leaf._lastblock:
            return
        leaf._next_block()


def scored_blocks(matcher: Any) -> Iterator[tuple[Sequence[int], Sequence[float]]]:
    """(document numbers, term weights) per posting block, or per posting when stepped."""
    leaf = _leaf_matcher(matcher)
    if leaf is None:
        while matcher.is_active():
            yield (matcher.id(),), (matcher.weight(),)
            matcher.next()
        return
    while not leaf._atend:
        leaf._read_ids()
        leaf._read_weights()
        yield leaf._ids, leaf._weights
        if leaf._lastblock:
            return
        leaf._next_block()
