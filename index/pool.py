"""A quicker posting pool for Whoosh's writer: same sorted postings, fewer Python calls.

Whoosh's `PostingPool` checks and sizes every posting in Python, and when it spills a
sorted run to disk (always, for a large build with a small `limitmb`) it pickles and later
unpickles every posting with its own call. This pool estimates the size the same way in
one expression and writes runs as pickled batches, so a posting costs a list append
instead of several function calls. Whoosh has no switch for its pool class (its
`poolclass` argument is ignored), so `fast_pool()` swaps it in for the duration of a
build; forked writer processes inherit it. tests/index/test_store_pool.py checks both
pools write identical indexes.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import whoosh.writing
from whoosh.writing import PostingPool

# Postings per pickled batch in a run file.
BATCH = 4096


class BatchedPostingPool(PostingPool):
    """`PostingPool` with a leaner `add` and runs written in batches."""

    def add(self, item: tuple[Any, ...]) -> None:
        # item = (fieldname, tbytes, docnum, weight, vbytes); Whoosh's size estimate.
        self.fieldnames.add(item[0])
        self.currentsize += 150 + len(item[0]) + 2 * len(item[1]) + len(item[4] or b"")
        if self.currentsize > self.limit:
            self.save()
        self.current.append(item)

    def _write_run(self, f: Any, items: Iterable[tuple[Any, ...]]) -> None:
        if isinstance(items, list):
            for start in range(0, len(items), BATCH):
                pickle.dump(items[start:start + BATCH], f, pickle.HIGHEST_PROTOCOL)
        else:
            batch: list[tuple[Any, ...]] = []
            for item in items:
                batch.append(item)
                if len(batch) == BATCH:
                    pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
                    batch = []
            if batch:
                pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
        f.close()

    def _read_run(self, path: str) -> Iterator[tuple[Any, ...]]:
        f = self._open_run(path)
        try:
            while True:
                yield from pickle.load(f)
        except EOFError:
            return
        finally:
            f.close()
            self._remove_run(path)


@contextmanager
def fast_pool() -> Iterator[None]:
    """Makes Whoosh writers created inside (and processes forked inside) use the pool."""
    original = whoosh.writing.PostingPool
    whoosh.writing.PostingPool = BatchedPostingPool  # type: ignore[misc]
    try:
        yield
    finally:
        whoosh.writing.PostingPool = original  # type: ignore[misc]
