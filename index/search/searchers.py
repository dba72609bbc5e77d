"""The engine's Whoosh searchers: one per thread at a time, pooled for reuse.

Whoosh's searchers are not shared between threads, so each search takes one from the pool
(or opens one) and gives it back. A search that needs the index again in the middle of its
work (a stored first-keystroke mask completed for a segment added since, in
index.search.letter_masks) reads through the searcher it already holds: opening a second
one took ~30 ms at 10,000 papers (a memory-mapped index), as much as the keystroke itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from whoosh.index import Index
from whoosh.searching import Searcher

__all__ = ["Searchers"]


class Searchers:
    """The searchers of one open index."""

    def __init__(self, index: Index) -> None:
        self._index = index
        self.pool: list[Searcher] = []
        self._lock = threading.Lock()
        self._held = threading.local()  # the searcher this thread holds, if any

    @contextmanager
    def searcher(self) -> Iterator[Searcher]:
        """A searcher for this thread alone (Whoosh's are not shared); pooled for reuse."""
        with self._lock:
            searcher = self.pool.pop() if self.pool else None
        if searcher is None:
            searcher = self._index.searcher()
        outer, self._held.searcher = getattr(self._held, "searcher", None), searcher
        try:
            yield searcher
        finally:
            self._held.searcher = outer
            with self._lock:
                self.pool.append(searcher)

    @contextmanager
    def held(self) -> Iterator[Searcher]:
        """The searcher this thread holds (inside `searcher`), else one from the pool."""
        held = getattr(self._held, "searcher", None)
        if held is not None:
            yield held
        else:
            with self.searcher() as searcher:
                yield searcher

    def close(self) -> None:
        """Closes every pooled searcher."""
        with self._lock:
            for searcher in self.pool:
                searcher.close()
            self.pool.clear()
