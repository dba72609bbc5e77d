"""What the user's layer needs of each paper, saved beside the index for library-free opens.

The user's tags and statuses are keyed by each paper's stable identities (DOI, arXiv id,
citation key, title and year: index.library.identity), notes by its citation key, and the
`keyword` and `collection` facets come from the source's own tags. A command that only
searches opens the index without loading the library (index.store.generations
.open_if_current); to apply the user's layer it needs exactly these few values per paper,
so the build saves them (`paper-keys.marshal`, keyed and checksummed like the facet masks,
index.search.facet_store) and the engine reads them instead of 27,500 `Paper` objects.
The app on a current index (tui.cli.run_app) reads the same file: the citation keys the
build computed over the whole library, and the rows only once the user has tags or notes.
The last section finds the papers a tag or a note belongs to without the rows
(index.search.key_lookup).
"""

from __future__ import annotations

import logging
import marshal
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic
from index.search.facet_store import index_key
from index.search.key_lookup import KeyLookup, lookup_section, patched_section

__all__ = [
    "KEYS_FILE",
    "PaperKeys",
    "SavedKeys",
    "read_saved_keys",
    "saved_keys",
    "update_paper_keys",
    "write_paper_keys",
]

log = logging.getLogger("paperscope.index")

KEYS_FILE = "paper-keys.marshal"
FORMAT = 5  # 2: each paper's base citation key; 3: a header read apart; 4: citation keys
# 5: the citation keys in chunks of their own (`_CITES_CHUNK`); 4 is still read
_READABLE = (4, 5)
# Papers per marshalled chunk of the citation keys: decoding all 100,000 at once held the
# interpreter's lock for 0.1 s, the chunks let it go in between (the language server opens
# an updated index while it answers completions: issue 48).
_CITES_CHUNK = 10_000


class PaperKeys(NamedTuple):
    """One paper's handles for the user's layer, as `Paper` would give them.

    Made by the store's writer (`index.store.writer.keys_of`), which has the papers. A
    named tuple, not a dataclass: an open at 100,000 papers makes one per paper, and a
    frozen dataclass took three times as long to make.
    """

    id: str
    identities: tuple[str, ...]  # index.library.identity.identities, strongest first
    citation_key: str | None  # names the paper's note (tui.services.notes)
    keywords: tuple[str, ...]  # the source's own tags
    collections: tuple[str, ...]  # Zotero collections, `Parent/Child`
    # index.citations.keys.base_key: the library's unique keys follow from all of them.
    base_key: str = ""


def write_paper_keys(folder: Path, reader: IndexReader, keys: Iterable[PaperKeys]) -> None:
    """Saves every indexed paper's keys, for the index `reader` reads.

    Marshal objects in one file: a small header (the index it fits, the paper count,
    the few papers that carry collections, which an open needs at once), every paper's
    citation key, unique in the library (`index.citations.keys.citation_keys`: what the
    detail's citation needs), the rows, then the table that finds papers by identity and
    note name (index.search.key_lookup), each read only when asked for. The table is last,
    so a reader that predates it reads the rest as before.
    """
    key = index_key(reader)
    if key is None:
        return
    saved = list(keys)
    rows = [tuple(k) for k in saved]
    # Here, not at the top: `index.citations` costs ~70 ms to import, and a search only reads.
    from index.citations.keys import unique_keys

    cites = unique_keys((k.id, k.base_key) for k in saved)
    _write(folder, key, rows, cites, lookup_section(saved))


def _write(
    folder: Path,
    key: list[list[Any]],
    rows: list[tuple[Any, ...]],
    cites: dict[str, str],
    lookup: dict[str, Any],
) -> None:
    """The file of `write_paper_keys`, from its parts."""
    header: dict[str, Any] = {
        "format": FORMAT,
        "key": key,
        "count": len(rows),
        "collections": [row for row in rows if row[4]],
    }
    sections = [
        marshal.dumps({"key": key, "cites": _chunked(cites)}, 4),
        marshal.dumps({"key": key, "rows": rows}, 4),
        marshal.dumps({"key": key, **lookup}, 4),
    ]
    # Their sizes let a reader skip to one and decode it from bytes (`_section`).
    header["sections"] = [len(section) for section in sections]
    write_bytes_atomic(Path(folder) / KEYS_FILE, marshal.dumps(header, 4) + b"".join(sections))


