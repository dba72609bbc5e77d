"""A quicker posting pool and posting writer for Whoosh: same postings, fewer Python calls.

Whoosh's `PostingPool` checks and sizes every posting in Python, and when it spills a
sorted run to disk (always, for a large build with a small `limitmb`) it pickles and later
unpickles every posting with its own call. This pool estimates the size the same way in
one expression and writes runs as pickled batches, so a posting costs a list append
instead of several function calls. Whoosh has no switch for its pool class (its
`poolclass` argument is ignored), so `fast_pool()` swaps it in for the duration of a
build; forked writer processes inherit it. tests/index/whoosh_ext/test_pool.py checks both
pools write identical indexes.

At commit, Whoosh's `FieldWriter.add_postings` looked up each posting's field length
through a column reader (several calls and a file read per posting) and re-checked every
posting's types: on 10,000 papers the commit took longer than adding the documents.
`fast_add_postings` reads each field's lengths once into a list and appends to the
posting block directly; it writes the same postings.

It also writes a term of a single posting without zlib. Whoosh compresses every block,
meaning to skip pickles too small to gain (its check is overwritten on the next line); one
posting pickles to 40-70 bytes, which zlib makes larger (random blocks: 40 -> 47 bytes,
68 -> 70 with positions), and most of a small library's terms have one posting. Measured
(`build_into`, median CPU): the bundled 47 papers 0.197 -> 0.179 s, 2,000 generated
papers 5.44 -> 5.30 s, segment files 0.2% smaller. Each block records whether it is
compressed, so readers take both.

A term whose postings fit one block (most terms of any library) is finished by
`_finish_one_block`: Whoosh's block write, term statistics and terms-table row in one
function and one write per file, ~25 calls fewer per term. Measured 2026-12-06, alternating
runs: the bundled 47 papers' `open_engine` ~180 -> ~170 ms of CPU; 3,000 generated papers'
`build_into` 7.99 -> 7.80 s (the best of five each).

The rest of the commit's Python steps per posting are gone too: the spilled runs are
merged a window at a time by `list.sort` (timsort merges sorted stretches in C) instead of
`heapq.merge`, the merged postings are taken a term at a time (`groupby`) and each block's
buffers and statistics set from one list per column, and a block's gaps and weights are
minified in C (`_mini_ids`, `_mini_weights`, patched into Whoosh's writer for the blocks
it writes itself). With `index.whoosh_ext.documents` (the bulky fields' postings added at
once) the figures are in benchmarks/README.md ("The first build, posting by posting").
"""

from __future__ import annotations

import pickle
import threading
import zlib
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import chain, groupby
from operator import itemgetter, sub
from typing import Any

import whoosh.writing
from whoosh.codec.base import FieldWriter, OutOfOrderError
from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    WHOOSH3_HEADER_MAGIC,
    W3FieldWriter,
    W3PostingsWriter,
    _lenfield,
)
from whoosh.filedb.filetables import _lengths
from whoosh.system import pack_int, pack_ushort
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import PostingPool, SegmentWriter

import index.whoosh_ext as guard
from index.whoosh_ext.documents import add_document

# Postings per pickled batch in a run file.
BATCH = 4096
# A term with at most this many postings is written without zlib (module docstring).
UNCOMPRESSED_POSTINGS = 1
# A posting's (field, term): the key its term's postings are grouped by.
_TERM = itemgetter(0, 1)


class BatchedPostingPool(PostingPool):
    """`PostingPool` with a leaner `add` and runs written in batches."""

    def add(self, item: tuple[Any, ...]) -> None:
        # item = (fieldname, tbytes, docnum, weight, vbytes); Whoosh's size estimate.
        self.fieldnames.add(item[0])
        self.currentsize += 150 + len(item[0]) + 2 * len(item[1]) + len(item[4] or b"")
        if self.currentsize > self.limit:
            self.save()
        self.current.append(item)

    def _write_run(self, f: Any, items: Iterable[tuple[Any, ...]]) -> None:
        if isinstance(items, list):
            for start in range(0, len(items), BATCH):
                pickle.dump(items[start : start + BATCH], f, pickle.HIGHEST_PROTOCOL)
        else:
            batch: list[tuple[Any, ...]] = []
            for item in items:
                batch.append(item)
                if len(batch) == BATCH:
                    pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
                    batch = []
            if batch:
                pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
        f.close()

    def _read_run(self, path: str) -> Iterator[tuple[Any, ...]]:
        return chain.from_iterable(self._read_batches(path))

    def _read_batches(self, path: str) -> Iterator[list[tuple[Any, ...]]]:
        f = self._open_run(path)
        try:
            while True:
                try:
                    batch = pickle.load(f)
                except EOFError:
                    return
                yield batch
        finally:
            f.close()
            self._remove_run(path)

    def _merge_runs(self, paths: list[str]) -> Iterator[tuple[Any, ...]]:
        """The runs' postings in one sorted stream, merged a window at a time by
        `_merged_windows` instead of Whoosh's `heapq.merge`, a Python step per posting."""
        return chain.from_iterable(_merged_windows([self._read_batches(p) for p in paths]))


