"""Reading Whoosh 3 posting blocks whole leaves a matcher as Whoosh's own reading does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from whoosh import fields
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.filedb.filestore import FileStorage

import index.whoosh_ext as guard
from index.whoosh_ext import blocks

_STATE = (
    "_blocklength",
    "_maxid",
    "_maxweight",
    "_compression",
    "_minlength",
    "_maxlength",
    "_dataoffset",
    "_nextoffset",
    "_lastblock",
    "_atend",
)


@pytest.fixture
def reader(tmp_path: Path) -> Any:
    """One segment where `word` spans four blocks of up to 128 postings, with varied
    frequencies and lengths (so weights and length bytes differ from block to block)."""
    schema = fields.Schema(body=fields.TEXT(phrase=True))
    ix = FileStorage(str(tmp_path)).create_index(schema)
    with ix.writer() as writer:
        for n in range(450):
            writer.add_document(body=" ".join(["word"] * (1 + n % 3) + ["pad"] * (n % 11)))
    with ix.reader() as opened:
        yield opened


def _walk(matcher: Any, advance: Any, read_ids: Any) -> list[tuple[Any, ...]]:
    """Each block's state, ids, weights and values, stepping with `advance`."""
    seen = []
    while not matcher._atend:
        read_ids(matcher)
        matcher._read_weights()
        matcher._read_values()
        state = tuple(getattr(matcher, name) for name in _STATE)
        seen.append((state, tuple(matcher._ids), tuple(matcher._weights), tuple(matcher._values)))
        advance(matcher)
    return seen


def test_blocks_read_whole_equal_whooshs_reading(reader: Any) -> None:
    ours = _walk(reader.postings("body", "word"), blocks._next_block, blocks._read_ids)
    whooshs = _walk(
        reader.postings("body", "word"), lambda m: m._next_block(), lambda m: m._read_ids()
    )
    assert len(ours) == 4 and ours == whooshs
    assert [len(ids) for _, ids, _, _ in ours] == [128, 128, 128, 66]
    assert ours[0][0][3], "the blocks are compressed (the zlib path is the one tested)"


def test_the_id_and_score_readers_give_every_posting(reader: Any) -> None:
    ids = [d for block in blocks.id_blocks(reader.postings("body", "word")) for d in block]
    scored = list(blocks.scored_blocks(reader.postings("body", "word")))
    assert ids == list(range(450))
    assert [w for _, weights in scored for w in weights] == [1 + n % 3 for n in range(450)]


class _Counted(W3LeafMatcher):
    """Whoosh's matcher under another class: counts the reads made through its methods."""

    calls: list[str]

    def _next_block(self) -> None:
        self.calls.append("next")
        super()._next_block()

    def _read_ids(self) -> None:
        self.calls.append("ids")
        super()._read_ids()


def test_another_matcher_class_is_read_by_its_own_methods(reader: Any) -> None:
    matcher = reader.postings("body", "word")
    matcher.__class__ = _Counted
    matcher.calls = []
    assert [d for block in blocks.id_blocks(matcher) for d in block] == list(range(450))
    assert matcher.calls == ["ids", "next"] * 3 + ["ids"]


@pytest.fixture
def weighted(tmp_path: Path) -> Any:
    """Words whose blocks store their weights each way Whoosh does: none (all 1.0),
    one for the block (all 2.0), and one per posting."""
    schema = fields.Schema(body=fields.TEXT(phrase=True))
    ix = FileStorage(str(tmp_path)).create_index(schema)
    with ix.writer() as writer:
        for n in range(300):
            words = ["once", "twice", "twice"] + ["mixed"] * (1 + n % 4)
            writer.add_document(body=" ".join(words) if n % 5 else "other")
    with ix.reader() as opened:
        yield opened


@pytest.mark.parametrize("word", ["once", "twice", "mixed"])
def test_gaps_and_weights_are_scored_blocks_postings(
    weighted: Any, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [d for block, _ in blocks.scored_blocks(weighted.postings("body", word)) for d in block]
    weights = [
        w for _, block in blocks.scored_blocks(weighted.postings("body", word)) for w in block
    ]
    expected = [b - a for a, b in zip([0, *ids], ids)]
    fast = blocks.gaps_and_weights(weighted.postings("body", word))
    assert (list(fast[0]), list(fast[1])) == (expected, weights)
    assert len(ids) == 240 and len({*weights}) == (4 if word == "mixed" else 1)
    monkeypatch.setattr(guard, "FAST_PATHS", False)
    stock = blocks.gaps_and_weights(weighted.postings("body", word))
    assert stock == fast
