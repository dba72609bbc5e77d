"""A query that finds almost nothing because of a typo that made a rare real word.

A psychology lab's `.bib` has `retreival` in one abstract (its own typo) and `retrieval`
in hundreds: `retreival practice` found that one paper and stopped there. Issue 47: such a
query is retried with the rare word fuzzy, and the exact matches stay first.
"""

from __future__ import annotations

from index.models import Paper, SearchRequest
from index.search.engine import SearchEngine
from index.search.typos import FEW
from tests.index.search.small_engines import engine_on

PAPERS = (
    Paper(
        id="typo",
        title="Testing effects in the classroom",
        abstract="Retreival practice helps students remember.",
        year=2010,
    ),
    *(
        Paper(
            id=f"retrieval-{n}",
            title=f"Retrieval practice study {n}",
            abstract="Memory retrieval improves learning.",
            year=2000 + n,
        )
        for n in range(12)
    ),
    Paper(id="coarse", title="Coarse coding of space", abstract="Grid cells.", year=2001),
    Paper(id="scale", title="Memory at scale", year=2002),
    Paper(id="ratts", title="Mixed models", authors=("Doug Ratts",), year=2015),
    *(
        Paper(id=f"rates-{n}", title=f"Error rates {n}", abstract="Rates.", year=2015)
        for n in range(12)
    ),
    Paper(id="sacre", title="Le sacre du printemps", year=1913),
    *(
        Paper(id=f"course-{n}", title=f"A course on neurons {n}", abstract="Lectures.", year=1990)
        for n in range(3)
    ),
)

engine = engine_on(PAPERS, "few-matches")


def test_a_rare_typo_of_a_common_word_is_retried_and_the_exact_match_stays_first(
    engine: SearchEngine,
) -> None:
    result = engine.search(SearchRequest("retreival practice", limit=5))
    assert result.total == 13
    assert result.hits[0].paper.id == "typo"
    assert len(result.hits) == 5
    assert result.notice == f"{FEW} retreival~2 practice"


def test_a_rare_word_with_no_common_word_near_is_left_alone(engine: SearchEngine) -> None:
    """`coarse` is one paper's; "course" is in three, not ten times as many: no typo."""
    result = engine.search(SearchRequest("coarse coding"))
    assert [hit.paper.id for hit in result.hits] == ["coarse"]
    assert result.notice is None


def test_a_rare_name_is_no_typo(engine: SearchEngine) -> None:
    """`Ratts` is one author's name, "rates" a word of twelve papers: the author is meant."""
    result = engine.search(SearchRequest("ratts 2015"))
    assert [hit.paper.id for hit in result.hits] == ["ratts"]
    assert result.notice is None


def test_while_typing_nothing_is_retried(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("retreival practice", as_you_type=True))
    assert result.total == 1 and result.notice is None


def test_two_swapped_letters_are_the_correction_before_another_word_one_edit_off(
    engine: SearchEngine,
) -> None:
    """`sacle` is "scale" with two letters swapped (two edits to the automata) and "sacre"
    with one replaced: the swap is the commoner typo, and the retry shows "scale" too."""
    result = engine.search(SearchRequest("sacle"))
    assert result.correction == "scale"
    assert [hit.paper.id for hit in result.hits] == ["scale"]
