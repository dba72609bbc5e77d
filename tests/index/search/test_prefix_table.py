"""The build-time table of short-prefix completions, and its patch after an in-place update."""

from __future__ import annotations

import random
from pathlib import Path

from whoosh.index import create_in

from index.models import replace
from index.schema.fields import build_schema, document
from index.search.facet_store import index_key
from index.search.table_updates import _patch, update_table
from index.search.tables import (
    COUNTS_FILE,
    TABLE_FILE,
    build_table,
    read_counts,
    read_table,
    table_of,
    write_table,
)
from tests.fixtures.search.generate import make_library

WORDS = [a + b + c for a in "abq" for b in "aeiou" for c in "xyz"]


def test_a_patched_table_is_the_table_of_the_new_counts() -> None:
    """Counts going up, down and to nothing, on capped and complete prefixes, round after
    round: the patch (listed terms first, a rescan only where needed) equals a table
    computed from the counts afresh."""
    rng = random.Random(7)
    for cap in (1, 3, 8):
        counts = {word: rng.randint(1, 6) for word in rng.sample(WORDS, 30)}
        table = table_of({"abstract": counts}, cap)["abstract"]
        for _ in range(40):
            old = {}
            for word in rng.sample(WORDS, rng.randint(1, 6)):
                old[word] = was = counts.get(word, 0)
                now = max(0, was + rng.randint(-4, 4))
                if now:
                    counts[word] = now
                else:
                    counts.pop(word, None)
            _patch(table, counts, old, cap)
            assert table == table_of({"abstract": counts}, cap)["abstract"]


def test_an_update_patches_the_table_to_a_fresh_builds(tmp_path: Path) -> None:
    """Through the index: documents removed and added give the table a build of the
    documents left would write, and counts keyed by the index as it is now."""
    schema = build_schema()
    kept = ["quokka bandicoot", "bandicoot bilby", "quorum query"]
    gone = [{"abstract": "quorum quokka zebra"}]
    added = [{"abstract": "bilby numbat"}, {"abstract": "quokka quorum"}]
    folder = tmp_path / "index"
    folder.mkdir()
    ix = create_in(str(folder), schema)
    with ix.writer() as writer:
        for n, text in enumerate([*kept, gone[0]["abstract"]]):
            writer.add_document(id=f"p{n}", abstract=text)
    with ix.reader() as reader:
        write_table(tmp_path, reader, 2)
        before = index_key(reader)
    with ix.writer() as writer:
        writer.delete_document(len(kept))
        for n, doc in enumerate(added):
            writer.add_document(id=f"n{n}", **doc)
    with ix.reader() as reader:
        counts = update_table(tmp_path, reader, before, added, gone, 2)
    assert counts is not None and table_of(counts, 2) == read_table(tmp_path)

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    other = create_in(str(fresh), schema)
    with other.writer() as writer:
        for n, text in enumerate([*kept, *(doc["abstract"] for doc in added)]):
            writer.add_document(id=f"f{n}", abstract=text)
    with other.reader() as reader:
        assert read_table(tmp_path) == build_table(reader, 2)
    assert "z" not in (read_table(tmp_path) or {})["abstract"]  # its only word went


def test_counts_for_another_state_of_the_index_are_recomputed(tmp_path: Path) -> None:
    """An update killed after Whoosh's commit left counts for the old segments: the next
    update finds them stale and computes counts and table from the index (less its
    deleted documents, read from their stored papers), as a build of the same documents
    would."""
    first, second = (
        replace(paper, abstract=text)
        for paper, text in zip(make_library(2).papers, ("quokka", "bilby"))
    )
    folder = tmp_path / "index"
    folder.mkdir()
    ix = create_in(str(folder), build_schema())
    with ix.writer() as writer:
        writer.add_document(**document(first))
        writer.add_document(**document(second))
    with ix.reader() as reader:
        write_table(tmp_path, reader, 4)
    with ix.writer() as writer:  # the killed update: committed, no table written
        writer.delete_document(0)
    with ix.reader() as reader:
        assert read_counts(tmp_path, [["another", 1, 1]]) is None  # not for this index
        counts = update_table(tmp_path, reader, [["another", 1, 1]], [], [], 4)
    assert counts == {"abstract": {"bilbi": 1}}
    assert read_table(tmp_path) == {"abstract": {"b": [["bilbi", 1]], "bi": [["bilbi", 1]]}}


def test_no_table_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    ix = create_in(str(folder), build_schema())
    with ix.writer() as writer:
        writer.add_document(id="a", abstract="quokka")
    with ix.reader() as reader:
        update_table(tmp_path, reader, index_key(reader), [{"abstract": "quokka"}], [], 2)
    assert not (tmp_path / TABLE_FILE).exists() and not (tmp_path / COUNTS_FILE).exists()


def test_the_abstracts_terms_without_positions_are_its_indexed_terms() -> None:
    """What the patch counts (`FastStemText.terms`) is what Whoosh indexes."""
    field = build_schema()["abstract"]
    texts = [paper.abstract for paper in make_library(60).papers]
    texts += ["Über naïve caching, the CACHES and a cache: 3.2x faster", "a an of", ""]
    for text in texts:
        assert field.terms(text) == {term.decode() for term, *_ in field.index(text)}
