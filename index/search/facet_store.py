"""The facet masks saved beside the index, so opening it reads one file instead of scanning.

Opening an index used to compute every facet value's mask, the per-document columns and
the sort orders (`index.search.bitsets.FacetMasks`): ~0.4 s at 11,000 papers, most of a
command-line search. They depend only on the index, so the build computes them once and
saves them in the generation's folder (`facets.marshal`), and an in-place update saves
them after its commit, patched for the segments it changed (index.search.facet_build),
as changes to that file in a small file of their own (index.search.facet_changes),
folded into it once they grow. `current.json` checksums the files with the rest of the
generation (index.store.generations), so a damaged one is found on open like a damaged
segment.

The file is keyed by the index it was computed from: each Whoosh segment's id, document
count and live-document count. A file that does not match the open index (an older
paperscope, an update that did not rewrite it, a segment merge) is ignored and the masks
are computed as before, so a missing or stale file only costs time.

The multi-valued facets' columns (every paper's authors, keywords, categories) and the
sorted titles are marshalled again as bytes of their own inside the file: reading the
file copies them without decoding, and `FacetMasks.lists` and `.titles` decode them when
a search first needs them (at 100,000 papers the columns were 0.22 s of the file's
0.31 s, the titles ~9 ms of the rest; a start's first page needs neither).

The other per-paper columns (ids, venues, years, the sort orders) and each facet's masks
are bytes of their own too, decoded one by one on open: one `marshal.loads` of the whole
state held the interpreter's lock for ~0.2 s at 100,000 papers, and a language server
opening an updated index while it answers completions stalls them that long (issue 48);
the longest part, the ids, takes a third of it.

`marshal` (format 4) rather than JSON: the state is ints of up to 100,000 bits, and
lists of strings and tuples, which it reads ~10x faster than JSON could parse them.
Like the index's own table of contents (which Whoosh pickles), the file is trusted as
the user's own cache; its checksum and the shape checks below catch damage.
"""

from __future__ import annotations

import logging
import marshal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic
from index.search.bitsets import FacetMasks, list_columns_fit
from index.search.facet_build import Computed, Counts, computed_facets
from index.search.facet_changes import (
    CHANGES_FILE,
    CHANGES_FORMAT,
    Base,
    changes_of,
    folded,
    folded_counts,
)
from index.search.side_files import read_changes
from index.whoosh_ext.internals import segment_id

__all__ = [
    "CHANGES_FILE",
    "FACETS_FILE",
    "Saved",
    "forget",
    "read_facet_masks",
    "read_saved_facets",
    "write_facet_masks",
]

log = logging.getLogger("paperscope.index")

FACETS_FILE = "facets.marshal"
# 2: the topic facet holds NO_TOPIC; 3: the list columns are bytes of their own; 4: the
# titles too; 5: the sort orders break ties by paper id (before, by document number: still
# a valid order, kept until the next full build); 6: the other columns and each facet's
# masks are bytes of their own (`_PARTS`); 7: the large facets' value counts (`counts`),
# and an update's changes in a file of their own (index.search.facet_changes)
FORMAT = 7
_READABLE = (2, 3, 4, 5, 6, 7)
_PARTS = ("ids", "venues", "year_of", "order_title", "order_year")
_MARSHAL_VERSION = 4  # stable since Python 3.4: readable by every supported version


class Saved(NamedTuple):
    """What an in-place update reads of the saved state before its commit."""

    masks: FacetMasks
    counts: Counts | None  # the value counts of `masks` (None: counted again)
    base: Base | None  # the whole file, which the update's changes would apply to


def index_key(reader: IndexReader) -> list[list[Any]] | None:
    """What the masks were computed from: every segment's id and its document counts."""
    key: list[list[Any]] = []
    for leaf, _offset in reader.leaf_readers():
        segment = segment_id(leaf)
        if segment is None:  # Whoosh's stock paths: nothing to key the file by
            return None
        key.append([segment, leaf.doc_count_all(), leaf.doc_count()])
    return key


