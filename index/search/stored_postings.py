"""The long posting lists of each segment, kept decoded beside the index.

Whoosh stores a posting block's ids, weights and positions as one compressed pickle, so
reading even the ids of a common word decodes its positions too: ~0.5 us a posting, in
Python. At 1,000,000 papers a common word holds 100,000-400,000 postings, and reading
them (for its match set, for its scores, for a prefix's completions) was about half of a
keystroke's time and most of every request slower than 250 ms.

The build writes, for every term of the searched fields holding at least `MIN_POSTINGS`
documents in a segment, that segment's document numbers (as gaps, `array('i')`) and
Whoosh's weights for them (`array('d')`, exactly the floats its block reader gives), each
zlib-compressed, into one file (`POSTINGS_FILE`). A search reads them at C speed
(`zlib.decompress`, `array.frombytes`, `itertools.accumulate`). A segment is immutable, so
its lists stay valid while it exists: an in-place update keeps the old segments' lists as
they are and adds the new segment's (document numbers are per segment; callers add the
segment's offset, and mask deleted documents as they do for Whoosh's own postings); an
update that adds only segments too small to hold a long list leaves the file alone.

Anything missing, damaged or written for other segments is ignored: those postings are
read from Whoosh as before, with the same answers.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import zlib
from array import array
from collections.abc import Iterator
from itertools import accumulate, islice
from pathlib import Path
from typing import Any

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic
from index.schema.fields import TEXT_FIELDS
from index.whoosh_ext.blocks import gaps_and_weights
from index.whoosh_ext.internals import segment_id

__all__ = ["MIN_POSTINGS", "POSTINGS_FILE", "StoredPostings", "write_stored_postings"]

POSTINGS_FILE = "postings.bin"
_MAGIC = b"paperscope postings 1\n"
_LENGTH_BYTES = 8  # the directory's length, after the magic
# A list shorter than this is read from Whoosh in a few milliseconds.
MIN_POSTINGS = 5000
# The fields whose words a query reads: the text fields and the title/author prefixes.
FIELDS = (*TEXT_FIELDS, "prefix")

log = logging.getLogger("paperscope.index")

# (byte offset in the data, compressed gaps' length, compressed weights' length, count)
_Entry = tuple[int, int, int, int]


def _key(fieldname: str, text: object) -> str:
    word = text.decode("utf-8") if isinstance(text, bytes) else str(text)
    return f"{fieldname}:{word}"


def write_stored_postings(folder: Path, reader: IndexReader) -> None:
    """Writes the long posting lists of every segment of `reader` into `folder`.

    A segment the file in `folder` already holds keeps its lists as they are (their bytes
    are copied, not read from Whoosh again); only new segments are read. An index of
    fewer documents than `MIN_POSTINGS` has no long list, and gets no file.
    """
    if reader.doc_count_all() < MIN_POSTINGS:
        return
    old = StoredPostings.open(folder, reader)
    big = [leaf for leaf, _ in reader.leaf_readers() if leaf.doc_count_all() >= MIN_POSTINGS]
    if old and all(old.covers(leaf) for leaf in big):
        # An update added only small segments (no list of theirs is long: `_read`), and
        # a segment the file lacks is read from Whoosh: the file (12 MB at 100,000
        # papers) is neither rewritten nor hashed again. Gone segments' lists stay unread.
        old.close()
        return
    try:
        directory: dict[str, dict[str, _Entry]] = {}
        chunks: list[bytes] = []
        written = 0
        for leaf, _offset in reader.leaf_readers():
            segment = segment_id(leaf)
            if segment is None:  # Whoosh's stock paths: nothing is stored
                return
            entries: dict[str, _Entry] = {}
            kept = old.segment_blobs(segment)  # [] is a segment stored with no long list
            for key, gaps, weights, count in _read(leaf) if kept is None else kept:
                entries[key] = (written, len(gaps), len(weights), count)
                chunks += (gaps, weights)
                written += len(gaps) + len(weights)
            directory[segment] = entries
    finally:
        old.close()
    header = json.dumps({"byteorder": sys.byteorder, "segments": directory}).encode("utf-8")
    write_bytes_atomic(
        Path(folder) / POSTINGS_FILE,
        b"".join([_MAGIC, len(header).to_bytes(_LENGTH_BYTES, "little"), header, *chunks]),
    )


def _read(leaf: IndexReader) -> Iterator[tuple[str, bytes, bytes, int]]:
    """Each long posting list of one segment: key, compressed gaps and weights, count."""
    if leaf.doc_count_all() < MIN_POSTINGS:  # an update's small segment: no list is long
        return
    for fieldname in FIELDS:
        if fieldname not in leaf.indexed_field_names():
            continue
        long = [
            text
            for text, info in leaf.iter_field(fieldname)
            if info.doc_frequency() >= MIN_POSTINGS
        ]
        for text in long:
            gaps, weights = gaps_and_weights(leaf.postings(fieldname, text))
            yield (
                _key(fieldname, text),
                zlib.compress(gaps.tobytes(), 1),
                zlib.compress(weights.tobytes(), 1),
                len(gaps),
            )


class StoredPostings:
    """The long posting lists `write_stored_postings` wrote, for one open index."""

    def __init__(
        self, path: Path | None = None, start: int = 0, segments: dict[str, Any] | None = None
    ) -> None:
        self._segments: dict[str, dict[str, _Entry]] = segments or {}
        self._path = path
        self._start = start
        self._file = open(path, "rb") if path is not None and self._segments else None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, folder: Path, reader: IndexReader) -> StoredPostings:
        """The lists stored for the segments `reader` reads; none (an empty store) when
        the file is missing, damaged, or written on a machine of the other byte order."""
        path = Path(folder) / POSTINGS_FILE
        try:
            with open(path, "rb") as stream:
                if stream.read(len(_MAGIC)) != _MAGIC:
                    return cls()
                length = int.from_bytes(stream.read(_LENGTH_BYTES), "little")
                header = json.loads(stream.read(length).decode("utf-8"))
            if header.get("byteorder") != sys.byteorder:
                return cls()
            stored = header["segments"]
            wanted = {segment_id(leaf) for leaf, _ in reader.leaf_readers()}
            segments = {
                segment: {key: _entry(entry) for key, entry in entries.items()}
                for segment, entries in stored.items()
                if segment in wanted
            }
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            log.warning("%s: ignored (%s); postings are read from the index", path, error)
            return cls()
        return cls(path, len(_MAGIC) + _LENGTH_BYTES + length, segments)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __bool__(self) -> bool:
        return bool(self._segments)

    def covers(self, leaf: IndexReader) -> bool:
        """Whether the file holds the lists of the segment `leaf` reads (maybe none)."""
        return segment_id(leaf) in self._segments

    def ids(
        self, leaf: IndexReader, offset: int, fieldname: str, text: str | bytes
    ) -> list[int] | None:
        """The documents (numbered in the whole index) of a long list, or None when it
        is not stored: the caller reads Whoosh's postings."""
        found = self._decoded(leaf, fieldname, text, weights=False)
        if found is None:
            return None
        return list(islice(accumulate(found[0], initial=offset), 1, None))

    def scored(
        self, leaf: IndexReader, fieldname: str, text: object
    ) -> tuple[array[int], array[float]] | None:
        """The documents (numbered within the segment) and Whoosh's weights of a long
        list, or None when it is not stored."""
        found = self._decoded(leaf, fieldname, text, weights=True)
        if found is None:
            return None
        gaps, weights = found
        return array("i", accumulate(gaps)), weights

    def _decoded(
        self, leaf: IndexReader, fieldname: str, text: object, weights: bool
    ) -> tuple[array[int], array[float]] | None:
        """A stored list's gaps (and weights, if asked), each as many as the directory
        says; None when it is not stored or found damaged (then no list is used again)."""
        if self._file is None:
            return None
        entries = self._segments.get(segment_id(leaf) or "")
        entry = entries.get(_key(fieldname, text)) if entries else None
        if entry is None:
            return None
        start, gaps_length, weights_length, count = entry
        with self._lock:
            if self._file is None:
                return None
            self._file.seek(self._start + start)
            data = self._file.read(gaps_length + (weights_length if weights else 0))
        gaps: array[int] = array("i")
        parts: array[float] = array("d")
        try:
            gaps.frombytes(zlib.decompress(data[:gaps_length]))
            if weights:
                parts.frombytes(zlib.decompress(data[gaps_length:]))
            if len(gaps) != count or (weights and len(parts) != count):
                raise ValueError(f"{count} postings written, {len(gaps)} read")
        except (zlib.error, ValueError) as error:
            log.warning("%s: damaged (%s); postings are read from the index", self._path, error)
            with self._lock:
                self._segments = {}
            return None
        return gaps, parts

    def segment_blobs(self, segment: str) -> list[tuple[str, bytes, bytes, int]] | None:
        """A stored segment's lists as written (for a rewrite that keeps them), or None."""
        entries = self._segments.get(segment)
        if entries is None or self._file is None:
            return None
        out = []
        with self._lock:
            for key, (start, gaps_length, weights_length, count) in entries.items():
                self._file.seek(self._start + start)
                data = self._file.read(gaps_length + weights_length)
                out.append((key, data[:gaps_length], data[gaps_length:], count))
        return out


def _entry(value: Any) -> _Entry:
    """A directory entry as written (four counts), or ValueError for anything else."""
    if not (
        isinstance(value, list)
        and len(value) == 4
        and all(type(n) is int and n >= 0 for n in value)
    ):
        raise ValueError(f"a damaged entry: {value!r:.40}")
    return (value[0], value[1], value[2], value[3])
