"""Which papers have PDFs, for a start that opened the index without loading the library.

A start on a current index has no `Library`: its papers are decoded from the index on
demand, and decoding every one of them only to find the few with attachments took seconds
of the app's CPU at 20,000 papers (tui.library_host measured 5.5 s), at every start.
So the papers with attachments (id, files, whether the paper came from Zotero) are
recorded once per version of the index, in `<cache>/fulltext/papers/` (by the session that
loaded the library, or else by the first that needed them); a start on the same index
reads that small file instead. A version is the index's folder, its Whoosh
generation and its paper count: an update in place or a rebuild is another version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from index.atomic import write_text_atomic
from index.models import Paper, Source

__all__ = ["attached_papers"]


def _version(engine: Any) -> list[Any] | None:
    """What identifies the index's contents, or None when it cannot be told (a test's)."""
    opened: Any = getattr(engine, "opened", None)
    try:
        generation = int(opened.index.latest_generation())
        return [str(opened.path), generation, int(opened.doc_count)]
    except (AttributeError, OSError, TypeError, ValueError):
        return None


def _light(paper: Paper) -> list[Any]:
    zotero = next((s.path for s in paper.sources if s.path.lower().endswith(".sqlite")), "")
    return [paper.id, list(paper.attachments), zotero]


def attached_papers(
    engine: Any,
    cache_dir: Path,
    decode: Callable[[], Sequence[Paper]],
    loaded: Sequence[Paper] | None = None,
) -> Sequence[Paper]:
    """The library's papers as reading PDFs needs them: `loaded` when the library was
    loaded (recorded for the next start on this index, if not yet); else those with
    attachments (id, files, a Zotero source) from the record for this version of the
    index, else `decode()`d (every paper) and recorded."""
    version = _version(engine)
    if version is None:
        return loaded if loaded is not None else decode()
    name = hashlib.sha256(version[0].encode("utf-8")).hexdigest()[:16]
    record = Path(cache_dir) / "fulltext" / "papers" / f"{name}.json"
    try:
        data = json.loads(record.read_text("utf-8"))
        if isinstance(data, dict) and data.get("version") == version:
            if loaded is not None:
                return loaded  # recorded already
            attached = tuple(
                Paper(
                    id=str(pid),
                    title="",
                    attachments=tuple(str(f) for f in files),
                    sources=(Source(str(zotero)),) if zotero else (),
                )
                for pid, files, zotero in data["papers"]
            )
            return attached + _unattached(engine, attached)
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        pass  # none yet, or damaged: written again
    papers = [paper for paper in (loaded if loaded is not None else decode()) if paper.attachments]
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(
            record, json.dumps({"version": version, "papers": [_light(p) for p in papers]})
        )
    except OSError:
        pass  # a read-only cache: decoded again next time
    return loaded if loaded is not None else tuple(papers) + _unattached(engine, papers)


def _unattached(engine: Any, attached: Sequence[Paper]) -> tuple[Paper, ...]:
    """The index's other papers, by id alone: the full text's sync keeps the pages of
    papers it is not given (another library may share the cache), so a paper whose PDF
    was detached must be given, without it, for its pages to go."""
    ids: Callable[[], frozenset[str]] | None = getattr(engine, "paper_ids", None)
    if ids is None:
        return ()
    have = {paper.id for paper in attached}
    return tuple(Paper(id=pid, title="") for pid in sorted(ids() - have))
