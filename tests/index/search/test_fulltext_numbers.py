"""Numbers in a full-text phrase behave as in the library's fields (README, query syntax).

The pages are analyzed as the abstracts are (`stem_analyzer`): a word of one character,
a single digit among them, is dropped, and a phrase's other words must then be next to each
other. So `fulltext:"page 2"` is `fulltext:page`, as `"page 2"` is `page` in an abstract;
a number of two digits or more is a word like any other and must be there.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from index import load_taxonomy, open_engine
from index.fulltext import sync_fulltext
from index.fulltext.pool import ExtractionPool, Job
from index.models import Library, Paper, SearchRequest
from index.search.engine import SearchEngine
from tests.index.fulltext.pdfs import text_pdf

PAGES = [
    "The number 7 appears on page 5 of the report.",
    "The number 8 appears on page 9 of the report.",
    "Results are listed in table 12 below.",
    "Results are listed in table 13 below.",
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    folder = tmp_path_factory.mktemp("numbers")
    pdf = text_pdf(folder / "numbers.pdf", PAGES)
    papers = [
        Paper(id="report", title="A report", abstract="Numbers.", attachments=(str(pdf),)),
        Paper(id="other", title="Another", abstract="The number 8 appears on page 9."),
    ]
    cache = folder / "cache"
    engine = open_engine(Library(papers=tuple(papers)), load_taxonomy(), cache)
    for _ in ExtractionPool(cache, workers=0).read([Job(str(pdf))]):
        pass
    assert sync_fulltext(cache, papers).pages == 4
    yield engine
    engine.close()


def _pages(engine: SearchEngine, query: str) -> list[tuple[str, int | None]]:
    result = engine.search(SearchRequest(query))
    return [(hit.paper.id, hit.page_match.page if hit.page_match else None) for hit in result.hits]


def test_a_number_of_two_digits_must_be_on_the_page(engine: SearchEngine) -> None:
    assert _pages(engine, 'fulltext:"table 12"') == [("report", 3)]
    assert _pages(engine, 'fulltext:"table 13"') == [("report", 4)]
    assert _pages(engine, 'fulltext:"table 14"') == []


def test_a_single_digit_is_dropped_as_in_the_abstracts(engine: SearchEngine) -> None:
    # "page 5" is searched as "page": both pages of the report have it (page 1 scores
    # first), as the abstract of "other" matches `"page 5"` without a 5.
    assert _pages(engine, 'fulltext:"page 5"') == [("report", 1)]
    assert _pages(engine, 'abstract:"page 5"') == [("other", None)]
    # The phrase's other words must still be next to each other, digits left out.
    assert _pages(engine, 'fulltext:"number 7 appears on page 5"') == [("report", 1)]
    assert _pages(engine, 'fulltext:"appears number"') == []