def write_facet_masks(
    folder: Path,
    reader: IndexReader,
    computed: Computed | None = None,
    base: Base | None = None,
) -> None:
    """Saves in `folder` the facet masks of the index `reader` reads: `computed` when the
    caller has them (an in-place update patches them), else computed here; as changes to
    the whole file `base` when they can stand for it (index.search.facet_changes)."""
    key = index_key(reader)
    if key is None:
        return
    computed = computed or computed_facets(reader)
    changes = changes_of(base, key, computed, reader.doc_count()) if base is not None else None
    if changes is not None:
        write_bytes_atomic(Path(folder) / CHANGES_FILE, marshal.dumps(changes, _MARSHAL_VERSION))
    else:
        _write_whole(Path(folder), key, computed)
    _hand_over(Path(folder), key, computed, base if changes is not None else None)


def _write_whole(folder: Path, key: list[list[Any]], computed: Computed) -> None:
    state = computed.masks.state()
    # The columns as bytes of their own: an open decodes them only when a search needs them.
    state["lists"] = marshal.dumps(state["lists"], _MARSHAL_VERSION)
    state["titles"] = marshal.dumps(state["titles"], _MARSHAL_VERSION)
    for name in _PARTS:  # decoded one at a time on open: the lock is let go in between
        state[name] = marshal.dumps(state[name], _MARSHAL_VERSION)
    state["masks"] = {
        facet: marshal.dumps(masks, _MARSHAL_VERSION) for facet, masks in state["masks"].items()
    }
    counts = marshal.dumps(computed.counts, _MARSHAL_VERSION)  # decoded by updates only
    data = {"format": FORMAT, "key": key, "state": state, "counts": counts}
    write_bytes_atomic(folder / FACETS_FILE, marshal.dumps(data, _MARSHAL_VERSION))
    # Changes to the file just replaced no longer apply (their base says so, too).
    (folder / CHANGES_FILE).unlink(missing_ok=True)


# The masks an in-place update just saved, for the engine that opens the updated index
# next in this process (reading them back took ~0.03-0.1 s at 100,000 papers): taken
# once, by an open of the same folder and index.
_handed: list[tuple[Path, list[list[Any]], FacetMasks]] = []
# What the next update needs beside the masks saved last (their counts, the whole file),
# for as long as the masks live (an engine serves them): an update in the same process
# (the app re-indexing a saved file) then reads nothing back and decodes no column.
_known: WeakKeyDictionary[FacetMasks, tuple[Path, list[list[Any]], Counts, Base]] = (
    WeakKeyDictionary()
)
_handed_lock = threading.Lock()


def _hand_over(folder: Path, key: list[list[Any]], computed: Computed, base: Base | None) -> None:
    with _handed_lock:
        _handed[:] = [(folder, key, computed.masks)]
        if base is None:  # written whole: the next changes apply to these masks
            base = Base(key, computed.masks.size, computed.masks.masks, computed.counts)
        _known[computed.masks] = (folder, key, computed.counts, base)


def _taken(folder: Path, key: list[list[Any]]) -> FacetMasks | None:
    with _handed_lock:
        if _handed and _handed[0][0] == folder and _handed[0][1] == key:
            return _handed.pop()[2]
        _handed.clear()
    return None


def _remembered(folder: Path, key: list[list[Any]]) -> Saved | None:
    with _handed_lock:
        for masks, (where, fits, counts, base) in list(_known.items()):
            if where == folder and fits == key:
                return Saved(masks, counts, base)
    return None


def forget() -> None:
    """Forgets the masks this process saved: the next open and update read the files."""
    with _handed_lock:
        _handed.clear()
        _known.clear()


def read_facet_masks(
    folder: Path, reader: IndexReader, recompute: Callable[[str], Any] | None = None
) -> FacetMasks | None:
    """The saved masks when they were computed from exactly this index, else None.

    The multi-valued facets' columns and the titles are decoded on first use
    (`FacetMasks.lists`, `.titles`); `recompute(name)` reads that column from the index
    should it then prove not to fit it.
    """
    key = index_key(reader)
    if key is None:
        return None
    handed = _taken(Path(folder), key)
    if handed is not None:
        return handed
    saved = _read(Path(folder), key, recompute, with_base=False)
    return saved.masks if saved is not None else None


