"""An engine without the library reads its papers from the index and answers the same.

`index.open_current_engine` opens the index of a library that is current (its files'
sizes and mtimes and the taxonomy unchanged) without loading that library; every hit,
prefix check, `paper()` and `more_like_this()` then decodes the stored JSON instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index import open_current_engine, open_engine
from index.facets.taxonomy import Taxonomy, load_taxonomy
from index.library.load import library_files, load_library
from index.models import Library, SearchRequest, replace
from index.search.engine import SearchEngine
from index.store.generations import open_if_current, open_outdated

QUERIES = [
    "",
    "memory",
    "tensor comp",
    "dyn",
    "author:zheng",
    '"pipeline parallelism"',
    "gpu -training",
    "schedulng~",
    "title:serving OR kv",
    "m",
    "qu",
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def engines(
    library: Library, taxonomy: Taxonomy, cache: Path
) -> Iterator[tuple[SearchEngine, SearchEngine]]:
    loaded = open_engine(library, taxonomy, cache)
    stored = open_current_engine(None, taxonomy, cache)
    assert stored is not None
    yield loaded, stored
    stored.close()
    loaded.close()


def test_the_files_a_load_would_record_are_known_without_loading(library: Library) -> None:
    assert library_files(None) == library.files


@pytest.mark.parametrize("as_you_type", [False, True])
@pytest.mark.parametrize("query", QUERIES)
def test_every_answer_is_the_same_as_with_the_library(
    engines: tuple[SearchEngine, SearchEngine], query: str, as_you_type: bool
) -> None:
    loaded, stored = engines
    for request in (
        SearchRequest(query=query, as_you_type=as_you_type, limit=50),
        SearchRequest(
            query=query, as_you_type=as_you_type, sort="year", hardware=frozenset({"gpu"})
        ),
    ):
        want, got = loaded.search(request), stored.search(request)
        assert got.total == want.total and got.library_size == want.library_size
        assert got.hits == want.hits
        assert got.facets == want.facets
        assert (got.correction, got.notice, got.partial) == (
            want.correction,
            want.notice,
            want.partial,
        )


def test_single_papers_and_similar_ones_are_the_same(
    engines: tuple[SearchEngine, SearchEngine], library: Library
) -> None:
    loaded, stored = engines
    for paper in library.papers[:10]:
        assert stored.paper(paper.id) == paper
        assert stored.more_like_this(paper.id) == loaded.more_like_this(paper.id)
    assert stored.paper("no-such-paper") is None


def test_many_papers_and_every_id_are_read_without_a_search(
    engines: tuple[SearchEngine, SearchEngine], library: Library
) -> None:
    loaded, stored = engines
    ids = [paper.id for paper in library.papers]
    assert stored.paper_ids() == loaded.paper_ids() == frozenset(ids)
    wanted = [ids[5], "no-such-paper", ids[0], ids[-1]]
    assert stored.papers(wanted) == [library.papers[5], library.papers[0], library.papers[-1]]
    assert loaded.papers(wanted) == stored.papers(wanted)


def test_not_current_after_a_change(library: Library, taxonomy: Taxonomy, tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    for name in library.files:
        if Path(name).is_file():
            (folder / Path(name).name).write_bytes(Path(name).read_bytes())
    assert open_current_engine([folder], taxonomy, tmp_path / "cache") is None  # no index
    copied = load_library([folder], taxonomy)
    open_engine(copied, taxonomy, tmp_path / "cache").close()
    opened = open_if_current(library_files([folder]), taxonomy, tmp_path / "cache")
    assert opened is not None and opened.action == "up to date"
    opened.index.close()
    other = load_taxonomy()
    object.__setattr__(other, "fingerprint", "another")
    assert open_if_current(library_files([folder]), other, tmp_path / "cache") is None
    assert open_outdated(library_files([folder]), taxonomy, tmp_path / "cache") is None
    first = min(folder.iterdir())
    first.write_bytes(first.read_bytes() + b"\n")
    assert open_if_current(library_files([folder]), taxonomy, tmp_path / "cache") is None


def test_an_index_outdated_by_edits_opens_as_it_was_with_the_changed_files(
    library: Library, taxonomy: Taxonomy, tmp_path: Path
) -> None:
    folder, cache = tmp_path / "papers", tmp_path / "cache"
    folder.mkdir()
    for name in library.files:
        if Path(name).is_file():
            (folder / Path(name).name).write_bytes(Path(name).read_bytes())
    open_engine(load_library([folder], taxonomy), taxonomy, cache).close()
    files = library_files([folder])
    first, second = sorted(folder.iterdir())[:2]
    first.write_bytes(first.read_bytes() + b"\n")
    second.write_bytes(second.read_bytes() + b"\n")
    found = open_outdated(files, taxonomy, cache)
    assert found is not None
    opened, changed = found
    try:
        assert sorted(changed) == sorted(str(path) for path in (first, second))
        assert opened.doc_count == len(library.papers)  # the papers as they were
        assert opened.action == "outdated (2 changed files)"
    finally:
        opened.index.close()
    other = load_taxonomy()
    object.__setattr__(other, "fingerprint", "another")
    assert open_outdated(files, other, cache) is None  # built with another vocabulary
    (folder / "added.bib").write_text("@misc{x, title={Added}}\n", encoding="utf-8")
    assert open_outdated(library_files([folder]), taxonomy, cache) is None  # other files
    named = [first, second]
    open_engine(load_library(named, taxonomy), taxonomy, cache).close()
    second.unlink()  # a named file gone: a full load says so, nothing is served as it was
    assert open_outdated(library_files(named), taxonomy, cache) is None


def test_a_library_with_its_own_collections_or_notes_is_always_loaded(
    taxonomy: Taxonomy, tmp_path: Path
) -> None:
    """Collections and the source's notes are searched from the papers, not the index,
    so an engine without the library would miss them: it is not offered."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "refs.bib").write_text(
        "@misc{a, title={Alpha}, abstract={About alpha.}}\n", encoding="utf-8"
    )
    plain = load_library([folder], taxonomy)
    open_engine(plain, taxonomy, tmp_path / "cache").close()
    opened = open_if_current(library_files([folder]), taxonomy, tmp_path / "cache")
    assert opened is not None
    opened.index.close()
    noted = Library(
        papers=tuple(replace(p, source_notes=("a note",)) for p in plain.papers),
        files=plain.files,
        stamps=plain.stamps,
    )
    open_engine(noted, taxonomy, tmp_path / "cache").close()
    assert open_if_current(library_files([folder]), taxonomy, tmp_path / "cache") is None


