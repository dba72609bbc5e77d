"""The term pool (postings grouped per term) writes the index the batched pool writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import whoosh.writing
from whoosh import index as whoosh_index
from whoosh.codec.whoosh3 import W3Codec, W3PostingsWriter
from whoosh.multiproc import SerialMpWriter
from whoosh.writing import SegmentWriter

from index.models import Paper
from index.schema.fields import build_schema, document
from index.store.writer import build_into
from index.whoosh_ext import patching
from index.whoosh_ext.patching import fast_pool
from index.whoosh_ext.pool import BatchedPostingPool
from index.whoosh_ext.term_pool import TermPool
from tests.fixtures.search.generate import make_library
from tests.index.whoosh_ext.test_pool import build as listing

PAPERS = make_library(150).papers


class OwnPostings(W3PostingsWriter):
    """Whoosh's posting writer under another name: the term pool's stock path."""


class OwnCodec(W3Codec):
    def postings_writer(self, dbfile: Any, byteids: bool = False) -> W3PostingsWriter:
        return OwnPostings(dbfile, self._blocklimit, byteids, self._compression, self._inlinelimit)


@contextmanager
def batched_pool() -> Iterator[None]:
    """`fast_pool` as it was before the term pool: Whoosh's `add_document` filling the
    batched pool, whose sorted postings `fast_add_postings` writes."""
    with fast_pool():
        saved = whoosh.writing.PostingPool, SegmentWriter.add_document
        whoosh.writing.PostingPool = BatchedPostingPool
        SegmentWriter.add_document = patching._stock["document"]
        try:
            yield
        finally:
            whoosh.writing.PostingPool, SegmentWriter.add_document = saved


def segment_files(
    folder: Path, term_pool: bool, lean: bool, limitmb: float, blocklimit: int, own: bool = False
) -> dict[str, bytes]:
    """Every file of the one segment written (its random name left out), byte for byte.
    `own`: a codec whose posting writer is a subclass (given the postings one by one)."""
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), build_schema(lean))
    with fast_pool() if term_pool else batched_pool():
        codec = (OwnCodec if own else W3Codec)(blocklimit=blocklimit, compression=3)
        writer = ix.writer(limitmb=limitmb, codec=codec, compound=False)
        assert type(writer.pool) is (TermPool if term_pool else BatchedPostingPool)
        for paper in PAPERS:
            writer.add_document(**document(paper, None, lean))
        runs = len(writer.pool.grouped_runs if term_pool else writer.pool.runs)
        assert (runs > 3) == (limitmb < 1)
        writer.commit()
    (segment,) = ix._segments()
    ix.close()
    name = segment.segment_id()
    return {f.name.replace(name, ""): f.read_bytes() for f in folder.iterdir() if name in f.name}


@pytest.mark.parametrize(
    ("lean", "limitmb", "blocklimit", "own"),
    [
        (True, 64, 128, False),
        (True, 0.05, 3, False),
        (False, 64, 128, False),
        (False, 64, 3, False),
        (True, 64, 3, True),
    ],
)
def test_the_term_pool_writes_the_same_files(
    tmp_path: Path, lean: bool, limitmb: float, blocklimit: int, own: bool
) -> None:
    new = segment_files(tmp_path / "terms", True, lean, limitmb, blocklimit, own)
    assert {".pst", ".trm", "._abstract_len.col"} <= set(new)
    assert new == segment_files(tmp_path / "batched", False, lean, limitmb, blocklimit, own)


def test_spilled_runs_hold_the_same_postings(tmp_path: Path) -> None:
    """A full build whose terms spill to many runs (merged at commit). Its bytes are not
    compared: a block pickles a position list once per object (pickle's memo), and which
    equal lists are one object differs with where either pool spilled."""
    with fast_pool():
        grouped = listing(tmp_path / "terms", True)
    assert grouped == listing(tmp_path / "plain", False)


def postings_by_paper(folder: Path) -> dict[tuple[str, bytes], list[tuple[Any, ...]]]:
    """Each term's postings as (paper id, weight, value), over every segment."""
    ix = whoosh_index.open_dir(str(folder))
    out: dict[tuple[str, bytes], list[tuple[Any, ...]]] = {}
    with ix.reader() as reader:
        ids = reader.column_reader("id")
        for fieldname, text in reader.all_terms():
            postings = reader.postings(fieldname, text)
            found = out.setdefault((fieldname, text), [])
            while postings.is_active():
                found.append((ids[postings.id()], postings.weight(), postings.value()))
                postings.next()
            found.sort()
    ix.close()
    return out


def test_a_two_worker_lean_build_holds_every_posting_of_a_one_process_build(
    tmp_path: Path,
) -> None:
    papers: list[Paper] = list(PAPERS) * 3  # three batches of documents for the workers
    for name, procs in (("two", 2), ("one", 1)):
        (tmp_path / name).mkdir()
        build_into(tmp_path / name, papers[:400], None, procs=procs, lean=True)
    assert len(whoosh_index.open_dir(str(tmp_path / "two"))._segments()) == 2
    two = postings_by_paper(tmp_path / "two")
    assert two == postings_by_paper(tmp_path / "one")
    assert len(two[("abstract", b"model")]) > 100


def merged_files(folder: Path, term_pool: bool) -> dict[str, bytes]:
    """Two segments merged by a third writer (`add_reader`: postings one at a time)."""
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), build_schema())
    with fast_pool() if term_pool else batched_pool():
        for start in (0, 60, 120):
            writer = ix.writer(codec=W3Codec(blocklimit=5), compound=False)
            for paper in PAPERS[start : start + 60]:
                writer.add_document(**document(paper))
            writer.commit(merge=False, optimize=start == 120)
    (segment,) = ix._segments()
    ix.close()
    name = segment.segment_id()
    return {f.name.replace(name, ""): f.read_bytes() for f in folder.iterdir() if name in f.name}


def test_merged_segments_are_written_the_same(tmp_path: Path) -> None:
    assert merged_files(tmp_path / "terms", True) == merged_files(tmp_path / "plain", False)


def test_whooshs_own_runs_of_subwriters_hold_the_same_postings(tmp_path: Path) -> None:
    """A multi-process writer that merges its workers' runs (Whoosh spills the term pool
    as its own run of tuples: `TermPool.save`), here its serial test double."""
    out = []
    for name, context in (("terms", fast_pool), ("plain", batched_pool)):
        folder = tmp_path / name
        folder.mkdir()
        ix = whoosh_index.create_in(str(folder), build_schema(True))
        with context():
            writer = SerialMpWriter(ix, procs=2)
            for paper in PAPERS[:40]:
                writer.add_document(**document(paper, None, True))
            writer.commit()
        ix.close()
        out.append(postings_by_paper(folder))
    assert out[0] == out[1]
    assert out[0][("abstract", b"model")]
