"""Small files of changes beside a large saved table, so an update does not rewrite it.

Two tables saved beside the index span every paper: the paper keys
(index.search.paper_keys) and the facet state (index.search.facet_store). An in-place
update of 100 papers changes a few rows of each, yet rewriting them whole, then hashing
them for `current.json`, cost ~0.3 s each at 100,000 papers. Each instead writes what
changed to a file of its own beside the big one, keyed by the big file it applies to
(`base`) and the index it fits (`key`), and every read folds the two. The changes are
folded into the big file by a whole write once they grow past `fold_due`'s share of the
library (a read then stays quick), or when an update changes what they cannot hold.

A killed update leaves the old state or the new one, never a mix: the changes file is
written atomically and names the index it fits, and the big file's whole write removes
the changes that applied to the file it replaced (their base says so too).
"""

from __future__ import annotations

import logging
import marshal
from pathlib import Path
from typing import Any

__all__ = ["FOLD_ROWS", "FOLD_SHARE", "fold_due", "read_changes"]

log = logging.getLogger("paperscope.index")

# Changes are folded into the big file past this many rows, or this share of the papers.
FOLD_ROWS, FOLD_SHARE = 1000, 0.05


def fold_due(rows: int, papers: int) -> bool:
    """Whether `rows` changed rows of a library of `papers` call for a whole write."""
    return rows > max(FOLD_ROWS, FOLD_SHARE * papers)


def read_changes(path: Path, format_: int, base: object) -> dict[str, Any] | None:
    """The changes file at `path` when it is of `format_` and applies to the big file
    whose key is `base`; None when absent (none written since the big file), damaged,
    or written for another big file."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        changes = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        log.warning("%s is unreadable; it is ignored", path)
        return None
    if (
        not isinstance(changes, dict)
        or changes.get("format") != format_
        or changes.get("base") != base
    ):
        return None
    return changes
