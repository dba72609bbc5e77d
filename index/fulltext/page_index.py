"""The searchable full text: one Whoosh document per page of each paper's attachments.

Extraction puts each file's text in the `FulltextStore` (by content); `sync_fulltext`
makes this index reflect, for the papers it is given, the stored text of their current
attachments. It lives apart from the library's index (`<cache>/fulltext/pages-<N>/`), so
the library's build is untouched and its first rows come as fast as before: the full text
is added later, a batch at a time, as the PDFs are read.

What is indexed is keyed by "unit": a paper, one of its attachments, and the digest of
that file's bytes. A unit is added whole (a head document saying how many pages it has,
then one document per page with text) and removed whole, in one Whoosh commit, so a
crash leaves the previous state or the new one (Whoosh writes its table of contents to a
temporary file and renames it). The units already indexed are read from the index itself;
a small record of the last sync (`synced.json`) only lets an unchanged library skip that
read. A file changed since it was read has no known digest (`known_digest`): its old
pages go, and its new text comes with the sync after it is read again.

Searches read the index from any thread or process while a sync writes (Whoosh segments
are never changed once written); syncs are one at a time (`pages.lock`, and a lock
within the process).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whoosh import fields, index

from index.atomic import write_text_atomic
from index.fulltext.store import FulltextStore
from index.models import Paper
from index.schema.analysis import FastStemText, stem_analyzer
from index.whoosh_ext.positioned import PositionedStorage

if TYPE_CHECKING:
    from whoosh.writing import IndexWriter

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process syncs at a time by luck
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "HEAD_PAGE",
    "TEXT_FIELD",
    "FulltextSync",
    "Unit",
    "open_page_index",
    "pages_folder",
    "recorded_sync",
    "sync_fulltext",
]

# The page index's format; another one is a different folder (built again from the store).
FORMAT = 1
# The field holding a page's words, stemmed like the abstracts (the query's stems fit both).
TEXT_FIELD = "text"
# The `page` of a unit's head document (its page count, no text).
HEAD_PAGE = -1
# Between the parts of a unit's key: never in a paper id, a digest or a path from a source.
_SEP = "\x1f"

_local_lock = threading.Lock()


def _schema() -> fields.Schema:
    return fields.Schema(
        # paper id, file digest and path, joined: what is added and removed together.
        unit=fields.ID(stored=True),
        # The paper's id, as a column: page -> paper for every search.
        paper=fields.ID(sortable=True),
        # 1-based page number; 0 when the source has no page breaks; HEAD_PAGE for a head.
        page=fields.STORED(),
        # A head's count of pages with text (0: the file gave none).
        pages=fields.STORED(),
        # "1" on a unit's head document: the units are listed by it.
        head=fields.ID(),
        # The page's words: stemmed, folded, stop words dropped, with positions (phrases).
        text=FastStemText(analyzer=stem_analyzer(), phrase=True),
    )


@dataclass(frozen=True)
class Unit:
    """One attachment of one paper as indexed: the paper, the file's digest and path."""

    paper: str
    digest: str
    path: str

    @property
    def key(self) -> str:
        return _SEP.join((self.paper, self.digest, self.path))

    @classmethod
    def parse(cls, key: str) -> Unit | None:
        parts = key.split(_SEP, 2)
        return cls(*parts) if len(parts) == 3 else None


@dataclass(frozen=True)
class FulltextSync:
    """What the searchable full text holds after a sync, and what the sync changed.

    Attributes:
        papers: papers with at least one page of text indexed.
        pages: pages with text indexed.
        attachments: attachments indexed (with text or without: a scan counts here).
        added: attachments indexed by this sync.
        removed: attachments dropped by this sync (removed, changed, or of papers gone).
        cancelled: True when the sync stopped before committing (nothing changed).
    """

    papers: int = 0
    pages: int = 0
    attachments: int = 0
    added: int = 0
    removed: int = 0
    cancelled: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed)


