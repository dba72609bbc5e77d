"""Whole columns read at once give exactly Whoosh's own values, on both paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh import columns, fields
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index

import index.whoosh_ext as guard
from index.whoosh_ext.columns import (
    LENGTH_OF_BYTE,
    column_values,
    deleted_docnums,
    field_lengths,
)

COLUMNS = ("name", "raw", "number", "tagged")


@pytest.fixture
def three_segments(tmp_path: Path) -> Index:
    """An index of three segments, one without any `tagged` value, with deletions."""
    schema = fields.Schema(
        name=fields.ID(sortable=True),
        raw=fields.COLUMN(columns.VarBytesColumn()),
        number=fields.NUMERIC(int, sortable=True),
        tagged=fields.ID(sortable=True),
    )
    ix = FileStorage(str(tmp_path)).create_index(schema)
    with ix.writer() as writer:
        for n in range(300):
            writer.add_document(
                name=f"paper é{n}" if n % 5 else "",
                raw=bytes([n % 256, 31]) * (n % 4),
                number=n,
                tagged="t" if n % 2 else None,
            )
    with ix.writer() as writer:  # a segment without any `tagged` value
        for n in range(7):
            writer.add_document(name=f"second {n}", raw=b"\x1f", number=-n)
    with ix.writer(merge=False) as writer:
        writer.add_document(name="third", raw=b"", number=1, tagged="x")
        writer.delete_by_term("name", "paper é7")
        writer.delete_by_term("name", "second 3")
    return ix


def _stock(ix: Index) -> tuple[dict[str, list[object]], list[int]]:
    with ix.reader() as reader:
        values = {}
        for name in COLUMNS:
            found: list[object] = []
            for leaf, _ in reader.leaf_readers():
                found += list(leaf.column_reader(name))
            values[name] = found
        deleted = [d for d in range(reader.doc_count_all()) if reader.is_deleted(d)]
    return values, deleted


def _read(ix: Index) -> tuple[dict[str, list[object]], list[int]]:
    with ix.reader() as reader:
        return {name: column_values(reader, name) for name in COLUMNS}, deleted_docnums(reader)


def test_columns_and_deletions_match_whooshs_reader(three_segments, monkeypatch) -> None:
    assert len(three_segments.reader().leaf_readers()) == 3
    expected = _stock(three_segments)
    fast = _read(three_segments)
    assert fast == expected
    values, deleted = fast
    assert all(len(column) == 308 for column in values.values())
    assert values["name"][1] == "paper é1" and values["name"][0] == ""
    assert values["raw"][3] == bytes([3, 31]) * 3
    assert values["tagged"][300:307] == [""] * 7  # the segment without the column
    assert deleted == [7, 303]
    monkeypatch.setattr(guard, "FAST_PATHS", False)
    assert _read(three_segments) == expected


def test_the_fast_path_reads_a_var_bytes_column_without_its_value_reader(
    three_segments, monkeypatch
) -> None:
    expected = _stock(three_segments)[0]

    def one_by_one(self: object) -> None:
        raise AssertionError("read value by value")

    monkeypatch.setattr(columns.VarBytesColumn.Reader, "__iter__", one_by_one)
    with three_segments.reader() as reader:
        assert column_values(reader, "name") == expected["name"]
        assert column_values(reader, "raw") == expected["raw"]


def test_field_lengths_are_the_lengths_whooshs_reader_gives(tmp_path: Path, monkeypatch) -> None:
    schema = fields.Schema(name=fields.ID(stored=True), text=fields.TEXT, other=fields.TEXT)
    ix = FileStorage(str(tmp_path)).create_index(schema)
    with ix.writer() as writer:
        for n in range(200):  # lengths 0 to 199 words: Whoosh's byte rounds the long ones
            writer.add_document(name=f"a{n}", text=" ".join(["word"] * n) or None)
    with ix.writer(merge=False) as writer:  # a segment whose field holds nothing at all
        writer.add_document(name="b", other="x y")
    with ix.reader() as reader:
        leaves = reader.leaf_readers()
        assert len(leaves) == 2
        for leaf, _ in leaves:
            stored = field_lengths(leaf, "text")
            assert stored is not None and len(stored) == leaf.doc_count_all()
            # A document without the field's words has byte 0: Whoosh's reader gives None
            # for it (no posting of the field has it, so no score asks), or the default
            # where the segment has no such column.
            for docnum, byte in enumerate(stored):
                length = leaf.doc_field_length(docnum, "text", 1)
                assert LENGTH_OF_BYTE[byte] == length if byte else length in (None, 1)
        first = field_lengths(leaves[0][0], "text")
        assert first is not None and len({LENGTH_OF_BYTE[byte] for byte in first}) > 50
        monkeypatch.setattr(guard, "FAST_PATHS", False)
        assert field_lengths(leaves[0][0], "text") is None  # the caller asks Whoosh instead
