"""The long posting lists kept beside the index give exactly Whoosh's postings, and a
search gives the same answers with them as without."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import SearchRequest, SearchResult
from index.search import stored_postings
from index.search.bitsets import posting_ids
from index.search.engine import SearchEngine
from index.search.stored_postings import POSTINGS_FILE, StoredPostings
from index.whoosh_ext.blocks import scored_blocks
from tests.fixtures.search.generate import TAXONOMY, make_library


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    """300 generated papers, their lists of 20 postings or more stored as a big
    library's long ones are."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stored_postings, "MIN_POSTINGS", 20)
        engine = open_engine(make_library(300), TAXONOMY, tmp_path_factory.mktemp("cache"))
    yield engine
    engine.close()


def _stored_terms(engine: SearchEngine) -> list[tuple[str, str]]:
    entries = next(iter(engine._postings._segments.values()))
    return [tuple(key.split(":", 1)) for key in entries]  # type: ignore[misc]


def test_every_stored_list_is_whooshs_postings(engine: SearchEngine) -> None:
    terms = _stored_terms(engine)
    fields = {field for field, _ in terms}
    assert len(terms) > 100 and {"abstract", "title", "prefix"} <= fields
    with engine._searcher() as searcher:
        reader = searcher.reader()
        (leaf, offset), *_ = reader.leaf_readers()
        for field, text in terms:
            whooshs = [
                (list(ids), list(weights))
                for ids, weights in scored_blocks(leaf.postings(field, text))
            ]
            ids = [d for block, _ in whooshs for d in block]
            weights = [w for _, block in whooshs for w in block]
            assert len(ids) >= 20
            kept = engine._postings.scored(leaf, field, text)
            assert kept is not None and list(kept[0]) == ids and list(kept[1]) == weights
            assert engine._postings.ids(leaf, offset, field, text) == [d + offset for d in ids]
            assert posting_ids(reader, field, text, engine._postings) == posting_ids(
                reader, field, text
            )
        assert engine._postings.ids(leaf, offset, "abstract", "no-such-word") is None


def _answers(engine: SearchEngine, requests: list[SearchRequest]) -> list[tuple[object, ...]]:
    def shown(result: SearchResult) -> tuple[object, ...]:
        hits = [(h.paper.id, h.score) for h in result.hits]  # the scores exactly
        return result.total, hits, sorted(result.facets.items()), result.partial

    out = []
    for request in requests:
        engine.forget_cached()
        out.append(shown(engine.search(request)))
    return out


REQUESTS = [
    SearchRequest(text, as_you_type=typing)
    for text in ("m", "mo", "model", "model tra", "training cache", '"model training"', "ti")
    for typing in (True, False)
] + [SearchRequest("gpu kernel", topics=frozenset({"training"}))]


def test_searches_give_the_same_answers_without_the_stored_lists(engine: SearchEngine) -> None:
    with_lists = _answers(engine, REQUESTS)
    kept, engine._postings = engine._postings, StoredPostings()
    engine._term_scores.stored = engine._postings
    try:
        without = _answers(engine, REQUESTS)
    finally:
        engine._postings = engine._term_scores.stored = kept
    assert with_lists == without
    assert any(total for total, *_ in with_lists)


def _copy(engine: SearchEngine, folder: Path) -> Path:
    folder.mkdir()
    data = (engine.opened.path / POSTINGS_FILE).read_bytes()
    (folder / POSTINGS_FILE).write_bytes(data)
    return folder / POSTINGS_FILE


def _rewrite_header(path: Path, change: Callable[[dict[str, Any]], object]) -> None:
    """Rewrite the file's directory after `change`, its lists as they were."""
    magic = stored_postings._MAGIC
    data = path.read_bytes()
    length = int.from_bytes(data[len(magic) : len(magic) + 8], "little")
    header = json.loads(data[len(magic) + 8 : len(magic) + 8 + length])
    change(header)
    encoded = json.dumps(header).encode()
    rest = data[len(magic) + 8 + length :]
    path.write_bytes(magic + len(encoded).to_bytes(8, "little") + encoded + rest)


def _first_entry(header: dict[str, Any]) -> list[Any]:
    entries: dict[str, list[Any]] = next(iter(header["segments"].values()))
    return next(iter(entries.values()))


def test_a_damaged_or_foreign_file_is_ignored_with_a_warning(
    engine: SearchEngine, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    field, text = _stored_terms(engine)[0]
    with engine._searcher() as searcher:
        reader = searcher.reader()
        (leaf, offset), *_ = reader.leaf_readers()
        path = _copy(engine, tmp_path / "header")
        path.write_bytes(path.read_bytes()[:40])  # cut inside the directory
        with caplog.at_level(logging.WARNING, "paperscope.index"):
            assert not StoredPostings.open(path.parent, reader)
        assert POSTINGS_FILE in caplog.text

        path = _copy(engine, tmp_path / "data")
        zeroed = bytearray(path.read_bytes())
        zeroed[-200:] = bytes(200)  # the last lists' bytes
        path.write_bytes(bytes(zeroed))
        damaged = StoredPostings.open(path.parent, reader)
        last_field, last_text = _stored_terms(engine)[-1]
        assert damaged.ids(leaf, offset, last_field, last_text) is None
        assert not damaged  # no list of the file is used any more
        assert damaged.ids(leaf, offset, field, text) is None
        damaged.close()

        path = _copy(engine, tmp_path / "entry")
        _rewrite_header(path, lambda header: _first_entry(header).__setitem__(0, "x"))
        with caplog.at_level(logging.WARNING, "paperscope.index"):
            assert not StoredPostings.open(path.parent, reader)
        assert "damaged entry" in caplog.text

        path = _copy(engine, tmp_path / "count")  # a list's count is not what it holds
        _rewrite_header(path, lambda header: _first_entry(header).__setitem__(3, 1))
        miscounted = StoredPostings.open(path.parent, reader)
        assert miscounted.ids(leaf, offset, field, text) is None and not miscounted
        miscounted.close()

        path = _copy(engine, tmp_path / "order")
        other = "big" if sys.byteorder == "little" else "little"
        _rewrite_header(path, lambda header: header.__setitem__("byteorder", other))
        assert not StoredPostings.open(path.parent, reader)
        assert not StoredPostings.open(tmp_path / "missing", reader)