def update_paper_keys(
    folder: Path, reader: IndexReader, order: Sequence[str], changed: Sequence[PaperKeys]
) -> bool:
    """Patches the saved keys for an in-place update: `order` is every paper's id in the
    library's order, `changed` the keys of the papers it indexed anew (changed or added).

    Rewriting them whole read every saved row back and digested every identity again:
    ~1.5 s of an update of 100 papers at 100,000. Here the rows stay marshalled tuples,
    and the lookup table (index.search.key_lookup) keeps its digests: the removed and
    replaced papers' entries are dropped and the new ones merged in. Their answers are a
    fresh write's. False (nothing written) when there is no complete file to patch: the
    caller writes it whole.
    """
    key = index_key(reader)
    path = Path(folder) / KEYS_FILE
    found, table = _section(path, ROWS), _section(path, LOOKUP)
    if key is None or found is None or table is None or not isinstance(table[1], dict):
        return False
    header, body = found
    if not isinstance(body, dict) or body.get("key") != header.get("key"):
        return False
    old = body.get("rows") or []
    by_id = {row[0]: row for row in old}
    fresh = {keys.id: tuple(keys) for keys in changed}
    # The same papers in the same order: each paper's unique citation key is a function
    # of the (id, base key) sequence, and the lookup table of the identities and note
    # names, so what the changed papers kept needs no recomputing (an edit of an abstract).
    same = [row[0] for row in old] == list(order)
    kept_cites = same and all(by_id[i][5] == row[5] for i, row in fresh.items())
    kept_table = same and all(by_id[i][1:3] == row[1:3] for i, row in fresh.items())
    by_id.update(fresh)
    cites = _section(path, CITES) if kept_cites else None
    try:
        rows = [by_id[paper_id] for paper_id in order]
        lookup = table[1]
        if not kept_table:
            lookup = patched_section(lookup, set(by_id).difference(order) | set(fresh), changed)
    except (KeyError, TypeError, ValueError):  # a paper without keys, or a damaged table
        return False
    saved_cites = _cites(cites[1]) if cites is not None else None
    if saved_cites is not None:
        unique = saved_cites
    else:
        from index.citations.keys import unique_keys  # see write_paper_keys

        unique = unique_keys((row[0], row[5]) for row in rows)
    lookup = {name: value for name, value in lookup.items() if name != "key"}
    _write(folder, key, rows, unique, lookup)
    return True


@dataclass(frozen=True)
class SavedKeys:
    """The saved keys of one index, as far as its opening needs them: the rows wait."""

    path: Path
    key: object  # the index they were saved for (index.search.facet_store.index_key)
    collections: tuple[PaperKeys, ...]  # the papers that carry collections (usually none)

    def citation_keys(self) -> dict[str, str] | None:
        """Paper id -> its citation key, unique in the library, as a loaded library gives
        it; None when the file was replaced or damaged since the header."""
        found = _section(self.path, CITES)
        saved = found[1] if found is not None else None
        if not isinstance(saved, dict) or saved.get("key") != self.key:
            return None
        cites = _cites(saved)
        if cites is None:
            return None
        return {str(paper_id): str(key) for paper_id, key in cites.items()}

    def lookup(self) -> KeyLookup | None:
        """The papers by identity and note name; None when the file predates the table, or
        was replaced or damaged since the header (the rows then serve)."""
        found = _section(self.path, LOOKUP)
        saved = found[1] if found is not None else None
        if not isinstance(saved, dict) or saved.get("key") != self.key:
            return None
        try:
            return KeyLookup(saved)
        except (KeyError, TypeError, ValueError):
            log.warning("%s does not hold what was written; the rows are read instead", self.path)
            return None

    def rows(self) -> list[PaperKeys] | None:
        """Every paper's keys; None when the file was replaced or damaged since the header.

        At 100,000 papers this is ~0.5 s: a start without tags and a search never pay it.
        """
        saved = _read(self.path)
        return saved[1] if saved is not None and saved[0] == self.key else None


def read_saved_keys(folder: Path, reader: IndexReader) -> SavedKeys | None:
    """The header of the keys saved for exactly this index, else None."""
    key = index_key(reader)
    path = Path(folder) / KEYS_FILE
    header = _header(path)
    if (
        key is None
        or header is None
        or header.get("key") != key
        or header.get("count") != reader.doc_count()
    ):
        return None
    collections = _rows(header.get("collections"), path)
    return None if collections is None else SavedKeys(path, key, tuple(collections))


