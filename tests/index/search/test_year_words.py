"""A paper named as researchers name it: `olshausen 1996`, `Olshausen et al. (1996)`.

A bare word that reads as a year also matches that year's papers, as Zotero's quick
search matches title, creator and year alike; "et al." among other words is no
requirement. On the real exports `olshausen field 1996` and `Olshausen et al. 1996` found
nothing: the year, and "al", were words the text had to hold.
"""

from __future__ import annotations

import pytest

from index.models import Paper, SearchRequest
from index.search.engine import SearchEngine
from tests.index.search.small_engines import engine_on

PAPERS = (
    Paper(
        id="olshausen96",
        title="Emergence of simple-cell receptive field properties by learning a sparse code",
        authors=("B A Olshausen", "D J Field"),
        year=1996,
    ),
    Paper(
        id="olshausen04",
        title="Sparse coding of sensory inputs",
        authors=("B A Olshausen", "D J Field"),
        year=2004,
    ),
    Paper(
        id="comment",
        title="A comment on Olshausen and Field (1996)",
        authors=("A Critic",),
        year=1998,
    ),
    Paper(
        id="tokens",
        title="Attention over 1024 tokens",
        abstract="Olshausen style sparse attention over 1024 tokens.",
        year=2020,
    ),
    Paper(id="undated", title="Olshausen, undated notes"),
)


engine = engine_on(PAPERS, "year-words")


def _found(engine: SearchEngine, query: str, as_you_type: bool = False) -> set[str]:
    result = engine.search(SearchRequest(query, limit=20, as_you_type=as_you_type))
    assert result.total == len(result.hits)
    return {hit.paper.id for hit in result.hits}


def test_author_and_year_find_that_years_paper_and_text_that_names_the_year(
    engine: SearchEngine,
) -> None:
    assert _found(engine, "olshausen field 1996") == {"olshausen96", "comment"}
    assert _found(engine, "olshausen 2004") == {"olshausen04"}


def test_the_year_matches_while_it_is_typed_as_the_last_word(engine: SearchEngine) -> None:
    assert _found(engine, "olshausen 1996", as_you_type=True) == {"olshausen96", "comment"}
    # Three digits are no year yet: only words that start with them.
    assert _found(engine, "olshausen 199", as_you_type=True) == {"comment"}


def test_a_year_alone_is_every_paper_of_that_year_and_the_texts_naming_it(
    engine: SearchEngine,
) -> None:
    assert _found(engine, "2004") == {"olshausen04"}
    assert _found(engine, "1996") == {"olshausen96", "comment"}


def test_a_number_that_is_no_year_and_a_field_word_stay_words(engine: SearchEngine) -> None:
    assert _found(engine, "olshausen 1024") == {"tokens"}
    assert _found(engine, "title:1996") == {"comment"}
    assert _found(engine, '"olshausen 1996"') == set()  # a phrase's words are words


def test_a_year_word_ranks_by_the_text_alone(engine: SearchEngine) -> None:
    # The year filters; the words rank (the year adds nothing to a score).
    ranked = engine.search(SearchRequest("olshausen 1996", limit=5)).hits
    scores = {hit.paper.id: hit.score for hit in ranked}
    plain = {hit.paper.id: hit.score for hit in engine.search(SearchRequest("olshausen")).hits}
    assert scores["olshausen96"] == pytest.approx(plain["olshausen96"])


@pytest.mark.parametrize(
    "query", ["Olshausen et al. 1996", "olshausen et al 1996", "Olshausen, et al., (1996)"]
)
def test_et_al_of_a_citation_is_no_requirement(engine: SearchEngine, query: str) -> None:
    assert _found(engine, query) == {"olshausen96", "comment"}
