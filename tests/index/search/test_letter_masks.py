"""The first keystrokes' stored masks after in-place updates (index.search.letter_masks):
left alone by the update, completed by the engine for the update's segment, each equal
to the node's match set over the whole index; older or damaged files are not served."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from whoosh import index as whoosh_index
from whoosh.reading import IndexReader
from whoosh.searching import Searcher

from index.models import Library, Paper, Source
from index.search import prefixes
from index.search.bitsets import mask_of, posting_ids
from index.search.letter_masks import letters_outdated, read_letters
from index.store import updates, writer
from index.whoosh_ext.internals import segment_id
from tests.fixtures.search.generate import make_library

FILES = ("a.bib", "b.bib", "c.bib")


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Paper]:
    """An index of 60 papers with stored masks, as a library of 5,000 or more has."""
    monkeypatch.setattr(prefixes, "LETTER_MASKS_MIN_PAPERS", 0)
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 1.0)
    papers = [
        replace(p, sources=(Source(FILES[i % 3], line=i),))
        for i, p in enumerate(make_library(60).papers)
    ]
    writer.build_into(tmp_path, papers, None)
    return papers


def _update(folder: Path, papers: list[Paper]) -> None:
    """Edits the first file's papers (a new word each) and updates the index in place."""
    for i, paper in enumerate(papers):
        if paper.sources[0].path == FILES[0]:
            papers[i] = replace(paper, abstract=f"{paper.abstract} mxyzzy{i}")
    ix = whoosh_index.open_dir(str(folder))
    try:
        library = Library(papers=tuple(papers), files=FILES)
        assert updates.update_in_place(ix, folder, library, {FILES[0]}, None) is not None
    finally:
        ix.close()


def _expected(reader: IndexReader, terms: list[tuple[str, str]]) -> int:
    """The node's match set over the whole index, computed from its terms' postings."""
    found = [d for field, text in terms for d in posting_ids(reader, field, text)]
    return mask_of(found, reader.doc_count_all())


def test_the_update_leaves_the_file_and_the_engine_completes_every_mask(
    tmp_path: Path, built: list[Paper]
) -> None:
    written = (tmp_path / prefixes.LETTERS_FILE).read_bytes()
    _update(tmp_path, built)
    assert (tmp_path / prefixes.LETTERS_FILE).read_bytes() == written
    _, terms = prefixes.read_letters_file(tmp_path)
    assert terms
    ix = whoosh_index.open_dir(str(tmp_path))
    with ix.searcher() as searcher:
        reader = searcher.reader()
        assert len(reader.leaf_readers()) == 2 and not letters_outdated(tmp_path, reader)

        @contextmanager
        def own() -> Iterator[Searcher]:
            with ix.searcher() as other:
                yield other

        letters = read_letters(tmp_path, reader, own)
        assert letters._missing and len(letters) == len(terms)
        for key in terms:  # the update's word among the completions too
            assert letters.get(key) == _expected(reader, terms[key]), key
        assert letters.get("Term('abstract', 'nothing stored')") is None
        # Without a searcher to read the update's segment: not served (computed as usual).
        assert read_letters(tmp_path, reader).get(next(iter(terms))) is None
    ix.close()


def test_a_file_without_terms_is_not_completed_and_the_update_stores_it_again(
    tmp_path: Path, built: list[Paper]
) -> None:
    """A format 2 file (no terms, an earlier release) serves an index it covers whole;
    the next update computes the masks again and writes format 3."""
    path = tmp_path / prefixes.LETTERS_FILE
    data = json.loads(path.read_text())
    path.write_text(json.dumps({"format": 2, "segments": data["segments"]}))
    ix = whoosh_index.open_dir(str(tmp_path))
    with ix.reader() as reader:
        assert len(read_letters(tmp_path, reader)) == len(data["terms"])
        assert letters_outdated(tmp_path, reader)
    ix.close()
    _update(tmp_path, built)
    again = json.loads(path.read_text())
    assert again["format"] == prefixes.FORMAT and again["terms"]
    ix = whoosh_index.open_dir(str(tmp_path))
    with ix.reader() as reader:
        assert set(again["segments"]) == {segment_id(leaf) for leaf, _ in reader.leaf_readers()}
        letters = read_letters(tmp_path, reader)
        assert not letters._missing
        for key, terms in letters._terms.items():
            assert letters.get(key) == _expected(reader, terms), key
    ix.close()


def test_damaged_masks_and_a_moved_index_are_not_served(tmp_path: Path, built: list[Paper]) -> None:
    _update(tmp_path, built)
    path = tmp_path / prefixes.LETTERS_FILE
    data = json.loads(path.read_text())
    key = next(iter(data["terms"]))
    for masks in data["segments"].values():
        masks[key] = "not base64!"
    path.write_text(json.dumps(data))
    ix = whoosh_index.open_dir(str(tmp_path))
    with ix.searcher() as searcher:
        reader = searcher.reader()

        @contextmanager
        def same() -> Iterator[Searcher]:
            yield searcher

        assert read_letters(tmp_path, reader, same).get(key) is None
        other = next(k for k in data["terms"] if k != key)
        assert read_letters(tmp_path, reader, same).get(other) is not None
        _update(tmp_path, built)  # another segment: the searcher no longer reads this index
        with ix.searcher() as moved:

            @contextmanager
            def newer() -> Iterator[Searcher]:
                yield moved

            assert read_letters(tmp_path, reader, newer).get(other) is None
    ix.close()
