"""Writing a `TermPool`'s terms (index.whoosh_ext.term_pool): each term's blocks cut
from its arrays, with Whoosh 3's statistics, in one write per term and file.

What `W3FieldWriter.start_term`, `add_posting` per posting and `finish_term` write,
byte for byte, as `index.whoosh_ext.pool` writes them (a term of one posting without
zlib); another codec's posting writer is given the postings one by one.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain
from operator import sub
from pickle import dumps
from typing import Any

from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3PostingsWriter, W3TermInfo
from whoosh.system import pack_int, pack_long, pack_uint
from whoosh.util.numeric import length_to_byte

from index.whoosh_ext.pool import UNCOMPRESSED_POSTINGS, add_term_row, finish_term, lengths_of

Entry = list[Any]  # [document numbers array("I"), weights array("d"), values]
# `length_to_byte` through C's cache: four calls a term.
_length_byte = lru_cache(maxsize=4096)(length_to_byte)
_TERMINFO = W3TermInfo._struct
# A term's postings: its field, its bytes, its entry, and its field's boost when the
# entry holds counts instead of weights and values (`TermPool.add_counts`).
Term = tuple[str, bytes, Entry, "float | None"]


def expand(entry: Entry, boost: float) -> Entry:
    """A counted term's entry as a fixed-size field keeps it: each posting's weight
    (`count * boost`, the same double) and its value (`pack_uint(count)`, big-endian)."""
    ids, counts, _ = entry
    values = array("I", counts)
    if sys.byteorder == "little":
        values.byteswap()
    return [ids, array("d", map(boost.__mul__, counts)), bytearray(values.tobytes())]


def tuples(
    fieldname: str, tbytes: bytes, entry: Entry, boost: float | None = None
) -> Iterator[tuple[Any, ...]]:
    """A term's postings as Whoosh's pool tuples."""
    if boost is not None:
        entry = expand(entry, boost)
    ids, weights, values = entry
    if values is None:
        for docnum, weight in zip(ids, weights):
            yield fieldname, tbytes, docnum, weight, b""
    elif isinstance(values, list):
        for docnum, weight, value in zip(ids, weights, values):
            yield fieldname, tbytes, docnum, weight, value
    else:
        size = len(values) // len(ids) if ids else 0
        for i, (docnum, weight) in enumerate(zip(ids, weights)):
            yield fieldname, tbytes, docnum, weight, bytes(values[i * size : (i + 1) * size])


def write_terms(
    fw: Any,
    schema: Any,
    lengths: Any,
    terms: Iterable[Term],
    named: Iterable[str] = (),
) -> None:
    """Writes sorted terms as `fast_add_postings` writes the same postings: a field is
    started when its first term comes, or when a spelling marker named it (`named`)."""
    marked = sorted(named)
    current: str | None = None
    post: Any = None
    table: Any = None
    size: Any = None
    quick = False
    end: list[tuple[Any, bytes, Entry, None]] = [(None, b"", [], None)]
    for fieldname, tbytes, entry, boost in chain(terms, end):
        if fieldname != current:
            if current is not None:
                fw.finish_field()
            while marked and (fieldname is None or marked[0] < fieldname):
                fw.start_field(marked[0], schema[marked[0]])
                fw.finish_field()
                del marked[0]
            if fieldname is None:
                break
            if marked and marked[0] == fieldname:
                del marked[0]
            fw.start_field(fieldname, schema[fieldname])
            post = fw._postwriter
            table = lengths_of(lengths, fieldname)
            size = fw._format.fixed_value_size()
            quick = type(post) is W3PostingsWriter and not post._byteids and post._inlinelimit <= 1
            current = fieldname
        if quick:
            if len(entry[0]) == 1:
                _write_single(fw, post, tbytes, entry, table, size, boost)
            else:
                _write_term(fw, post, tbytes, entry, table, size, boost)
        else:
            _write_term_stock(fw, tbytes, entry if boost is None else expand(entry, boost), table)


def _block_values(values: Any, start: int, end: int, size: int | None) -> Any:
    """`W3PostingsWriter._mini_values` of the postings start..end."""
    if size == 0:
        return None
    if isinstance(values, list):
        kept = [v for v in values[start:end] if v]
        return tuple(kept) if size is None or size < 0 else b"".join(kept)
    if values is None:
        return () if size is None or size < 0 else b""
    if size is None or size < 0:  # pragma: no cover - a listed field keeps a list
        raise ValueError("fixed-size values in a field of variable-size values")
    return bytes(values[start * size : end * size])


def _write_term(
    fw: Any, post: Any, tbytes: bytes, entry: Entry, table: Any, size: Any, boost: float | None
) -> None:
    """`start_term`, `add_posting` for each posting, `finish_term`: the same bytes, each
    block cut from the term's arrays (see `W3PostingsWriter._write_block`). `boost`: the
    entry is a counted term's (document numbers and counts, `TermPool.add_counts`)."""
    ids, weights, values = entry if boost is None else expand(entry, boost)
    count = len(ids)
    if size and size > 0 and not isinstance(values, list) and len(values) != size * count:
        raise ValueError(f"posting values of irregular size in field {fw._fieldname!r}")
    limit = post._blocklimit
    level = 0 if count <= UNCOMPRESSED_POSTINGS else post._compression
    postfile = post._postfile
    start = postfile.tell()
    total_weight: float = 0
    term_max_weight: float = 0
    term_min_length: int | None = None
    term_max_length = 0
    out = [WHOOSH3_HEADER_MAGIC]
    for first in range(0, count, limit):
        last = min(first + limit, count)
        if count > limit:
            block_ids: Any = ids[first:last]
            block_doubles: Any = weights[first:last]
        else:
            block_ids, block_doubles = ids, weights
        block_weights = array("f", block_doubles)
        total_weight += sum(block_weights)
        n = last - first
        max_weight: float = max(block_doubles)
        if not max_weight > 0:
            max_weight = 0
        if max_weight > term_max_weight:
            term_max_weight = max_weight
        if table is None:
            min_length, max_length = None, 0
        elif n == 1:
            min_length = table[block_ids[0]] or None
            max_length = min_length or 0
        else:
            found = list(filter(None, map(table.__getitem__, block_ids)))
            min_length, max_length = (min(found), max(found)) if found else (None, 0)
        if min_length is not None:
            term_min_length = (
                min_length if term_min_length is None else min(term_min_length, min_length)
            )
        if max_length > term_max_length:
            term_max_length = max_length
        first_weight = block_weights[0]
        if n == 1:
            mini_weights: Any = None if first_weight == 1.0 else first_weight
            gaps: Any = (block_ids[0],)
        else:
            if block_weights.count(1.0) == n:
                mini_weights = None
            elif block_weights.count(first_weight) == n:
                mini_weights = first_weight
            else:
                mini_weights = tuple(block_weights)
            gaps = tuple(map(sub, block_ids, chain((0,), block_ids)))
        data = dumps((gaps, mini_weights, _block_values(values, first, last, size)), 2)
        if level:
            data = zlib.compress(data, level)
        info = dumps(
            (
                n,
                block_ids[-1],
                max_weight,
                level,
                _length_byte(min_length),
                _length_byte(max_length),
            ),
            2,
        )
        length = len(info) + len(data)
        out += (pack_int(-length if last == count else length), info, data)
    body = b"".join(out)
    postfile.write(body)
    value = (
        _TERMINFO.pack(
            0,
            total_weight,
            count,
            0 if term_min_length is None else _length_byte(term_min_length),
            _length_byte(term_max_length),
            term_max_weight,
            ids[0],
            ids[-1],
        )
        + pack_long(start)
        + pack_int(len(body))
    )
    add_term_row(fw, tbytes, value)


