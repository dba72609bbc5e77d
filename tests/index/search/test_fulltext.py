"""Searching inside the papers: real PDFs read, stored, synced, then searched by the engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index import load_taxonomy, open_engine
from index.fulltext import sync_fulltext
from index.fulltext.extract import Extracted
from index.fulltext.pool import ExtractionPool, Job
from index.fulltext.store import FulltextStore
from index.models import Library, Paper, SearchRequest, SearchResult
from index.search.engine import SearchEngine
from tests.index.fulltext.pdfs import paper_pdf, scanned_pdf

TAXONOMY = load_taxonomy()


def _papers(pdf: Path, scan: Path) -> list[Paper]:
    return [
        # The PDF's words: "KV cache is paged", "quokkas" (page 1), "Pythagoras" (page 2).
        Paper(
            id="paging",
            title="Memory management for serving",
            abstract="We study serving systems.",
            year=2023,
            venue="OSDI",
            attachments=(str(pdf),),
        ),
        Paper(id="quokka-bio", title="Quokka biology", abstract="Marsupials.", year=2020),
        Paper(
            id="scanned",
            title="A scanned report",
            abstract="On paging.",
            year=2019,
            attachments=(str(scan),),
        ),
        Paper(id="plain", title="Nothing attached", abstract="Serving quokkas.", year=2021),
    ]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    folder = tmp_path_factory.mktemp("fulltext")
    pdf, scan = paper_pdf(folder), scanned_pdf(folder / "scan.pdf")
    papers = _papers(pdf, scan)
    cache = folder / "cache"
    engine = open_engine(Library(papers=tuple(papers)), TAXONOMY, cache)
    for _ in ExtractionPool(cache, workers=0).read([Job(str(pdf)), Job(str(scan))]):
        pass
    assert sync_fulltext(cache, papers).pages == 2
    yield engine
    engine.close()


def search(engine: SearchEngine, query: str, **options: object) -> SearchResult:
    return engine.search(SearchRequest(query, **options))  # type: ignore[arg-type]


def ids(result: SearchResult) -> list[str]:
    return [hit.paper.id for hit in result.hits]


def test_a_plain_word_matches_the_full_text_below_the_library_fields(engine: SearchEngine) -> None:
    result = search(engine, "quokkas")
    # Title and abstract matches first (by their own ranking), the full-text match after.
    assert ids(result) == ["quokka-bio", "plain", "paging"]
    assert [hit.page_match is not None for hit in result.hits] == [False, False, True]
    found = result.hits[2].page_match
    assert found is not None and found.page == 1 and found.path.endswith("paper.pdf")
    assert "quokkas" in found.snippet.plain
    assert any(s.highlighted and s.text == "quokkas" for s in found.snippet.segments)


def test_the_page_is_the_one_holding_the_words(engine: SearchEngine) -> None:
    result = search(engine, "pythagoras")
    assert ids(result) == ["paging"]
    found = result.hits[0].page_match
    assert found is not None and found.page == 2
    assert found.snippet.plain.startswith("On page two, the theorem of Pythagoras")


def test_fulltext_field_searches_the_pages_alone(engine: SearchEngine) -> None:
    assert ids(search(engine, "fulltext:quokkas")) == ["paging"]
    assert ids(search(engine, "fulltext:marsupials")) == []  # an abstract's word
    # Excluded by the pages: every paper without the word in an attachment.
    assert sorted(ids(search(engine, "-fulltext:quokkas"))) == ["plain", "quokka-bio", "scanned"]
    # A plain word excluded is excluded by the library's fields, as before.
    assert ids(search(engine, "serving -quokkas")) == ["paging"]
    # With a field of the library: both must hold.
    assert ids(search(engine, "title:memory fulltext:pythagoras")) == ["paging"]
    assert ids(search(engine, "title:quokka fulltext:pythagoras")) == []
    # A prefix, a fuzzy word and a pattern, in the pages' own words.
    assert ids(search(engine, "fulltext:quo*")) == ["paging"]
    assert ids(search(engine, "fulltext:quokas~")) == ["paging"]
    fuzzy = search(engine, "fulltext:quokas~").hits[0].page_match
    assert fuzzy is not None and fuzzy.page == 1
    assert any(s.highlighted and s.text == "quokkas" for s in fuzzy.snippet.segments)
    assert ids(search(engine, "fulltext:quok?as")) == ["paging"]
    # Any text at all (the scan has none): with and without.
    assert ids(search(engine, "fulltext:*")) == ["paging"]
    assert sorted(ids(search(engine, "-fulltext:*"))) == ["plain", "quokka-bio", "scanned"]
    assert ids(search(engine, 'fulltext:"kv', as_you_type=True)) == ["paging"]
    hit = search(engine, "title:memory fulltext:pythagoras").hits[0]
    assert hit.page_match is not None and hit.page_match.page == 2


def test_phrases_match_on_a_page(engine: SearchEngine) -> None:
    assert ids(search(engine, '"kv cache is paged"')) == ["paging"]
    assert ids(search(engine, 'fulltext:"kv cache"')) == ["paging"]
    assert ids(search(engine, 'fulltext:"cache kv"')) == []
    found = search(engine, '"kv cache"').hits[0].page_match
    assert found is not None and found.page == 1
    assert "KV cache is paged" in found.snippet.plain


def test_words_may_come_from_the_fields_and_the_pages(engine: SearchEngine) -> None:
    # "memory" is in the title, "pythagoras" only on page 2.
    assert ids(search(engine, "memory pythagoras")) == ["paging"]
    # Both in the library's fields of another paper: that paper ranks first.
    assert ids(search(engine, "serving quokkas")) == ["plain", "paging"]


def test_facet_counts_count_the_full_text_matches(engine: SearchEngine) -> None:
    result = search(engine, "quokkas")
    years = {count.value: count.count for count in result.facets["year"]}
    assert result.total == 3 and sum(years.values()) == 3 and years["2023"] == 1
    narrowed = search(engine, "quokkas", years=frozenset({2023}))
    assert ids(narrowed) == ["paging"] and narrowed.total == 1


def test_the_word_being_typed_matches_the_pages_as_a_prefix(engine: SearchEngine) -> None:
    assert ids(search(engine, "pythag", as_you_type=True)) == ["paging"]
    # A word typed whole is its stem in the pages, which no page word starts with.
    assert ids(search(engine, "pythagoras", as_you_type=True)) == ["paging"]
    assert ids(search(engine, "fulltext:pythag", as_you_type=True)) == ["paging"]
    # Too short to look for in the pages: the library's fields only.
    assert "paging" not in ids(search(engine, "py", as_you_type=True))


def test_a_scan_is_no_match(engine: SearchEngine) -> None:
    assert "scanned" not in ids(search(engine, "fulltext:page"))


def test_an_open_engine_sees_a_later_sync(tmp_path: Path) -> None:
    pdf = paper_pdf(tmp_path)
    papers = [
        Paper(id="a", title="First", attachments=(str(pdf),)),
        Paper(id="b", title="Second"),
    ]
    cache = tmp_path / "cache"
    engine = open_engine(Library(papers=tuple(papers)), TAXONOMY, cache)
    try:
        assert ids(search(engine, "quokkas")) == []
        for _ in ExtractionPool(cache, workers=0).read([Job(str(pdf))]):
            pass
        sync_fulltext(cache, papers)
        assert ids(search(engine, "quokkas")) == ["a"]  # the same request: not cached
        moved = [
            Paper(id="a", title="First"),
            Paper(id="b", title="Second", attachments=(str(pdf),)),
        ]
        sync_fulltext(cache, moved)
        assert ids(search(engine, "quokkas")) == ["b"]
        # Another library synced in the same cache: its papers' pages are not this one's.
        sync_fulltext(cache, [Paper(id="elsewhere", title="X", attachments=(str(pdf),))])
        assert ids(search(engine, "quokkas")) == ["b"]
    finally:
        engine.close()


def test_text_without_page_breaks_has_no_page_number(tmp_path: Path) -> None:
    # Zotero's cached text without form feeds (index.fulltext.zotero_cache): one block.
    attachment = tmp_path / "zotero.pdf"
    attachment.write_bytes(b"%PDF-1.4 stand-in")
    cache = tmp_path / "cache"
    store = FulltextStore(cache)
    store.put(store.digest(attachment), Extracted(pages=("a wombat burrows",), paged=False))
    store.save_files()
    papers = [Paper(id="z", title="Zotero item", attachments=(str(attachment),))]
    engine = open_engine(Library(papers=tuple(papers)), TAXONOMY, cache)
    try:
        sync_fulltext(cache, papers)
        found = search(engine, "wombat").hits[0].page_match
        assert found is not None and found.page is None
        assert found.snippet.plain == "a wombat burrows"
    finally:
        engine.close()