def _merged_windows(runs: list[Iterator[list[tuple[Any, ...]]]]) -> Iterator[list[tuple[Any, ...]]]:
    """Sorted runs (each a stream of sorted batches) merged into sorted windows.

    Each window holds every posting up to the smallest last posting of the runs' current
    batches: nothing after it in any run can sort before it. The window's pieces, each
    sorted, are put in order by one `list.sort` (timsort merges sorted stretches in C).
    Postings are unique (a run holds each document once per term, and runs hold
    different documents), so the order is exactly the heap merge's.
    """
    heads = [[batch, run] for run in runs if (batch := next(run, None))]
    while heads:
        if len(heads) == 1:
            batch, run = heads[0]
            yield batch
            yield from run
            return
        bound = min(head[0][-1] for head in heads)
        window: list[tuple[Any, ...]] = []
        for head in heads:
            batch = head[0]
            cut = bisect_right(batch, bound)
            window += batch[:cut]
            head[0] = batch[cut:] if cut < len(batch) else next(head[1], None)
        heads = [head for head in heads if head[0]]
        window.sort()
        yield window


def _lengths_of(lengths: Any, fieldname: str) -> list[int | None] | None:
    """Every document's length in this field, as `doc_field_length` would return it."""
    lenfield = _lenfield(fieldname)
    if not lengths.has_column(lenfield):
        return None
    column = lengths.column_reader(lenfield, LENGTHS_COLUMN)
    table: list[int | None] = [byte_to_length(b) if b else None for b in column.load()]
    return table + [None] * (lengths.doc_count_all() + 1 - len(table))


def fast_add_postings(
    self: W3FieldWriter, schema: Any, lengths: Any, items: Iterable[tuple[Any, ...]]
) -> None:
    """`FieldWriter.add_postings` for Whoosh 3 segments, with the same checks and output.

    The sorted postings are taken a term at a time (`groupby`, in C) and each block's
    buffers and statistics are set from lists built in one pass each, instead of a
    dozen Python steps per posting in `W3PostingsWriter.add_posting`.
    """
    if lengths is None or not hasattr(lengths, "column_reader"):
        FieldWriter.add_postings(self, schema, lengths, items)
        return
    lastfn: str | None = None
    lasttext: bytes | None = None
    table: list[int | None] | None = None
    post: Any = None  # Whoosh internals (W3PostingsWriter), untyped; set with the first field
    for (fieldname, btext), group in groupby(items, _TERM):
        if lastfn is not None and fieldname < lastfn:
            raise OutOfOrderError(f"Field {lastfn!r} .. {fieldname!r}")
        if fieldname == lastfn and lasttext and btext < lasttext:
            raise OutOfOrderError(f"Term {lastfn}:{lasttext!r} .. {fieldname}:{btext!r}")
        if fieldname != lastfn:
            if lastfn is not None:
                self.finish_field()
            self.start_field(fieldname, schema[fieldname])
            post = self._postwriter
            table = _lengths_of(lengths, fieldname)
            lastfn, lasttext = fieldname, None
        postings = list(group)
        if postings[0][2] == -1:  # Whoosh's spelling-word markers (sorted first): no posting
            postings = [posting for posting in postings if posting[2] != -1]
            if not postings:
                continue
        self.start_term(btext)
        lasttext = btext
        limit = post._blocklimit
        for start in range(0, len(postings), limit):
            if start:  # add_posting writes a full block when the next posting comes
                post._write_block()
            _fill_block(post, postings[start : start + limit], table)
        _finish_term(self, post)
    if lastfn is not None:
        self.finish_field()


def _fill_block(post: Any, postings: list[tuple[Any, ...]], table: list[int | None] | None) -> None:
    """A posting block's buffers and statistics as `W3PostingsWriter.add_posting` leaves
    them after adding `postings` (at most a block of them) to a fresh block."""
    ids = [posting[2] for posting in postings]
    weights = [posting[3] for posting in postings]
    post._ids = array("I", ids)
    post._weights = array("f", weights)
    post._maxweight = max(0, *weights)  # the first largest, as add_posting keeps it
    post._values = [posting[4] for posting in postings if posting[4]]
    found = [length for length in map(table.__getitem__, ids) if length] if table else None
    post._minlength = min(found) if found else None
    post._maxlength = max(found) if found else 0


def _mini_ids(self: W3PostingsWriter) -> tuple[Any, ...]:
    """`W3PostingsWriter._mini_ids` (the gaps between a block's ids), computed in C."""
    ids = self._ids
    if self._byteids:
        return tuple(ids)
    return tuple(map(sub, ids, chain((0,), ids)))


def _mini_weights(self: W3PostingsWriter) -> Any:
    """`W3PostingsWriter._mini_weights`, its two `all(...)` loops counted in C."""
    weights = self._weights
    if weights.count(1.0) == len(weights):
        return None
    if weights.count(weights[0]) == len(weights):
        return weights[0]
    return tuple(weights)


