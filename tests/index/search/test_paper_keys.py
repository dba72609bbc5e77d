"""The papers' saved keys (index.search.paper_keys): written in sections a reader skips to,
older files without the sections' sizes still read, a damaged one never trusted."""

from __future__ import annotations

import marshal
from pathlib import Path
from typing import Any

import pytest

from index import open_current_engine, open_engine
from index.citations.keys import citation_keys
from index.facets.taxonomy import Taxonomy
from index.models import Library
from index.search import paper_keys
from index.search.engine import SearchEngine
from index.search.paper_keys import KEYS_FILE, read_saved_keys


def built(library: Library, taxonomy: Taxonomy, cache: Path) -> Path:
    """The keys file of a fresh index of `library` under `cache`."""
    engine = open_engine(library, taxonomy, cache)
    path = engine.opened.path / KEYS_FILE
    engine.close()
    return path


def reopened(taxonomy: Taxonomy, cache: Path) -> SearchEngine:
    engine = open_current_engine(None, taxonomy, cache)
    assert engine is not None
    return engine


def sequential_objects(path: Path) -> list[Any]:
    with path.open("rb") as handle:
        return [marshal.load(handle) for _ in range(4)]


def test_sections_are_read_alone_and_give_every_key(
    library: Library, taxonomy: Taxonomy, tmp_path: Path
) -> None:
    path = built(library, taxonomy, tmp_path)
    header, cites, rows, table = sequential_objects(path)  # still objects in a row
    assert isinstance(header, dict) and isinstance(cites, dict) and isinstance(rows, dict)
    with path.open("rb") as handle:
        marshal.load(handle)
        start = handle.tell()  # where the header ends
    data = path.read_bytes()
    first, second, third = header["sections"]
    assert start + first + second + third == len(data)
    assert marshal.loads(data[start : start + first]) == cites
    assert marshal.loads(data[start + first : start + first + second]) == rows
    assert marshal.loads(data[start + first + second :]) == table
    engine = reopened(taxonomy, tmp_path)
    try:
        keys = engine.paper_keys
        assert keys is not None
        assert [k.id for k in keys] == [p.id for p in library.papers]
        assert engine.saved_citation_keys() == citation_keys(library.papers)
    finally:
        engine.close()


def test_a_file_written_before_the_sizes_were_saved_is_read_the_same(
    library: Library, taxonomy: Taxonomy, tmp_path: Path
) -> None:
    path = built(library, taxonomy, tmp_path / "cache")
    header, cites, rows, _ = sequential_objects(path)
    assert isinstance(header, dict)
    del header["sections"]
    older = tmp_path / "older"
    older.mkdir()
    (older / KEYS_FILE).write_bytes(b"".join(marshal.dumps(o, 4) for o in (header, cites, rows)))
    engine = reopened(taxonomy, tmp_path / "cache")
    try:
        saved = read_saved_keys(older, engine.opened.index.reader())
        assert saved is not None
        assert saved.rows() == engine.paper_keys
        assert saved.citation_keys() == engine.saved_citation_keys()
        assert saved.lookup() is None  # written before the table: the rows serve
        assert engine.key_lookup is not None
    finally:
        engine.close()


def test_a_file_with_its_citation_keys_whole_is_read_the_same(
    library: Library, taxonomy: Taxonomy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Format 4 saved the citation keys as one dict; format 5 in chunks decoded one by one
    (a 100,000-paper dict held the interpreter's lock for 0.1 s): both are read."""
    monkeypatch.setattr(paper_keys, "_CITES_CHUNK", 2)
    path = built(library, taxonomy, tmp_path / "cache")
    header, cites, rows, table = sequential_objects(path)
    assert len(cites["cites"]) == (len(library.papers) + 1) // 2
    whole: dict[str, str] = {}
    for part in cites["cites"]:
        whole.update(marshal.loads(part))
    sections = [marshal.dumps(o, 4) for o in ({**cites, "cites": whole}, rows, table)]
    header.update(format=4, sections=[len(section) for section in sections])
    older = tmp_path / "older"
    older.mkdir()
    (older / KEYS_FILE).write_bytes(marshal.dumps(header, 4) + b"".join(sections))
    engine = reopened(taxonomy, tmp_path / "cache")
    try:
        saved = read_saved_keys(older, engine.opened.index.reader())
        assert saved is not None
        assert saved.citation_keys() == citation_keys(library.papers) == whole
        assert saved.rows() == engine.paper_keys
        assert engine.saved_citation_keys() == whole  # from the chunks
    finally:
        engine.close()


def test_a_cut_file_gives_no_rows_and_says_so(
    library: Library, taxonomy: Taxonomy, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = built(library, taxonomy, tmp_path)
    engine = reopened(taxonomy, tmp_path)  # the header is read at the open
    table = sequential_objects(path)[0]["sections"][-1]
    path.write_bytes(path.read_bytes()[: -table - 100])  # into the rows
    try:
        assert engine.key_lookup is None
        assert engine.paper_keys is None
        assert "is unreadable; the library is loaded instead" in caplog.text
        assert engine.saved_citation_keys() == citation_keys(library.papers)  # before the cut
    finally:
        engine.close()
