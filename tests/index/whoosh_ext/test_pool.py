"""The batched posting pool and lean posting writer write exactly Whoosh's own index."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
import whoosh.writing
from whoosh import index as whoosh_index
from whoosh.codec.whoosh3 import W3Codec, W3FieldWriter
from whoosh.fields import Schema

from index.schema.fields import build_schema, document
from index.whoosh_ext.patching import fast_pool
from index.whoosh_ext.pool import BatchedPostingPool, fast_add_postings
from tests.fixtures.search.generate import make_library


def build(
    folder: Path, fast: bool, blocklimit: int = 128, schema: Schema | None = None
) -> list[tuple[object, ...]]:
    """Every posting (field, term, doc, weight, value), term statistic, field length,
    column value and stored value of the index, built with tiny runs; a small
    `blocklimit` makes many terms span several posting blocks."""
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), schema or build_schema())
    papers = make_library(150).papers
    with fast_pool() if fast else nullcontext():  # the commit writes the postings
        # ~50 kB: many runs spilled and merged.
        writer = ix.writer(limitmb=0.05, codec=W3Codec(blocklimit=blocklimit))
        if fast:
            assert isinstance(writer.pool, BatchedPostingPool)
            assert W3FieldWriter.add_postings is fast_add_postings
        else:
            assert type(writer.pool) is whoosh.writing.PostingPool
        for paper in papers:
            writer.add_document(**document(paper))
        assert len(writer.pool.runs) + len(getattr(writer.pool, "grouped_runs", ())) > 3
        writer.commit()
    out: list[tuple[object, ...]] = []
    with ix.reader() as reader:
        for fieldname, text in reader.all_terms():
            info = reader.term_info(fieldname, text)
            # The length and weight statistics block-max scoring skips by.
            out.append(
                (
                    fieldname,
                    text,
                    info.weight(),
                    info.doc_frequency(),
                    info.min_length(),
                    info.max_length(),
                    info.max_weight(),
                )
            )
            postings = reader.postings(fieldname, text)
            while postings.is_active():
                out.append(
                    (
                        fieldname,
                        text,
                        postings.id(),
                        postings.weight(),
                        postings.value(),
                        postings.block_min_length(),
                        postings.block_max_length(),
                        postings.block_max_weight(),
                    )
                )
                postings.next()
        out += [("stored", d, reader.stored_fields(d)) for d in range(reader.doc_count_all())]
        schema = reader.schema
        for name in schema.names():
            field = schema[name]
            if field.scorable:
                out += [
                    ("length", name, d, reader.doc_field_length(d, name))
                    for d in range(reader.doc_count_all())
                ]
            if field.column_type:
                column = reader.column_reader(name)
                out += [("column", name, d, column[d]) for d in range(reader.doc_count_all())]
    ix.close()
    return out


@pytest.mark.parametrize("blocklimit", [128, 3])
def test_batched_pool_writes_the_same_index(tmp_path: Path, blocklimit: int) -> None:
    fast = build(tmp_path / "fast", True, blocklimit)
    # Restored afterwards.
    assert whoosh.writing.PostingPool is not BatchedPostingPool
    assert W3FieldWriter.add_postings is not fast_add_postings
    assert fast == build(tmp_path / "plain", False, blocklimit)


def _first_block_compression(reader: Any, fieldname: str, text: bytes) -> int:
    """The zlib level the first posting block of a term was written with (0: none)."""
    matcher = reader.postings(fieldname, text)
    while not hasattr(matcher, "_compression"):  # under the deletion filter
        matcher = matcher.child
    return int(matcher._compression)


def test_a_single_posting_is_written_without_zlib_and_longer_lists_with_it(
    tmp_path: Path,
) -> None:
    ix = whoosh_index.create_in(str(tmp_path), build_schema())
    with fast_pool():
        writer = ix.writer()
        for paper in make_library(40).papers:
            writer.add_document(**document(paper))
        writer.commit()
    levels: dict[bool, set[int]] = {True: set(), False: set()}
    with ix.reader() as reader:
        for fieldname, text in reader.all_terms():
            single = reader.doc_frequency(fieldname, text) == 1
            levels[single].add(_first_block_compression(reader, fieldname, text))
    ix.close()
    assert levels[True] == {0}
    assert levels[False] == {3}  # Whoosh's own level