def saved_keys(folder: Path) -> dict[str, PaperKeys]:
    """The keys saved last, by paper id, whatever index they were saved for.

    An in-place update recomputes only its changed papers' keys (the identities fold
    every title: seconds at 100,000 papers) and takes the others from here.
    """
    saved = _read(Path(folder) / KEYS_FILE)
    return {keys.id: keys for keys in saved[1]} if saved is not None else {}


CITES, ROWS, LOOKUP = 1, 2, 3  # the sections after the header, by number


def _chunked(cites: dict[str, str]) -> list[bytes]:
    """The citation keys as marshalled chunks of `_CITES_CHUNK` papers."""
    items = list(cites.items())
    return [
        marshal.dumps(dict(items[at : at + _CITES_CHUNK]), 4)
        for at in range(0, len(items), _CITES_CHUNK)
    ]


def _cites(section: Any) -> dict[str, str] | None:
    """The citation keys of a CITES section, whole (format 4) or in chunks (format 5);
    None when it holds neither."""
    cites = section.get("cites") if isinstance(section, dict) else None
    if isinstance(cites, dict):
        return cites
    if not isinstance(cites, list) or not all(isinstance(part, bytes) for part in cites):
        return None
    out: dict[str, str] = {}
    try:
        for part in cites:  # one chunk per call: the lock is let go in between
            chunk = marshal.loads(part)
            if not isinstance(chunk, dict):
                return None
            out.update(chunk)
    except (ValueError, EOFError, TypeError):
        return None
    return out


def _header_of(handle: BinaryIO) -> dict[str, Any] | None:
    """The file's header, checked for this format; None for another format."""
    header = marshal.load(handle)
    if not isinstance(header, dict) or header.get("format") not in _READABLE:
        return None
    return header


def _section(path: Path, number: int) -> tuple[dict[str, Any], Any] | None:
    """The file's header and its section `number` (None for 0: the header alone, or for a
    section the file has not got); None when the file is absent, damaged or of another
    format.

    `marshal.load` on a file reads each of the rows' ~100,000 objects by a call to the
    file (11,454 papers: 90-130 ms); a section read whole and decoded from bytes takes
    10-18 ms, and the sections before it are skipped. A file written before the header
    held the sections' sizes is read object by object.
    """
    try:
        with path.open("rb") as handle:
            header = _header_of(handle)
            if header is None or number == 0:
                return None if header is None else (header, None)
            sizes = header.get("sections")
            # One size per section: the rows last, or the lookup table after them.
            if not (isinstance(sizes, list) and len(sizes) in (ROWS, LOOKUP) and _all_ints(sizes)):
                if number > ROWS:
                    return header, None  # written before the sizes, and before the table
                for _ in range(number - 1):
                    marshal.load(handle)
                return header, marshal.load(handle)
            if number > len(sizes):
                return header, None
            handle.seek(sum(sizes[: number - 1]), os.SEEK_CUR)
            data = handle.read(sizes[number - 1])
            if len(data) != sizes[number - 1]:
                raise EOFError("the file is shorter than its header says")
            return header, marshal.loads(data)
    except OSError:
        return None  # an index built before this file existed
    except (ValueError, EOFError, TypeError):
        log.warning("%s is unreadable; the library is loaded instead", path)
        return None


def _all_ints(values: list[Any]) -> bool:
    return all(isinstance(value, int) and value >= 0 for value in values)


def _header(path: Path) -> dict[str, object] | None:
    found = _section(path, 0)
    return found[0] if found is not None else None


def _read(path: Path) -> tuple[object, list[PaperKeys]] | None:
    """(the index key, every row) of the file, or None."""
    found = _section(path, ROWS)
    if found is None:
        return None
    header, body = found
    if not isinstance(body, dict) or body.get("key") != header.get("key"):
        return None
    rows = _rows(body.get("rows"), path)
    return None if rows is None else (header.get("key"), rows)


def _rows(rows: object, path: Path) -> list[PaperKeys] | None:
    try:
        return [
            PaperKeys(
                str(i), tuple(ids), key if key is None else str(key), tuple(kw), tuple(c), str(b)
            )
            for i, ids, key, kw, c, b in rows  # type: ignore[attr-defined]
        ]
    except (TypeError, ValueError):
        log.warning("%s does not hold what was written; the library is loaded instead", path)
        return None