def pages_folder(cache_dir: Path) -> Path:
    """Where the page index of the cache at `cache_dir` lives."""
    return Path(cache_dir) / "fulltext" / f"pages-{FORMAT}"


def _storage(folder: Path) -> PositionedStorage:
    """The page index's files: not memory-mapped (Whoosh copies each file of a mapped
    compound segment into memory for every searcher: the whole index, ~60 MB per 1,000
    PDFs), and written without a system call per `tell`, which beside the app's busy UI
    thread made a write crawl (index.whoosh_ext.positioned)."""
    return PositionedStorage(str(folder), supports_mmap=False)


def open_page_index(cache_dir: Path) -> index.Index | None:
    """The page index for reading, or None when no sync has written one yet."""
    folder = pages_folder(cache_dir)
    try:
        if not index.exists_in(str(folder)):
            return None
        return _storage(folder).open_index()
    except (OSError, ValueError, EOFError, index.IndexError):
        return None


def sync_fulltext(
    cache_dir: Path,
    papers: Iterable[Paper],
    *,
    cancelled: Callable[[], bool] | None = None,
) -> FulltextSync:
    """Makes the searchable full text of `papers` that of their current attachments.

    Adds the attachments whose text the store now has; drops those of `papers` that are no
    longer theirs (removed, or changed since they were read), and any whose file is gone
    or changed. Papers not in `papers` keep their pages while their files do: a cache
    shared by two libraries (the bundled corpus and the user's, say) keeps both, and the
    engine matches only its own papers' pages. Cheap when nothing changed (a stat per
    attachment and one small file read). Safe from a worker thread while searches run and
    from several processes; `cancelled()`, asked between files, stops it without a commit.
    The counts returned are of `papers`.
    """
    cache_dir = Path(cache_dir)
    store, wanted, given, fingerprint = _plan(cache_dir, papers)
    folder = pages_folder(cache_dir)
    recorded = _recorded(folder)
    if recorded is not None and recorded.get("fingerprint") == fingerprint:
        return _counts(recorded)
    with _sync_lock(folder):
        return _sync(store, folder, wanted, given, fingerprint, cancelled or (lambda: False))


def recorded_sync(cache_dir: Path, papers: Iterable[Paper]) -> FulltextSync | None:
    """What `sync_fulltext` would return when it has nothing to do (the record of the last
    sync is of these papers and files), else None; a stat per attachment, no writing."""
    _, _, _, fingerprint = _plan(Path(cache_dir), papers)
    recorded = _recorded(pages_folder(cache_dir))
    if recorded is not None and recorded.get("fingerprint") == fingerprint:
        return _counts(recorded)
    return None


def _plan(
    cache_dir: Path, papers: Iterable[Paper]
) -> tuple[FulltextStore, dict[str, Unit], set[str], str]:
    """The store, the units wanted (by key), the papers given, and their fingerprint."""
    store = FulltextStore(cache_dir)
    wanted: dict[str, Unit] = {}
    given: set[str] = set()
    for paper in papers:
        given.add(paper.id)
        for path in paper.attachments:
            digest = store.known_digest(Path(path))
            if digest is not None:
                unit = Unit(paper.id, digest, str(path))
                wanted[unit.key] = unit
    # What was asked for: the papers and their readable attachments. Asked again, the
    # index is as the last sync left it (or another process's, which rewrote the record).
    asked = "\n".join([*sorted(wanted), "", *sorted(given)])
    return store, wanted, given, hashlib.sha256(asked.encode("utf-8")).hexdigest()


