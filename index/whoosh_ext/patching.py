"""Whoosh's writer switched to paperscope's pool and posting writer for one build.

Whoosh has no switch for its posting pool class (its `poolclass` argument is ignored), so
`fast_pool()` patches Whoosh's writer classes while a build runs and restores them after:
the term pool (`index.whoosh_ext.term_pool`, which holds each term's postings in arrays)
and the posting writer (`index.whoosh_ext.pool`). Forked writer processes inherit the
patch. Apart from both so that neither imports the other through it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import whoosh.writing
from whoosh.codec.whoosh3 import W3FieldWriter
from whoosh.writing import SegmentWriter

import index.whoosh_ext as guard
from index.whoosh_ext.pool import fast_add_postings
from index.whoosh_ext.term_pool import TermPool, fast_add_document

__all__ = ["fast_pool"]

_patching = threading.Lock()
_users = 0  # writers inside `fast_pool` now, in any thread


@contextmanager
def fast_pool() -> Iterator[None]:
    """Makes Whoosh writers created inside (and processes forked inside) use the term
    pool and the posting writer; on the stock paths (another Whoosh) it changes nothing.

    Two threads may build at once (a preview beside a build, index.store.preview): the
    first one in patches Whoosh, the last one out restores it.
    """
    global _users
    if not guard.fast_paths_enabled():
        yield
        return
    with _patching:
        if _users == 0:
            _patch()
        _users += 1
    try:
        yield
    finally:
        with _patching:
            _users -= 1
            if _users == 0:
                _unpatch()


_stock: dict[str, Any] = {}


def _patch() -> None:
    _stock["pool"] = whoosh.writing.PostingPool
    _stock["add"] = W3FieldWriter.__dict__.get("add_postings")
    _stock["document"] = SegmentWriter.__dict__["add_document"]
    whoosh.writing.PostingPool = TermPool
    W3FieldWriter.add_postings = fast_add_postings
    SegmentWriter.add_document = fast_add_document


def _unpatch() -> None:
    whoosh.writing.PostingPool = _stock["pool"]
    SegmentWriter.add_document = _stock["document"]
    if _stock["add"] is None:
        del W3FieldWriter.add_postings
    else:  # pragma: no cover - Whoosh versions that define their own
        W3FieldWriter.add_postings = _stock["add"]