def _length_byte(length: int | None) -> int:
    """`length_to_byte`, from a table for the lengths most fields have."""
    if length is not None and 0 <= length < len(_LENGTH_BYTES):
        return _LENGTH_BYTES[length]
    return int(length_to_byte(length))


_LENGTH_BYTES = tuple(length_to_byte(length) for length in range(4096))


def _finish_term(self: W3FieldWriter, post: Any) -> None:
    """`finish_term`: a term whose postings all fit its first block (most terms) is
    written by `_finish_one_block`, a posting list of `UNCOMPRESSED_POSTINGS` or fewer
    without zlib; a longer one takes Whoosh's own path."""
    if post._blockcount or len(post._ids) < post._inlinelimit:
        self.finish_term()
        return
    level = 0 if len(post._ids) <= UNCOMPRESSED_POSTINGS else post._compression
    _finish_one_block(self, post, level)


def _finish_one_block(self: W3FieldWriter, post: Any, level: int) -> None:
    """What `W3FieldWriter.finish_term` does for a term of one block, in one function:
    the block (`W3PostingsWriter._write_block(last=True)`), its statistics on the term's
    fresh `W3TermInfo` (`add_block`, `set_extent`) and the term's row in the terms table
    (`to_bytes`, `OrderedHashWriter.add`), each file written once. The same bytes:
    tests/index/whoosh_ext/test_pool.py compares the indexes posting by posting."""
    ids = post._ids
    count = len(ids)
    terminfo = post._terminfo
    terminfo._weight += sum(post._weights)
    terminfo._df += count
    terminfo._minlength = post._minlength
    terminfo._maxlength = post._maxlength
    terminfo._maxweight = post._maxweight
    terminfo._minid = ids[0]
    terminfo._maxid = ids[-1]
    data = pickle.dumps((_mini_ids(post), _mini_weights(post), post._mini_values()), 2)
    if level:
        data = zlib.compress(data, level)
    info = pickle.dumps(
        (
            count,
            ids[-1],
            post._maxweight,
            level,
            _length_byte(post._minlength),
            _length_byte(post._maxlength),
        ),
        2,
    )
    postfile = post._postfile
    start = post._startoffset
    postfile.write(b"".join((WHOOSH3_HEADER_MAGIC, pack_int(-(len(info) + len(data))), info, data)))
    post._blockcount += 1
    post._new_block()
    terminfo.set_extent(start, postfile.tell() - start)
    post._terminfo = None

    key = pack_ushort(self._fieldid) + self._btext
    value = terminfo.to_bytes()
    table = self._tindex
    if key <= table.lastkey:
        raise ValueError(f"Keys must increase: {table.lastkey!r}..{key!r}")
    dbfile = table.dbfile
    position = dbfile.tell()
    table.index.append(position)
    dbfile.write(b"".join((_lengths.pack(len(key), len(value)), key, value)))
    hashed = table.hashfn(key)
    table.buckets[hashed & 255].append((hashed, position))
    table.lastkey = key


_patching = threading.Lock()
_users = 0  # writers inside `fast_pool` now, in any thread


@contextmanager
def fast_pool() -> Iterator[None]:
    """Makes Whoosh writers created inside (and processes forked inside) use the pool
    and the posting writer above; on the stock paths (another Whoosh) it changes nothing.

    Two threads may build at once (a preview beside a build, index.store.preview): the
    first one in patches Whoosh, the last one out restores it.
    """
    global _users
    if not guard.fast_paths_enabled():
        yield
        return
    with _patching:
        if _users == 0:
            _patch()
        _users += 1
    try:
        yield
    finally:
        with _patching:
            _users -= 1
            if _users == 0:
                _unpatch()


_stock: dict[str, Any] = {}


def _patch() -> None:
    _stock["pool"] = whoosh.writing.PostingPool
    _stock["add"] = W3FieldWriter.__dict__.get("add_postings")
    _stock["ids"] = W3PostingsWriter._mini_ids
    _stock["weights"] = W3PostingsWriter._mini_weights
    _stock["document"] = SegmentWriter.add_document
    SegmentWriter.add_document = add_document
    whoosh.writing.PostingPool = BatchedPostingPool
    W3FieldWriter.add_postings = fast_add_postings
    W3PostingsWriter._mini_ids = _mini_ids
    W3PostingsWriter._mini_weights = _mini_weights


def _unpatch() -> None:
    whoosh.writing.PostingPool = _stock["pool"]
    W3PostingsWriter._mini_ids = _stock["ids"]
    W3PostingsWriter._mini_weights = _stock["weights"]
    SegmentWriter.add_document = _stock["document"]
    if _stock["add"] is None:
        del W3FieldWriter.add_postings
    else:  # pragma: no cover - Whoosh versions that define their own
        W3FieldWriter.add_postings = _stock["add"]
