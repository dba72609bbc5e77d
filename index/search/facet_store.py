"""The facet masks saved beside the index, so opening it reads one file instead of scanning.

Opening an index used to compute every facet value's mask, the per-document columns and
the sort orders (`index.search.bitsets.FacetMasks`): ~0.4 s at 11,000 papers, most of a
command-line search. They depend only on the index, so the build computes them once and
saves them in the generation's folder (`facets.marshal`), and an in-place update saves
them again after its commit, patched for the segments it changed
(index.search.facet_build). `current.json` checksums the file with the rest of the
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic
from index.search.bitsets import FacetMasks, list_columns_fit
from index.search.facet_build import facet_masks
from index.whoosh_ext.internals import segment_id

__all__ = ["FACETS_FILE", "read_facet_masks", "write_facet_masks"]

log = logging.getLogger("paperscope.index")

FACETS_FILE = "facets.marshal"
# 2: the topic facet holds NO_TOPIC; 3: the list columns are bytes of their own; 4: the
# titles too; 5: the sort orders break ties by paper id (before, by document number: still
# a valid order, kept until the next full build); 6: the other columns and each facet's
# masks are bytes of their own (`_PARTS`)
FORMAT = 6
_READABLE = (2, 3, 4, 5, 6)
_PARTS = ("ids", "venues", "year_of", "order_title", "order_year")
_MARSHAL_VERSION = 4  # stable since Python 3.4: readable by every supported version


def index_key(reader: IndexReader) -> list[list[Any]] | None:
    """What the masks were computed from: every segment's id and its document counts."""
    key: list[list[Any]] = []
    for leaf, _offset in reader.leaf_readers():
        segment = segment_id(leaf)
        if segment is None:  # Whoosh's stock paths: nothing to key the file by
            return None
        key.append([segment, leaf.doc_count_all(), leaf.doc_count()])
    return key


def write_facet_masks(folder: Path, reader: IndexReader, masks: FacetMasks | None = None) -> None:
    """Saves in `folder` the facet masks of the index `reader` reads: `masks` when the
    caller has them (an in-place update patches them), else computed here."""
    key = index_key(reader)
    if key is None:
        return
    state = (masks or facet_masks(reader)).state()
    # The columns as bytes of their own: an open decodes them only when a search needs them.
    state["lists"] = marshal.dumps(state["lists"], _MARSHAL_VERSION)
    state["titles"] = marshal.dumps(state["titles"], _MARSHAL_VERSION)
    for name in _PARTS:  # decoded one at a time on open: the lock is let go in between
        state[name] = marshal.dumps(state[name], _MARSHAL_VERSION)
    state["masks"] = {
        facet: marshal.dumps(masks, _MARSHAL_VERSION) for facet, masks in state["masks"].items()
    }
    data = marshal.dumps({"format": FORMAT, "key": key, "state": state}, _MARSHAL_VERSION)
    write_bytes_atomic(Path(folder) / FACETS_FILE, data)


def read_facet_masks(
    folder: Path, reader: IndexReader, recompute: Callable[[str], Any] | None = None
) -> FacetMasks | None:
    """The saved masks when they were computed from exactly this index, else None.

    The multi-valued facets' columns and the titles are decoded on first use
    (`FacetMasks.lists`, `.titles`); `recompute(name)` reads that column from the index
    should it then prove not to fit it.
    """
    path = Path(folder) / FACETS_FILE
    try:
        data = path.read_bytes()
    except OSError:
        return None  # never saved (an index built before this file existed)
    try:
        saved = marshal.loads(data)
        if not isinstance(saved, dict) or saved.get("format") not in _READABLE:
            return None
        key = index_key(reader)
        if key is None or saved.get("key") != key:
            return None  # computed from another state of the index
        state = saved.get("state")
        if saved["format"] >= 6 and isinstance(state, dict):
            _decode_parts(state)
    except (ValueError, EOFError, TypeError):
        log.warning("%s is unreadable; computing the facet masks", path)
        return None
    if not isinstance(state, dict) or not _well_formed(state, key):
        log.warning("%s does not hold what was written; computing the facet masks", path)
        return None
    return FacetMasks.restored(state, recompute)


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
            isinstance(state["titles"], bytes)
            or (isinstance(state["titles"], list) and len(state["titles"]) == size)
        )
        and (isinstance(state["lists"], bytes) or list_columns_fit(state["lists"], size))
        and isinstance(state["masks"], dict)
        and all(isinstance(masks, dict) for masks in state["masks"].values())
        and {"topic", "hardware", "year", "venue"} <= state["masks"].keys()
        and all(isinstance(state[name], list) for name in ("order_title", "order_year"))
    )