def read_saved_facets(folder: Path, reader: IndexReader) -> Saved | None:
    """`read_facet_masks`, with what an update needs to save its changes."""
    key = index_key(reader)
    if key is None:
        return None
    return _remembered(Path(folder), key) or _read(Path(folder), key, None, with_base=True)


def _read(
    folder: Path,
    key: list[list[Any]],
    recompute: Callable[[str], Any] | None,
    with_base: bool,
) -> Saved | None:
    path = folder / FACETS_FILE
    try:
        data = path.read_bytes()
    except OSError:
        return None  # never saved (an index built before this file existed)
    try:
        saved = marshal.loads(data)
        if not isinstance(saved, dict) or saved.get("format") not in _READABLE:
            return None
        whole = saved.get("key") == key
        changes = None
        if not whole:
            if saved["format"] < 7:
                return None  # computed from another state of the index
            changes = read_changes(folder / CHANGES_FILE, CHANGES_FORMAT, saved.get("key"))
            if changes is None or changes.get("key") != key:
                return None  # computed from another state of the index
        state = saved.get("state")
        if saved["format"] >= 6 and isinstance(state, dict):
            _decode_parts(state)
        counts = None
        if with_base and isinstance(saved.get("counts"), bytes):
            counts = _counts(marshal.loads(saved["counts"]))
        base = None
        if (
            with_base
            and isinstance(state, dict)
            and saved["format"] >= 7
            and isinstance(state.get("size"), int)
            and isinstance(state.get("masks"), dict)
        ):
            base = Base(saved["key"], state["size"], state["masks"], counts)
        if changes is not None and isinstance(state, dict):
            state = folded(state, changes)
            if counts is not None and state is not None:
                counts = folded_counts(counts, changes)
    except (ValueError, EOFError, TypeError):
        log.warning("%s is unreadable; computing the facet masks", path)
        return None
    if not isinstance(state, dict) or not _well_formed(state, key):
        log.warning("%s does not hold what was written; computing the facet masks", path)
        return None
    return Saved(FacetMasks.restored(state, recompute), counts, base)


def _counts(counts: Any) -> Counts | None:
    """Saved value counts as `Counts`, or None when they are not."""
    if isinstance(counts, dict) and all(isinstance(counted, dict) for counted in counts.values()):
        return counts
    return None


def _decode_parts(state: dict[str, Any]) -> None:
    """The parts format 6 saved as bytes of their own, decoded in place, one call each."""
    for name in _PARTS:
        if isinstance(state.get(name), bytes):
            state[name] = marshal.loads(state[name])
    masks = state.get("masks")
    if isinstance(masks, dict):
        state["masks"] = {
            facet: marshal.loads(part) if isinstance(part, bytes) else part
            for facet, part in masks.items()
        }


def _well_formed(state: dict[str, Any], key: list[list[Any]]) -> bool:
    """The state has every part, each of the right kind and length for the index."""
    if set(state) != set(FacetMasks.STATE):
        return False
    size = sum(segment[1] for segment in key)
    per_document = ("ids", "venues", "year_of")
    return (
        state["size"] == size
        and isinstance(state["live"], int)
        and all(isinstance(state[name], list) and len(state[name]) == size for name in per_document)
        and (
            isinstance(state["titles"], (bytes, tuple))
            or (isinstance(state["titles"], list) and len(state["titles"]) == size)
        )
        and (isinstance(state["lists"], (bytes, tuple)) or list_columns_fit(state["lists"], size))
        and isinstance(state["masks"], dict)
        and all(isinstance(masks, dict) for masks in state["masks"].values())
        and {"topic", "hardware", "year", "venue"} <= state["masks"].keys()
        and all(isinstance(state[name], list) for name in ("order_title", "order_year"))
    )
