"""Words with several wildcards (`p*e*`, `s?e*`) stay within a normal query's work budget.

Whoosh searched every word fitting the pattern: on 10,000 synthetic papers `p*e*` fits 2,250
abstract words and took 8x a two-word query (`benchmarks/hostile_queries.py` times it). A
library of made-up words shows it at test size: 1,000 words start with p, half of them fit
`p*e*`, and both the normal query and the wildcards fill a page of hits (on the 47 bundled
papers the page is most of the cost of any broad query, wildcard or not).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from index import open_engine
from index.facets.taxonomy import load_taxonomy
from index.models import Library, Paper, SearchRequest, Source
from index.search.engine import SearchEngine
from index.search.prefixes import PrefixExpander
from index.search.tables import read_table
from index.search.wildcards import expand_wildcard
from tests.torture.test_queries import WORK_BUDGET, work_ratio

SYLLABLES = ("ra", "te", "no", "ki", "lu", "me", "so", "va", "di", "ze")
COMMON = "pipeline training model scheduling memory the of and".split()
WILDCARD_QUERIES = {query: query for query in ("p*e*", "s?e*", "p*e* s*a*", "title:p*e*")}


def wordy_library(papers: int = 300, words: int = 40) -> Library:
    """Abstracts of 40 made-up words from 2,000 (`p`/`s` and three syllables) and 4 real ones."""
    rng = random.Random(14)
    vocabulary = [
        start + "".join(syllables)
        for start in "ps"
        for syllables in itertools.product(SYLLABLES, repeat=3)
    ]
    library = []
    for n in range(papers):
        body = rng.sample(vocabulary, words) + rng.sample(COMMON, 4)
        rng.shuffle(body)
        library.append(
            Paper(
                id=f"w{n}",
                title=f"Paper {n} on pipeline training",
                abstract=" ".join(body),
                sources=(Source("wordy.bib"),),
            )
        )
    return Library(papers=tuple(library))


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    engine = open_engine(wordy_library(), load_taxonomy(), tmp_path_factory.mktemp("wordy"))
    yield engine
    engine.close()


@pytest.mark.parametrize("as_you_type", [False, True], ids=["submitted", "as-you-type"])
@pytest.mark.parametrize("query", list(WILDCARD_QUERIES.values()))
def test_a_many_wildcard_query_stays_within_the_work_budget(
    engine: SearchEngine, query: str, as_you_type: bool
) -> None:
    ratio = work_ratio(engine, query, as_you_type)
    assert ratio < WORK_BUDGET, (query, round(ratio, 2))


@pytest.mark.parametrize(("query", "fitting"), [("p*e*", "26+"), ("s?e*", "12+")])
def test_a_capped_wildcard_says_what_it_searched(
    engine: SearchEngine, query: str, fitting: str
) -> None:
    result = engine.search(SearchRequest(query=query))
    assert result.partial
    assert result.notice == (
        f"Wildcards capped: {query} searched for the 8 commonest of {fitting} words it fits"
    )
    assert result.total >= 50  # a page of hits all the same


@pytest.mark.parametrize(
    ("pattern", "cap"), [("p*e*", 8), ("s?e*", 8), ("s*a*", 8), ("p?a*", 8), ("pt*o*", 24)]
)
def test_the_commonest_completions_give_the_same_terms_as_a_walk_of_the_lexicon(
    engine: SearchEngine, pattern: str, cap: int
) -> None:
    """The build-time table holds a short start's 64 commonest completions: when enough of
    them fit, they are the commonest fitting terms of the whole field."""
    with engine.opened.index.searcher() as searcher:
        reader = searcher.reader()
        table = read_table(engine.opened.path)
        assert table and "p" in table["abstract"]
        quick = expand_wildcard(PrefixExpander(table), reader, "abstract", pattern)
        walked = expand_wildcard(PrefixExpander(None), reader, "abstract", pattern)
    assert quick.terms == walked.terms and len(quick.terms) == cap
    assert quick.more and walked.fitting >= quick.fitting  # a lower bound, said as "N+"
