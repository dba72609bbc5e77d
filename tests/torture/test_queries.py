"""Pathological queries stay cheap and never raise: each one's work is held to a budget.

The work is counted, not timed: the Python calls one search makes (cProfile's count) are
the same on a loaded CI machine as on an idle one, where CPU seconds are not (a 2.9x
query measured 3.4x next to two busy test workers). An uncapped expansion or a query
read character by character costs hundreds of times a normal search, far past the
budget. The time ratio itself (issue 14: under 3x a normal query) is measured by
`benchmarks/hostile_queries.py`.
"""

from __future__ import annotations

import cProfile
from collections.abc import Iterator

import pytest

from index import open_engine
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.models import SearchRequest
from index.search.engine import SearchEngine

HOSTILE_QUERIES = {
    "100 KB single word": "a" * 100_000,
    "100 KB of words": "word " * 20_000,
    "star alone": "*",
    "stars": "* * ?",
    "absurd year": "year:99999999999999999999",
    "reversed range": "year:2024..2020",
    "1,000 nested parentheses": "(" * 1000 + "pipeline" + ")" * 1000,
    "only stop words": "the of and a",
    "CJK": "深度学习 模型",
    "emoji": "🙂🚀 ~ *",
    "fuzzy with huge distance": "abcdefghijklmnopqrstuvwxyz~5",
    "many fuzzy words": " ".join(f"word{i}~2" for i in range(200)),
    "short fuzzy": "a~2 b~2 c~2 d~2",
    "open quotes": '"' * 501,
    "field with a 5 KB value": "title:" + "x" * 5000,
    "lone operator": "OR",
    "control characters": "pipe\x1b[2Jline\x00",
    "leading wildcard": "*ing title:?ache",
    "16th word an operator": " ".join(["pipeline"] * 15 + ["OR", "gpu", "x"]),
    "cut inside a phrase": " ".join(["pipeline"] * 14) + ' "training memory bubbles"',
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    taxonomy = load_taxonomy()
    engine = open_engine(load_library(None, taxonomy), taxonomy, tmp_path_factory.mktemp("idx"))
    yield engine
    engine.close()


def calls(engine: SearchEngine, query: str, as_you_type: bool) -> int:
    """The Python calls of one search done in full (nothing cached), as a session's first is."""
    engine.forget_cached()
    profile = cProfile.Profile()
    profile.enable()
    engine.search(SearchRequest(query=query, as_you_type=as_you_type))
    profile.disable()
    return sum(entry.callcount for entry in profile.getstats())


def work_ratio(engine: SearchEngine, query: str, as_you_type: bool) -> float:
    """The hostile query's calls over the normal query's (the fewer of two runs each)."""
    normal = min(calls(engine, NORMAL, as_you_type) for _ in range(2))
    hostile = min(calls(engine, query, as_you_type) for _ in range(2))
    return hostile / normal


NORMAL = "pipeline training"
# A hostile query makes at most this many times a normal one's calls. The heaviest capped
# queries make 2-7x (200 fuzzy words, a 16-word cut, many wildcards); before the caps a
# 100 KB word or `p*e*` made hundreds of times more. (6 until the normal query's
# highlighting and counting moved into C, issue 50: its calls fell from ~9,000 to ~7,100,
# 200 fuzzy words' stayed ~47,500, 5.3x -> 6.7x.)
WORK_BUDGET = 8


@pytest.mark.parametrize("as_you_type", [False, True], ids=["submitted", "as-you-type"])
@pytest.mark.parametrize("name", list(HOSTILE_QUERIES))
def test_a_hostile_query_stays_within_its_work_budget_and_never_raises(
    engine: SearchEngine, name: str, as_you_type: bool
) -> None:
    query = HOSTILE_QUERIES[name]
    result = engine.search(SearchRequest(query=query, as_you_type=as_you_type))
    assert result.total >= 0
    ratio = work_ratio(engine, query, as_you_type)
    assert ratio < WORK_BUDGET, (name, round(ratio, 2))


@pytest.mark.parametrize(
    "name",
    [
        "100 KB single word",
        "100 KB of words",
        "1,000 nested parentheses",
        "fuzzy with huge distance",
        "many fuzzy words",
        "short fuzzy",
        "open quotes",
        "leading wildcard",
        "16th word an operator",
        "cut inside a phrase",
    ],
)
def test_a_capped_query_says_so(engine: SearchEngine, name: str) -> None:
    result = engine.search(SearchRequest(query=HOSTILE_QUERIES[name]))
    assert result.notice and "capped" in result.notice


@pytest.mark.parametrize(
    ("name", "kept"),
    [("16th word an operator", "pipeline"), ("cut inside a phrase", "pipeline")],
)
def test_a_query_cut_at_16_words_searches_the_whole_parts_it_kept(
    engine: SearchEngine, name: str, kept: str
) -> None:
    """No dangling `OR` (the query was unparsable and searched as loose words), no phrase
    cut short (`"training` searched as a phrase of one word)."""
    result = engine.search(SearchRequest(query=HOSTILE_QUERIES[name], limit=100))
    assert result.notice is not None and "Could not parse" not in result.notice
    assert "quote" not in result.notice.lower()
    assert result.total == engine.search(SearchRequest(query=kept, limit=100)).total > 0


def test_a_fuzzy_word_gets_the_edits_its_length_bears_and_the_status_says_so(
    engine: SearchEngine,
) -> None:
    capped = engine.search(SearchRequest(query="pipelne~5"))
    assert capped.notice == "Fuzzy words capped: pipelne~5 searched within 2 edits (7 letters)"
    assert capped.total == engine.search(SearchRequest(query="pipelne~2")).total > 0
    assert engine.search(SearchRequest(query="pipelne~2")).notice is None
    # Two letters: no edit at all (one would match every short word).
    assert "ab~1 searched as written" in (engine.search(SearchRequest(query="ab~1")).notice or "")


def test_only_the_first_fuzzy_words_are_fuzzy(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest(query="pipelne~ " + " ".join(f"w{i}x~" for i in range(6))))
    assert result.notice is not None
    assert "only the first 4 fuzzy words searched fuzzily, 3 more as written" in result.notice


def test_a_reversed_year_range_means_the_same_years(engine: SearchEngine) -> None:
    forward = engine.search(SearchRequest(query="year:2020..2024", limit=100))
    backward = engine.search(SearchRequest(query="year:2024..2020", limit=100))
    assert forward.total == backward.total > 0


@pytest.mark.parametrize("query, expected", [("pipelne~", "pipeline"), ("sheduling~", "schedul")])
def test_fuzzy_words_match_the_unstemmed_surface_words(
    engine: SearchEngine, query: str, expected: str
) -> None:
    """The README's own examples: Whoosh stems `pipelne` to `pipeln`, two edits from
    `pipeline`; the typed word is compared with the words as written instead."""
    result = engine.search(SearchRequest(query=query, limit=50))
    matching = [
        hit for hit in result.hits if expected in (hit.paper.title + hit.paper.abstract).lower()
    ]
    assert len(matching) >= 2 and result.hits[0] in matching