def _sync(
    store: FulltextStore,
    folder: Path,
    wanted: dict[str, Unit],
    given: set[str],
    fingerprint: str,
    cancelled: Callable[[], bool],
) -> FulltextSync:
    from index.whoosh_ext.patching import fast_pool  # Whoosh's writer: a sync's import only

    storage = _storage(folder)
    ix = storage.open_index() if index.exists_in(str(folder)) else storage.create_index(_schema())
    try:
        with ix.searcher() as searcher:
            current = {
                str(fields_["unit"]): int(fields_.get("pages") or 0)
                for fields_ in searcher.documents(head="1")
            }
        removed = [
            key
            for key in current
            if key not in wanted and (_paper_of(key) in given or not _current_file(store, key))
        ]
        added = [key for key in wanted if key not in current]
        if removed or added:
            # The build's posting pool and writer (index.whoosh_ext.pool): the same
            # postings with far fewer calls; most of a sync is writing them.
            with fast_pool():
                writer = ix.writer()
                try:
                    for key in removed:
                        writer.delete_by_term("unit", key)
                        del current[key]
                    for key in added:
                        if cancelled():
                            writer.cancel()
                            return FulltextSync(cancelled=True)
                        count = _add_unit(writer, store, wanted[key])
                        if count is not None:
                            current[key] = count
                    # The record describes the index before this commit: gone first, so a
                    # sync killed after the commit (index.fulltext.sync_child) leaves none.
                    (folder / "synced.json").unlink(missing_ok=True)
                    writer.commit()
                except BaseException:
                    writer.cancel()
                    raise
        mine = {key: pages for key, pages in current.items() if key in wanted}
        counts = {
            "fingerprint": fingerprint,
            "papers": len({_paper_of(key) for key, pages in mine.items() if pages}),
            "pages": sum(mine.values()),
            "attachments": len(mine),
        }
        # Units whose text the store lost are not indexed: the fingerprint is then not
        # the index's, and the next sync looks again (cheaply: nothing to add).
        if len(mine) != len(wanted):
            counts["fingerprint"] = ""
        write_text_atomic(folder / "synced.json", json.dumps(counts))
    finally:
        ix.close()
    result = _counts(counts)
    return FulltextSync(
        papers=result.papers,
        pages=result.pages,
        attachments=result.attachments,
        added=sum(1 for key in added if key in current),
        removed=len(removed),
    )


def _paper_of(key: str) -> str:
    return key.split(_SEP, 1)[0]


def _current_file(store: FulltextStore, key: str) -> bool:
    """Whether the unit's file is still there, as it was when read (a stat)."""
    unit = Unit.parse(key)
    return unit is not None and store.known_digest(Path(unit.path)) == unit.digest


def _add_unit(writer: IndexWriter, store: FulltextStore, unit: Unit) -> int | None:
    """Writes one attachment's head and pages; its page count, None when not stored."""
    extracted = store.get(unit.digest)
    if extracted is None:  # forgotten since its digest was recorded: read again later
        return None
    key = unit.key
    count = 0
    for number, text in enumerate(extracted.pages, start=1):
        if text:
            page = number if extracted.paged else 0
            writer.add_document(unit=key, paper=unit.paper, page=page, text=text)
            count += 1
    writer.add_document(unit=key, paper=unit.paper, page=HEAD_PAGE, pages=count, head="1")
    return count


def _recorded(folder: Path) -> dict[str, object] | None:
    try:
        data = json.loads((folder / "synced.json").read_text("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and index.exists_in(str(folder)) else None


def _counts(recorded: dict[str, object]) -> FulltextSync:
    def number(name: str) -> int:
        value = recorded.get(name)
        return value if isinstance(value, int) else 0

    return FulltextSync(
        papers=number("papers"), pages=number("pages"), attachments=number("attachments")
    )


@contextmanager
def _sync_lock(folder: Path) -> Iterator[None]:
    """One sync at a time: within this process, and across processes (`flock`)."""
    folder.mkdir(parents=True, exist_ok=True)
    with _local_lock:
        if fcntl is None:  # pragma: no cover - Windows
            yield
            return
        with open(folder.parent / f"pages-{FORMAT}.lock", "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
