"""The private Whoosh attributes paperscope reads, each with its public fallback.

- `start_writer_tasks`: a multi-process writer forks its workers lazily, the second one
  after its job queue has started a feeder thread (fork after threads, which Python 3.12+
  warns may deadlock); forking them all up front avoids that.
- `segment_id`: the first-keystroke masks are stored per segment (index.search.prefixes);
  without the id they are simply not reused (computed as usual).
"""

from __future__ import annotations

from typing import Any

from whoosh.reading import IndexReader

import index.whoosh_ext as guard

__all__ = ["segment_id", "start_writer_tasks"]


def start_writer_tasks(writer: Any, procs: int) -> None:
    """Fork a multi-process writer's workers now (no-op on the stock path)."""
    if guard.fast_paths_enabled() and hasattr(writer, "_new_task"):
        while len(writer.tasks) < procs:
            writer._new_task()


def segment_id(leaf: IndexReader) -> str | None:
    """The id of the segment a leaf reader reads, or None when it cannot be known."""
    segment = getattr(leaf, "_segment", None) if guard.fast_paths_enabled() else None
    return str(segment.segment_id()) if segment is not None else None