def _write_single(
    fw: Any, post: Any, tbytes: bytes, entry: Entry, table: Any, size: Any, boost: float | None
) -> None:
    """`_write_term` of a term of one posting (a third of a library's terms), its
    block's and row's fields computed as `_write_term` computes them for one posting."""
    ids, weights, values = entry
    docnum = ids[0]
    if boost is not None:
        count = weights[0]
        weight = boost * count
        value: Any = None if size == 0 else pack_uint(count)
    else:
        weight = weights[0]
        value = _block_values(values, 0, 1, size)
    block_weights = array("f", (weight,))
    first_weight = block_weights[0]
    max_weight: float = weight if weight > 0 else 0
    length = table[docnum] if table is not None else None
    min_byte = _length_byte(length or None)
    max_byte = _length_byte(length or 0)
    level = 0 if UNCOMPRESSED_POSTINGS >= 1 else post._compression
    data = dumps(((docnum,), None if first_weight == 1.0 else first_weight, value), 2)
    if level:
        data = zlib.compress(data, level)
    info = dumps((1, docnum, max_weight, level, min_byte, max_byte), 2)
    postfile = post._postfile
    start = postfile.tell()
    body = b"".join((WHOOSH3_HEADER_MAGIC, pack_int(-(len(info) + len(data))), info, data))
    postfile.write(body)
    row = _TERMINFO.pack(0, sum(block_weights), 1, min_byte, max_byte, max_weight, docnum, docnum)
    add_term_row(fw, tbytes, row + pack_long(start) + pack_int(len(body)))


def _write_term_stock(fw: Any, tbytes: bytes, entry: Entry, table: Any) -> None:
    """A term through Whoosh's own posting writer (another codec's, or inlined terms)."""
    fw.start_term(tbytes)
    for _, _, docnum, weight, value in tuples(fw._fieldname, tbytes, entry):
        fw.add(docnum, weight, value, table[docnum] if table is not None else None)
    finish_term(fw, fw._postwriter)
