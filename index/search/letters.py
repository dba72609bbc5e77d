"""Match sets of the shortest typed prefixes, computed once per build.

The first keystroke of every search is a one-letter prefix, and it matches nearly every
paper: its match set is the union of the longest posting lists in the index (its edge
n-gram and its most frequent abstract completions), ~65% of a 0.4 s request at 100,000
papers. That set depends only on the index, so the build computes it for every letter
(and for the two-letter prefixes whose completions are the commonest words) and stores
the bitmasks beside the index; the engine then answers those prefixes' match sets with
a lookup. The masks are kept per Whoosh segment: an in-place update adds a small segment
(and may merge the small ones), so it computes masks for the new segments only and keeps
the big one's. A file that misses a segment of the index is ignored (computed as usual).
"""

from __future__ import annotations

import base64
import json
import string
from collections.abc import Iterator
from pathlib import Path

from whoosh import query as wq
from whoosh.reading import IndexReader

from index.atomic import write_text_atomic
from index.search.prefix_table import PrefixTable
from index.search.bitsets import mask_of, posting_ids
from index.whoosh_ext.internals import segment_id

LETTERS_FILE = "letters.json"
FORMAT = 2  # 1 stored one mask per node for the whole index
# Two-letter prefixes get a stored mask when their commonest completion is in at least
# this share of the papers (their match sets are the large, slow ones); at most this many.
TWO_LETTER_SHARE = 0.2
TWO_LETTER_MAX = 40


def short_prefixes(table: PrefixTable, size: int) -> list[str]:
    """Every letter and digit, plus the two-letter prefixes of the commonest words."""
    twos = []
    for prefix, completions in table.get("abstract", {}).items():
        top = completions[0][1] if completions and completions[0][0] else 0
        if len(prefix) == 2 and isinstance(top, int) and top >= TWO_LETTER_SHARE * size:
            twos.append((-top, prefix))
    return list(string.ascii_lowercase + string.digits) + [p for _, p in sorted(twos)][
        :TWO_LETTER_MAX]


def _term_leaves(q: wq.Query) -> Iterator[wq.Term] | None:
    """The terms of a pure union (Or / ConstantScore / Term), or None for anything else."""
    terms: list[wq.Term] = []
    stack = [q]
    while stack:
        node = stack.pop()
        if type(node) is wq.Term:
            terms.append(node)
        elif isinstance(node, wq.ConstantScoreQuery):
            stack.append(node.child)
        elif isinstance(node, wq.Or):
            stack.extend(node.subqueries)
        else:
            return None
    return iter(terms)


def union_mask(reader: IndexReader, q: wq.Query) -> int | None:
    """The documents matching a pure union of terms (deleted ones included)."""
    terms = _term_leaves(q)
    if terms is None:
        return None
    size = reader.doc_count_all()
    mask = 0
    for term in terms:
        mask |= mask_of(posting_ids(reader, term.fieldname, term.text), size)
    return mask


def write_letters(folder: Path, reader: IndexReader, nodes: dict[str, wq.Query]) -> None:
    """Stores the masks of `nodes` (each short prefix's parsed query) for every segment.

    Segments that the file in `folder` already covers keep their masks (an in-place update
    leaves the big segment as it was); only the others have their postings read.
    """
    known = _read_segments(folder)
    wanted = {repr(node) for node in nodes.values() if _term_leaves(node) is not None}
    segments: dict[str, dict[str, str]] = {}
    for leaf, _offset in reader.leaf_readers():
        segment = segment_id(leaf)
        if segment is None:  # Whoosh's stock paths: masks are computed at search time
            return
        kept = known.get(segment, {})
        if wanted <= kept.keys():
            segments[segment] = {key: kept[key] for key in wanted}
            continue
        masks = {}
        for node in nodes.values():
            mask = union_mask(leaf, node)
            if mask is not None:  # None for a query that is not a union of terms
                data = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
                masks[repr(node)] = base64.b64encode(data).decode("ascii")
        segments[segment] = masks
    write_text_atomic(Path(folder) / LETTERS_FILE,
                      json.dumps({"format": FORMAT, "segments": segments}))


def _read_segments(folder: Path) -> dict[str, dict[str, str]]:
    """The stored masks by segment id, then node repr (base64); {} if missing or damaged."""
    try:
        data = json.loads((Path(folder) / LETTERS_FILE).read_text(encoding="utf-8"))
        segments = data["segments"] if data.get("format") == FORMAT else {}
        if isinstance(segments, dict) and all(
                isinstance(masks, dict) for masks in segments.values()):
            return segments
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return {}


def read_letters(folder: Path, reader: IndexReader) -> dict[str, int]:
    """The stored masks by node repr over the whole index, or {} when a segment is missing.

    Each segment's mask is shifted to the segment's first document number; only nodes
    every segment has a mask for are returned.
    """
    segments = _read_segments(folder)
    parts = []
    for leaf, offset in reader.leaf_readers():
        segment = segment_id(leaf)
        masks = segments.get(segment) if segment is not None else None
        if masks is None:
            return {}
        parts.append((masks, offset))
    if not parts:
        return {}
    combined = {}
    try:
        for key in set(parts[0][0]).intersection(*(masks for masks, _ in parts[1:])):
            mask = 0
            for masks, offset in parts:
                mask |= int.from_bytes(base64.b64decode(masks[key]), "little") << offset
            combined[key] = mask
    except (ValueError, TypeError):  # damaged base64
        return {}
    return combined