def saved_key_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per read of the saved paper keys' rows (`SavedKeys.rows`), from now on."""
    from index.search.paper_keys import SavedKeys

    reads: list[int] = []
    real = SavedKeys.rows

    def counted(self: SavedKeys) -> object:
        reads.append(1)
        return real(self)

    monkeypatch.setattr(SavedKeys, "rows", counted)
    return reads


def test_saved_keys_are_read_when_first_asked_for_and_collections_at_once(
    taxonomy: Taxonomy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An open reads the keys file's header only: the rows (0.5 s at 100,000 papers) wait
    for the user's layer or a citation key; the collections facet needs only the header."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "refs.bib").write_text(
        "@misc{a, title={Alpha}, abstract={About alpha.}}\n"
        "@misc{b, title={Beta}, abstract={About beta.}}\n",
        encoding="utf-8",
    )
    plain = load_library([folder], taxonomy)
    filed = (replace(plain.papers[0], collections=("Thesis/Chapter 2",)), *plain.papers[1:])
    open_engine(replace(plain, papers=filed), taxonomy, tmp_path / "cache").close()
    reads = saved_key_reads(monkeypatch)
    engine = open_current_engine([folder], taxonomy, tmp_path / "cache")
    assert engine is not None and engine.has_paper_keys
    result = engine.search(SearchRequest(""))
    assert {c.value: c.count for c in result.facets["collection"]} == {
        "Thesis": 1,
        "Thesis/Chapter 2": 1,
    }
    assert reads == []
    keys = engine.paper_keys
    assert keys is not None and sorted(k.id for k in keys) == sorted(p.id for p in filed)
    assert engine.paper_keys is keys and reads == [1]
    engine.close()
