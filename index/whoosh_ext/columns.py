"""Whole columns and deletion sets read at once, instead of a Whoosh call per document.

Whoosh's column reader hands out one value per call, each a seek and a read in the segment's
compound file: at 1,000,000 papers the six columns the facet masks need (ids, venues,
titles, and the authors', keywords' and categories' lists) took 23 s of a 48 s in-place
update, ~3.7 us per value. A `VarBytesColumn` stores its values back to back, followed by
their lengths, so one read of the whole data region and slicing it gives the same values
in a tenth of the time. Any other column type, and every column on the stock path
(index.whoosh_ext's guard), is read through Whoosh's public reader, with the same result.

`deleted_docnums` likewise takes a segment's deletion set instead of asking `is_deleted`
for each of a million documents, and `field_lengths` a field's stored document lengths
instead of asking `doc_field_length` for each.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from whoosh import columns, fields
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
from whoosh.reading import IndexReader
from whoosh.util.numeric import byte_to_length

import index.whoosh_ext as guard

__all__ = ["LENGTH_OF_BYTE", "column_values", "deleted_docnums", "field_lengths"]


def column_values(reader: IndexReader, fieldname: str) -> list[Any]:
    """Every document's value in the column `fieldname`, deleted documents included, as
    `list(reader.column_reader(fieldname))` gives them; a segment without the column
    gives the column's default for each of its documents."""
    field = reader.schema[fieldname]
    values: list[Any] = []
    for leaf, _offset in reader.leaf_readers():
        if leaf.doc_count_all():
            values.extend(_leaf_values(leaf, field, fieldname))
    return values


def deleted_docnums(reader: IndexReader) -> list[int]:
    """The deleted document numbers of the whole index, ascending."""
    found: list[int] = []
    for leaf, offset in reader.leaf_readers():
        if not leaf.has_deletions():
            continue
        deleted = getattr(leaf, "deleted_docs_set", None) if guard.fast_paths_enabled() else None
        if not isinstance(deleted, frozenset):
            deleted = (d for d in range(leaf.doc_count_all()) if leaf.is_deleted(d))
        found.extend(sorted(d + offset for d in deleted))
    return found


def _leaf_values(leaf: IndexReader, field: fields.FieldType, fieldname: str) -> list[Any]:
    raw = leaf.column_reader(fieldname, translate=False)
    data = _var_bytes(raw) if guard.fast_paths_enabled() else None
    translate = field.from_column_value
    if data is None:
        return [translate(value) for value in raw]
    if _decodes_utf8(field):
        return [str(value, "utf-8") for value in data]
    if _returns_bytes(field):
        return data
    return [translate(value) for value in data]


def _var_bytes(raw: Any) -> list[bytes] | None:
    """A `VarBytesColumn` reader's values sliced from one read, or None for another reader."""
    if type(raw) is not columns.VarBytesColumn.Reader or not all(
        hasattr(raw, name) for name in ("_dbfile", "_basepos", "_lengths")
    ):
        return None
    lengths = raw._lengths
    ends = list(accumulate(lengths))
    if not ends:
        return []
    data = bytes(raw._dbfile.get(raw._basepos, ends[-1]))
    return [data[end - length : end] for end, length in zip(ends, lengths)]


def _decodes_utf8(field: fields.FieldType) -> bool:
    """The field's column values are UTF-8 text, decoded as `FieldType` does (ID, TEXT)."""
    kind = type(field)
    return (
        kind.from_column_value is fields.FieldType.from_column_value
        and kind.from_bytes is fields.FieldType.from_bytes
    )


def _returns_bytes(field: fields.FieldType) -> bool:
    """The field's column values are its bytes as stored (COLUMN)."""
    kind = type(field)
    return (
        kind.from_column_value is fields.FieldType.from_column_value
        and kind.from_bytes is fields.COLUMN.from_bytes
    )


def field_lengths(leaf: IndexReader, fieldname: str) -> bytes | None:
    """Each document's length in `fieldname` as Whoosh stores it (one byte, decoded by
    `LENGTH_OF_BYTE`), read at once; None on the stock path or another column layout.

    `leaf.doc_field_length` reads the same byte with a seek per call, ~6 us: scoring every
    posting of a common word at 1,000,000 papers took seconds of it. Documents past the
    column's end have no length stored (byte 0), as Whoosh's reader treats them.
    """
    read = getattr(getattr(leaf, "_perdoc", None), "_cached_reader", None)
    if read is None or not guard.fast_paths_enabled():
        return None
    raw = read(_lenfield(fieldname), LENGTHS_COLUMN)
    size = leaf.doc_count_all()
    if raw is None:
        return bytes(size)
    if type(raw) is not columns.NumericColumn.Reader or getattr(raw, "_fixedlen", None) != 1:
        return None
    data = bytes(raw._dbfile.get(raw._basepos, raw._count))
    return data + bytes(max(0, size - len(data)))


# A stored length byte -> the length `doc_field_length` gives. Byte 0 is a document without
# any of the field's words (Whoosh's reader gives None, or the caller's default where the
# segment has no such column): no posting of the field has it, and the scorer's default
# of 1 stands in.
LENGTH_OF_BYTE: tuple[int, ...] = (1, *(byte_to_length(byte) for byte in range(1, 256)))
