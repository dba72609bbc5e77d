"""Every use of Whoosh's internals, in one place, behind a version guard.

paperscope reads and writes some of Whoosh's private structures for speed: whole posting
blocks instead of stepping a matcher (`blocks`), whole columns and deletion sets at
once (`columns`), a batched posting pool and posting writer
for builds (`pool`), a few private attributes (`internals`: writer tasks, segment ids),
a term cursor walked by a cached Levenshtein automaton (`fuzzy`), and index files that
count their own write position (`positioned`). They are only safe
on the Whoosh release they were written and tested against (`TESTED_WHOOSH`), so every
fast path checks `FAST_PATHS` and otherwise takes Whoosh's public API: same results,
slower. `tests/index/whoosh_ext/` runs both. `lean_imports` (no private structures, any
release) has Whoosh imported without two standard-library packages it loads for nothing.
"""

from __future__ import annotations

import os

import whoosh

__all__ = ["FAST_PATHS", "TESTED_WHOOSH", "fast_paths_enabled"]

# The whoosh-reloaded release the fast paths were written and tested against.
TESTED_WHOOSH = (2, 7, 5)
# Off on any other release, and when PAPERSCOPE_WHOOSH_STOCK=1 (to test the stock paths).
FAST_PATHS = (
    tuple(whoosh.__version__[:3]) == TESTED_WHOOSH
    and os.environ.get("PAPERSCOPE_WHOOSH_STOCK") != "1"
)


def fast_paths_enabled() -> bool:
    """Whether the fast paths run; read at call time so a test can switch them off."""
    return FAST_PATHS
