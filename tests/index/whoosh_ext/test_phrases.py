"""`phrase_ids` finds exactly the documents Whoosh's own phrase matcher finds.

The engine checks a finished phrase's positions through `index.whoosh_ext.blocks`
instead of Whoosh's span machinery; any difference would change results, so every
phrase here is compared with `Searcher.docs_for_query(Phrase(...))`, over several posting
blocks and segments, with deletions, repeated words, slop and words that are missing.
"""

from __future__ import annotations

import random

import pytest
from whoosh import fields
from whoosh import query as wq
from whoosh.filedb.filestore import FileStorage

import index.whoosh_ext as guard
from index.search.bitsets import mask_of, member_test
from index.whoosh_ext.blocks import phrase_ids

WORDS = ["a", "b", "c", "d", "mixture", "of", "experts", "tensor", "compiler", "x"]
PHRASES = [
    ["mixture", "of", "experts"],
    ["tensor", "compiler"],
    ["a", "a"],
    ["a", "b", "a"],
    ["experts", "mixture"],
    ["x", "missing"],
    ["compiler", "compiler", "compiler"],
    ["of", "of"],
    ["d", "c", "b", "a"],
]


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory):
    rng = random.Random(7)
    schema = fields.Schema(body=fields.TEXT(stored=False, phrase=True))
    ix = FileStorage(str(tmp_path_factory.mktemp("phrases"))).create_index(schema)
    for segment in range(3):  # three segments, the first of several posting blocks
        with ix.writer() as writer:
            for _ in range(700 if segment == 0 else 40):
                length = rng.randint(1, 30)
                writer.add_document(body=" ".join(rng.choice(WORDS) for _ in range(length)))
    with ix.writer() as writer:
        writer.delete_document(3)
        writer.delete_document(705)
    return ix


@pytest.mark.parametrize("slop", [1, 2, 4])
@pytest.mark.parametrize("words", PHRASES, ids=" ".join)
def test_same_documents_as_whoosh(ix, words: list[str], slop: int) -> None:
    with ix.searcher() as searcher:
        reader = searcher.reader()
        size = reader.doc_count_all()
        live = mask_of([d for d in range(size) if not reader.is_deleted(d)], size)
        candidates = live
        for word in set(words):
            candidates &= mask_of(searcher.docs_for_query(wq.Term("body", word)), size)
        expected = mask_of(searcher.docs_for_query(wq.Phrase("body", words, slop=slop)), size)
        found = phrase_ids(
            reader, "body", [w.encode() for w in words], slop, member_test(candidates, size)
        )
        assert found is not None
        assert found == sorted(found)
        assert mask_of(found, size) == expected & candidates == expected


def test_stock_whoosh_gets_none_and_the_caller_asks_whoosh(
    ix, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "FAST_PATHS", False)
    with ix.searcher() as searcher:
        assert phrase_ids(searcher.reader(), "body", [b"a", b"b"], 1, b"\xff" * 200) is None


def test_positions_decode_as_whooshs_format_decodes_them() -> None:
    from whoosh import formats

    from index.whoosh_ext.blocks import _positions_decoder

    rng = random.Random(11)
    fmt = formats.Positions()
    decode = _positions_decoder(fmt)
    assert decode is not fmt.decoder("positions")  # the fast decoder, not Whoosh's
    for _ in range(500):
        positions = sorted(rng.sample(range(5000), rng.randint(1, 40)))
        value = fmt.encode(positions)
        for stored in (value, value[:-1]):  # the codec may strip the pickle's stop opcode
            assert decode(stored) == fmt.decode_positions(stored) == positions

    class Other(formats.Positions):  # a format of its own keeps its own decoder
        pass

    assert _positions_decoder(Other()).__func__ is Other.decode_positions  # type: ignore[attr-defined]
