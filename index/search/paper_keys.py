"""What the user's layer needs of each paper, saved beside the index for library-free opens.

The user's tags and statuses are keyed by each paper's stable identities (DOI, arXiv id,
citation key, title and year: index.library.identity), notes by its citation key, and the
`keyword` and `collection` facets come from the source's own tags. A command that only
searches opens the index without loading the library (index.store.generations
.open_if_current); to apply the user's layer it needs exactly these few values per paper,
so the build saves them (`paper-keys.marshal`, keyed and checksummed like the facet masks,
index.search.facet_store) and the engine reads them instead of 27,500 `Paper` objects.
"""

from __future__ import annotations

import logging
import marshal
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic
from index.search.facet_store import index_key

__all__ = [
    "KEYS_FILE",
    "PaperKeys",
    "read_paper_keys",
    "saved_keys",
    "write_paper_keys",
]

log = logging.getLogger("paperscope.index")

KEYS_FILE = "paper-keys.marshal"
FORMAT = 2  # 2: each paper's base citation key


@dataclass(frozen=True)
class PaperKeys:
    """One paper's handles for the user's layer, as `Paper` would give them.

    Made by the store's writer (`index.store.writer.keys_of`), which has the papers.
    """

    id: str
    identities: tuple[str, ...]  # index.library.identity.identities, strongest first
    citation_key: str | None  # names the paper's note (tui.services.notes)
    keywords: tuple[str, ...]  # the source's own tags
    collections: tuple[str, ...]  # Zotero collections, `Parent/Child`
    # index.citations.keys.base_key: the library's unique keys follow from all of them.
    base_key: str = ""


def write_paper_keys(folder: Path, reader: IndexReader, keys: Iterable[PaperKeys]) -> None:
    """Saves every indexed paper's keys, for the index `reader` reads."""
    key = index_key(reader)
    if key is None:
        return
    rows = [
        (k.id, k.identities, k.citation_key, k.keywords, k.collections, k.base_key) for k in keys
    ]
    data = marshal.dumps({"format": FORMAT, "key": key, "rows": rows}, 4)
    write_bytes_atomic(Path(folder) / KEYS_FILE, data)


def read_paper_keys(folder: Path, reader: IndexReader) -> list[PaperKeys] | None:
    """Every paper's keys when saved for exactly this index, else None."""
    key = index_key(reader)
    saved = _read(Path(folder))
    if key is None or saved is None or saved[0] != key or len(saved[1]) != reader.doc_count():
        return None
    return saved[1]


def saved_keys(folder: Path) -> dict[str, PaperKeys]:
    """The keys saved last, by paper id, whatever index they were saved for.

    An in-place update recomputes only its changed papers' keys (the identities fold
    every title: seconds at 100,000 papers) and takes the others from here.
    """
    saved = _read(Path(folder))
    return {keys.id: keys for keys in saved[1]} if saved is not None else {}


def _read(folder: Path) -> tuple[object, list[PaperKeys]] | None:
    path = folder / KEYS_FILE
    try:
        saved = marshal.loads(path.read_bytes())
    except OSError:
        return None  # an index built before this file existed
    except (ValueError, EOFError, TypeError):
        log.warning("%s is unreadable; the library is loaded instead", path)
        return None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        return None
    rows = saved.get("rows")
    try:
        return saved.get("key"), [
            PaperKeys(
                str(i), tuple(ids), key if key is None else str(key), tuple(kw), tuple(c), str(b)
            )
            for i, ids, key, kw, c, b in rows  # type: ignore[union-attr]
        ]
    except (TypeError, ValueError):
        log.warning("%s does not hold what was written; the library is loaded instead", path)
        return None
