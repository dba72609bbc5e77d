"""The fast paths over Whoosh's internals switch off on another Whoosh, and the stock
paths then give the same answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh import fields
from whoosh.index import create_in

import index.whoosh_ext as guard
from index.search.bitsets import posting_ids
from index.whoosh_ext import blocks, fuzzy, internals
from tests.index.whoosh_ext.bundled import bundled_answers


@pytest.fixture
def small_index(tmp_path: Path):
    from whoosh.filedb.filestore import FileStorage

    schema = fields.Schema(body=fields.TEXT(stored=False))
    ix = FileStorage(str(tmp_path)).create_index(schema)
    with ix.writer() as writer:
        for n in range(600):  # several posting blocks of 128
            writer.add_document(body="common " + ("rare" if n % 7 == 0 else "other"))
    with ix.writer() as writer:  # a second segment
        for _ in range(5):
            writer.add_document(body="common rare")
    return ix


def _answers(ix) -> tuple[list[int], list[tuple[int, float]], str | None]:
    with ix.reader() as reader:
        ids = posting_ids(reader, "body", "rare")
        scored = []
        for leaf, offset in reader.leaf_readers():
            for docs, weights in blocks.scored_blocks(leaf.postings("body", "common")):
                scored += [(d + offset, w) for d, w in zip(docs, weights)]
        leaf = reader.leaf_readers()[0][0]
        return ids, scored, internals.segment_id(leaf)


def test_the_guard_is_on_for_the_pinned_whoosh() -> None:
    import whoosh

    assert tuple(whoosh.__version__[:3]) == guard.TESTED_WHOOSH
    assert guard.fast_paths_enabled()


def test_stock_paths_give_the_same_postings(small_index, monkeypatch) -> None:
    fast_ids, fast_scored, fast_segment = _answers(small_index)
    monkeypatch.setattr(guard, "FAST_PATHS", False)
    stock_ids, stock_scored, stock_segment = _answers(small_index)
    assert sorted(stock_ids) == sorted(fast_ids)
    assert len(fast_ids) == 600 // 7 + 1 + 5
    assert stock_scored == fast_scored and len(fast_scored) == 605
    assert fast_segment is not None and stock_segment is None


def test_fuzzy_words_on_both_paths(tmp_path: Path, monkeypatch) -> None:
    schema = fields.Schema(body=fields.KEYWORD)
    ix = create_in(str(tmp_path), schema)
    with ix.writer() as writer:
        writer.add_document(body="pipeline pipelines piping scheduling")
    with ix.writer() as writer:  # a second segment: the cursor walks both
        writer.add_document(body="pipelined")
    with ix.reader() as reader:
        fast = fuzzy.words_within(reader, "body", "pipelne", 2, 1, 8)
        monkeypatch.setattr(guard, "FAST_PATHS", False)
        stock = fuzzy.words_within(reader, "body", "pipelne", 2, 1, 8)
    assert sorted(fast) == sorted(stock) == ["pipeline", "pipelined", "pipelines"]


def test_a_build_on_the_stock_paths_gives_the_same_search_results(
    tmp_path: Path, monkeypatch
) -> None:
    queries = ("pipeline", "gpu training", "quant*", "sheduling~", "t")
    fast = bundled_answers(tmp_path / "fast", queries)
    monkeypatch.setattr(guard, "FAST_PATHS", False)
    stock = bundled_answers(tmp_path / "stock", queries)
    assert stock == fast
    assert all(total > 0 for total, _ in fast[:3])


def test_postings_include_deleted_documents_at_their_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoosh's deletion filter steps past the deleted documents a posting list starts
    with (here two whole blocks of 128); a mask includes them, on both paths."""
    from whoosh.filedb.filestore import FileStorage

    schema = fields.Schema(body=fields.TEXT(stored=False), n=fields.ID(stored=True))
    ix = FileStorage(str(tmp_path)).create_index(schema)
    with ix.writer() as writer:
        for n in range(400):
            writer.add_document(body="word", n=str(n))
    with ix.writer(merge=False) as writer:
        for n in range(300):
            writer.delete_by_term("n", str(n))
    for fast in (True, False):
        monkeypatch.setattr(guard, "FAST_PATHS", fast)
        with ix.reader() as reader:
            assert reader.doc_count() == 100
            assert sorted(posting_ids(reader, "body", "word")) == list(range(400))
