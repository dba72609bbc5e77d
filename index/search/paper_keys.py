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

An in-place update whose papers kept their order and base citation keys (an edit of
abstracts, titles, keywords) does not rewrite the file (18 MB at 100,000 papers: ~0.3 s
of an update of 100 papers to read, write and hash): it writes the changed rows and a
lookup table of their own to a small file beside it (`paper-keys-changes.marshal`),
keyed by the big file it applies to and the index it fits, and every read merges them.
The changes are folded into the big file when they grow past a share of the library or
an update changes what they cannot hold (papers added, removed or reordered, a changed
base citation key: the unique citation keys of other papers may follow from it).
"""

from __future__ import annotations

import logging
import marshal
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic
from index.search.facet_store import index_key
from index.search.key_lookup import KeyLookup, lookup_section, patched_section
from index.search.side_files import fold_due, read_changes

__all__ = [
    "CHANGES_FILE",
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
CHANGES_FILE = "paper-keys-changes.marshal"
CHANGES_FORMAT = 2  # 2: the changed papers' lookup table


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
    # The papers' order, which the rows' changes (`_write_changes`) must keep.
    header["order"] = _order_digest(row[0] for row in rows)
    write_bytes_atomic(Path(folder) / KEYS_FILE, marshal.dumps(header, 4) + b"".join(sections))
    # Changes to the file just replaced no longer apply (their base key says so, too).
    (Path(folder) / CHANGES_FILE).unlink(missing_ok=True)


def _order_digest(ids: Iterable[str]) -> str:
    return blake2b("\0".join(ids).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def update_paper_keys(
    folder: Path,
    reader: IndexReader,
    order: Sequence[str],
    changed: Sequence[PaperKeys],
    before: Mapping[str, PaperKeys] | None = None,
) -> bool:
    """Patches the saved keys for an in-place update: `order` is every paper's id in the
    library's order, `changed` the keys of the papers it indexed anew (changed or added),
    `before` the keys the replaced ones had (from their stored papers).

    When the papers kept their order and every changed paper its base citation key, only
    the changed rows are written, to the changes file (`_write_changes`).

    Rewriting them whole read every saved row back and digested every identity again:
    ~1.5 s of an update of 100 papers at 100,000. Here the rows stay marshalled tuples,
    and the lookup table (index.search.key_lookup) keeps its digests: the removed and
    replaced papers' entries are dropped and the new ones merged in. Their answers are a
    fresh write's. False (nothing written) when there is no complete file to patch: the
    caller writes it whole.
    """
    key = index_key(reader)
    if key is None:
        return False
    if before is not None and _write_changes(Path(folder), key, order, changed, before):
        return True
    path = Path(folder) / KEYS_FILE
    found, table = _section(path, ROWS), _section(path, LOOKUP)
    if found is None or table is None or not isinstance(table[1], dict):
        return False
    header, body = found
    if not isinstance(body, dict) or body.get("key") != header.get("key"):
        return False
    old = list(body.get("rows") or [])
    changes = _changes(Path(folder), header)
    try:
        for position, row in changes["rows"] if changes is not None else ():
            old[position] = row
    except (IndexError, TypeError):
        return False
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
        if changes is not None:  # the big file's table lacks the changed rows' entries
            ids = {row[0] for _, row in changes["rows"]}
            extra = _rows([by_id[i] for i in ids.intersection(order) if i not in fresh], path)
            dead = set(by_id).difference(order) | set(fresh) | ids
            lookup = patched_section(lookup, dead, [*changed, *(extra or ())])
        elif not kept_table:
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


def _write_changes(
    folder: Path,
    key: list[list[Any]],
    order: Sequence[str],
    changed: Sequence[PaperKeys],
    before: Mapping[str, PaperKeys],
) -> bool:
    """Writes the changed rows and their lookup table beside the big file, which stays as
    it is; False (nothing written) when they cannot stand for a whole write: papers
    added, removed or reordered, a changed base citation key (other papers' unique
    citation keys may change), or changes past a share of the library."""
    found = _section(folder / KEYS_FILE, 0)
    if found is None:
        return False
    header = found[0]
    if header.get("count") != len(order) or not isinstance(header.get("order"), str):
        return False
    for keys in changed:
        old = before.get(keys.id)
        if old is None or old.base_key != keys.base_key:
            return False
    if header["order"] != _order_digest(order):
        return False
    changes = _changes(folder, header)
    position = dict(zip(order, range(len(order))))
    rows = {row[0]: (n, row) for n, row in changes["rows"]} if changes is not None else {}
    fresh = {keys.id: tuple(keys) for keys in changed}
    rows.update((paper_id, (position[paper_id], row)) for paper_id, row in fresh.items())
    if fold_due(len(rows), len(order)):
        return False  # folded into the big file by a whole write
    collections = changes["collections"] if changes is not None else header.get("collections")
    if not isinstance(collections, list):
        return False
    collections = [row for row in collections if row[0] not in fresh]
    collections += [row for row in fresh.values() if row[4]]
    collections.sort(key=lambda row: position.get(row[0], -1))
    merged = sorted(rows.values())
    # Every changed paper's identities and note name, answered instead of the big file's.
    lookup = lookup_section(_rows([row for _, row in merged], folder / CHANGES_FILE) or [])
    data = {
        "format": CHANGES_FORMAT,
        "base": header.get("key"),
        "key": key,
        "rows": merged,
        "collections": collections,
        "lookup": lookup,
    }
    write_bytes_atomic(folder / CHANGES_FILE, marshal.dumps(data, 4))
    return True


def _changes(folder: Path, header: dict[str, Any]) -> dict[str, Any] | None:
    """The changes file when it applies to the big file of `header`, else None."""
    changes = read_changes(folder / CHANGES_FILE, CHANGES_FORMAT, header.get("key"))
    if (
        changes is None
        or not isinstance(changes.get("rows"), list)
        or not isinstance(changes.get("collections"), list)
        or not isinstance(changes.get("lookup"), dict)
        or not all(
            isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], int)
            for entry in changes["rows"]
        )
    ):
        return None
    return changes


@dataclass(frozen=True)
class SavedKeys:
    """The saved keys of one index, as far as its opening needs them: the rows wait."""

    path: Path
    key: object  # the index they were saved for (index.search.facet_store.index_key)
    collections: tuple[PaperKeys, ...]  # the papers that carry collections (usually none)
    # The big file's own key when changed rows apply to it (`CHANGES_FILE`), and those rows
    # by position, as read at the open: a later update's changes are not this index's.
    base: object = None
    changes: tuple[tuple[int, PaperKeys], ...] = ()
    changed_lookup: dict[str, Any] | None = None  # the changed papers' (`KeyLookup.overlaid`)

    @property
    def _file_key(self) -> object:
        return self.key if self.base is None else self.base

    def citation_keys(self) -> dict[str, str] | None:
        """Paper id -> its citation key, unique in the library, as a loaded library gives
        it; None when the file was replaced or damaged since the header."""
        found = _section(self.path, CITES)
        saved = found[1] if found is not None else None
        if not isinstance(saved, dict) or saved.get("key") != self._file_key:
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
        if not isinstance(saved, dict) or saved.get("key") != self._file_key:
            return None
        try:
            table = KeyLookup(saved)
            if self.changed_lookup is not None:
                table = table.overlaid(KeyLookup(self.changed_lookup))
            return table
        except (KeyError, TypeError, ValueError):
            log.warning("%s does not hold what was written; the rows are read instead", self.path)
            return None

    def rows(self) -> list[PaperKeys] | None:
        """Every paper's keys; None when the file was replaced or damaged since the header.

        At 100,000 papers this is ~0.5 s: a start without tags and a search never pay it.
        """
        saved = _read(self.path)
        if saved is None or saved[0] != self._file_key:
            return None
        rows = saved[1]
        for position, row in self.changes:
            if not (0 <= position < len(rows) and rows[position].id == row.id):
                return None
            rows[position] = row
        return rows


def read_saved_keys(folder: Path, reader: IndexReader) -> SavedKeys | None:
    """The header of the keys saved for exactly this index, else None."""
    key = index_key(reader)
    path = Path(folder) / KEYS_FILE
    header = _header(path)
    if key is None or header is None or header.get("count") != reader.doc_count():
        return None
    changes = _changes(Path(folder), header) if header.get("key") != key else None
    if header.get("key") != key and (changes is None or changes.get("key") != key):
        return None
    if changes is None:
        collections = _rows(header.get("collections"), path)
        return None if collections is None else SavedKeys(path, key, tuple(collections))
    collections = _rows(changes["collections"], path)
    changed = _rows([row for _, row in changes["rows"]], path)
    if collections is None or changed is None:
        return None
    positions = [position for position, _ in changes["rows"]]
    return SavedKeys(
        path,
        key,
        tuple(collections),
        header.get("key"),
        tuple(zip(positions, changed)),
        changes["lookup"],
    )


def saved_keys(folder: Path) -> dict[str, PaperKeys]:
    """The keys saved last, by paper id, whatever index they were saved for.

    An in-place update recomputes only its changed papers' keys (the identities fold
    every title: seconds at 100,000 papers) and takes the others from here.
    """
    path = Path(folder) / KEYS_FILE
    saved, header = _read(path), _header(path)
    if saved is None or header is None:
        return {}
    found = {keys.id: keys for keys in saved[1]}
    changes = _changes(Path(folder), header)
    if changes is not None:
        found.update((keys.id, keys) for keys in _rows([r for _, r in changes["rows"]], path) or ())
    return found


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
