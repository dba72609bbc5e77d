"""A whole query that is a paper's id or citation key, as written, finds that paper first.

`westfahl:space` typed in the search bar (or given to `paperscope pick`) is no field query
and, split into words, would find nothing or the wrong paper; it is what the user's file
calls one paper, so that paper comes first, exactly as `show` and `cite` find it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from index import open_engine
from index.library.lookup import paper_name
from index.models import Library, Paper, SearchRequest
from index.search.engine import SearchEngine
from tests.fixtures.search.generate import TAXONOMY

PAPERS = (
    Paper(id="westfahl-space", title="The True Frontier", citation_key="westfahl:space", year=2000),
    Paper(id="doe-78", title="Doe Looks at Weaving", citation_key="Doe:78", year=1978),
    Paper(id="smith_2020", title="Smith on Looms", citation_key="Smith_2020", year=2020),
    # Many papers about FeatGraph, one of them with the id `featgraph`.
    Paper(
        id="featgraph", title="A Backend for Graph Networks", abstract="Sparse kernels.", year=2020
    ),
    *(
        Paper(
            id=f"about-{n}",
            title=f"FeatGraph FeatGraph study {n}",
            abstract="FeatGraph FeatGraph FeatGraph.",
            year=2021,
        )
        for n in range(3)
    ),
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    engine = open_engine(Library(papers=PAPERS), TAXONOMY, tmp_path_factory.mktemp("cache"))
    yield engine
    engine.close()


def ranked(engine: SearchEngine, text: str, **options: object) -> list[str]:
    result = engine.search(SearchRequest(text, limit=100, **options))  # type: ignore[arg-type]
    return [hit.paper.id for hit in result.hits]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("westfahl:space", "westfahl-space"),
        ("Doe:78", "doe-78"),
        ("Smith_2020", "smith_2020"),
        (" doe-78 ", "doe-78"),  # paperscope's id too
    ],
)
def test_a_key_or_id_as_the_whole_query_finds_its_paper(
    engine: SearchEngine, text: str, expected: str
) -> None:
    result = engine.search(SearchRequest(text, limit=100))
    assert [hit.paper.id for hit in result.hits][:1] == [expected]
    assert result.notice is None  # `Doe:78` is not reported as a broken field query
    assert ranked(engine, text, as_you_type=True)[:1] == [expected]  # typed in the app


def test_an_id_that_is_also_a_word_comes_first_and_the_word_still_finds(
    engine: SearchEngine,
) -> None:
    found = ranked(engine, "featgraph")
    assert found[0] == "featgraph"  # its id; on words alone the studies score higher
    assert set(found[1:]) == {"about-0", "about-1", "about-2"}
    # Other orders than relevance keep their own order: the name adds no rank there.
    assert ranked(engine, "featgraph", sort="year")[-1] == "featgraph"


def test_keys_are_found_in_any_case_but_names_are_whole(engine: SearchEngine) -> None:
    """A citation key in any case, as fzf-bibtex users type theirs; the id as written."""
    assert ranked(engine, "doe:78") == ["doe-78"]  # the key `Doe:78`
    assert ranked(engine, "DOE:78") == ["doe-78"]
    assert ranked(engine, "westfahl:space gpu") == []  # two words: no longer a name


def test_what_can_be_a_name() -> None:
    assert paper_name(" westfahl:space ") == "westfahl:space"
    assert [paper_name(t) for t in ("two words", '"quoted"', "(x)", "")] == [None] * 4
