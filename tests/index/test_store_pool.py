"""The batched posting pool writes exactly the index Whoosh's own pool writes."""

from __future__ import annotations

from pathlib import Path

import whoosh.writing
from whoosh import index as whoosh_index

from index.pool import BatchedPostingPool, fast_pool
from index.schema import build_schema, document
from tests.fixtures.search.generate import make_library


def build(folder: Path, fast: bool) -> list[tuple[object, ...]]:
    """Every posting of the index (field, term, doc, weight, value), built with tiny runs."""
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), build_schema())
    papers = make_library(150).papers
    if fast:
        with fast_pool():
            writer = ix.writer(limitmb=0.05)  # ~50 kB: many runs spilled and merged
        assert isinstance(writer.pool, BatchedPostingPool)
    else:
        writer = ix.writer(limitmb=0.05)
        assert type(writer.pool) is whoosh.writing.PostingPool
    for paper in papers:
        writer.add_document(**document(paper))
    assert len(writer.pool.runs) > 3
    writer.commit()
    out = []
    with ix.reader() as reader:
        for fieldname, text in reader.all_terms():
            postings = reader.postings(fieldname, text)
            while postings.is_active():
                out.append((fieldname, text, postings.id(), postings.weight(),
                            postings.value()))
                postings.next()
        out += [("stored", d, reader.stored_fields(d)) for d in range(reader.doc_count_all())]
    ix.close()
    return out


def test_batched_pool_writes_the_same_index(tmp_path: Path) -> None:
    fast = build(tmp_path / "fast", True)
    assert whoosh.writing.PostingPool is not BatchedPostingPool  # restored afterwards
    assert fast == build(tmp_path / "plain", False)
