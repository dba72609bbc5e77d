"""Every use of Whoosh's internals, in one place.

paperscope reads and writes some of Whoosh's private structures for speed (posting blocks,
the posting pool, segment ids). They are only safe on the Whoosh release they were written
and tested against, so each fast path here checks `FAST_PATHS` and falls back to Whoosh's
public API otherwise.
"""
