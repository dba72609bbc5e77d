"""Finding a paper one knows: identifiers typed or pasted, keys in any case, typos.

Each query is what a researcher types or pastes to reach one paper (issue 47); the paper
must come first, and a query whose words find nothing is retried with fuzzy words.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from index import open_engine
from index.models import Library, Paper, SearchRequest
from index.search.engine import SearchEngine
from index.search.known_items import Identifier, identify
from index.search.syntax import with_fuzzy
from index.search.typos import retries
from tests.fixtures.search.generate import TAXONOMY

PAPERS = (
    Paper(
        id="sas",
        title="Sparse Attention Synthesizer for Language Models",
        doi="10.1145/3767295.3769364",
        authors=("Ada Park",),
        year=2025,
    ),
    Paper(
        id="other-acm",
        title="Scheduling Pipelines on Clusters",
        doi="10.1145/3620665.3640399",
        year=2024,
    ),
    Paper(id="not-acm", title="A Paper Elsewhere", doi="10.1000/xyz.1", year=2020),
    Paper(id="accelopt", title="Self-Improving Agents for Accelerators", arxiv="2511.15915"),
    Paper(id="strings", title="Strings and Branes", arxiv="hep-th/9901001", year=1999),
    Paper(id="slapo", title="A Schedule Language", url="https://github.com/awslabs/slapo/"),
    Paper(id="book", title="Cataloguing Books", isbn="9780306406157", pmid="4160180"),
    Paper(id="ijcai", title="Heuristic Methods", citation_key="ijcai73*524"),
    Paper(id="ijcai-other", title="Other Heuristic Methods", citation_key="ijcai73*500"),
    Paper(
        id="xie-2003",
        title="Watching Over Data Arrays",
        citation_key="XieN2003:WODA",
        authors=("Ning Xie",),
        year=2003,
    ),
    Paper(
        id="brown-2020",
        title="Language models are few-shot learners",
        authors=("Tom Brown",),
        year=2020,
    ),
    Paper(
        id="lerner-2019",
        title="Neural circuits of prediction",
        authors=("Jane Lerner",),
        year=2019,
    ),
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    engine = open_engine(Library(papers=PAPERS), TAXONOMY, tmp_path_factory.mktemp("known"))
    yield engine
    engine.close()


def ranked(engine: SearchEngine, text: str, as_you_type: bool = False) -> list[str]:
    result = engine.search(SearchRequest(text, limit=20, as_you_type=as_you_type))
    return [hit.paper.id for hit in result.hits]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.1145/3767295.3769364", Identifier("DOI", "doi", "10.1145/3767295.3769364")),
        ("doi:10.1145/3767295.3769364", Identifier("DOI", "doi", "10.1145/3767295.3769364")),
        ("DOI: 10.1145/3767295.3769364", Identifier("DOI", "doi", "10.1145/3767295.3769364")),
        (
            "https://doi.org/10.1145/3767295.3769364",
            Identifier("DOI", "doi", "10.1145/3767295.3769364"),
        ),
        (
            "(HTTP://DX.DOI.ORG/10.1145/3767295.3769364).",
            Identifier("DOI", "doi", "10.1145/3767295.3769364"),
        ),
        ("https://doi.org/10.1000%2Fxyz.1", Identifier("DOI", "doi", "10.1000/xyz.1")),
        ("doi:10.1145", Identifier("DOI", "doi", "10.1145/", prefix=True)),
        ("2511.15915", Identifier("arXiv id", "arxiv", "2511.15915")),
        ("2511.15915v2", Identifier("arXiv id", "arxiv", "2511.15915")),
        ("arXiv:2511.15915", Identifier("arXiv id", "arxiv", "2511.15915")),
        ("https://arxiv.org/abs/2511.15915v3", Identifier("arXiv id", "arxiv", "2511.15915")),
        ("https://arxiv.org/pdf/2511.15915v1.pdf", Identifier("arXiv id", "arxiv", "2511.15915")),
        ("hep-th/9901001", Identifier("arXiv id", "arxiv", "hep-th/9901001")),
        ("https://GitHub.com/awslabs/slapo", Identifier("URL", "url", "github.com/awslabs/slapo")),
        ("978-0-306-40615-7", Identifier("ISBN", "isbn", "9780306406157")),
        ("0-306-40615-2", Identifier("ISBN", "isbn", "9780306406157")),
        ("pmid:12345678", Identifier("PMID", "pmid", "12345678")),
    ],
)
def test_identifiers_are_read_in_every_form(text: str, expected: Identifier) -> None:
    assert identify(text) == (expected,)


@pytest.mark.parametrize(
    "text", ["memory", "few-shot learners", "3.14", "2013.99", "0-306-40615-3", "doi:memory"]
)
def test_words_and_numbers_are_no_identifiers(text: str) -> None:
    assert identify(text) == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.1145/3767295.3769364", "sas"),
        ("https://doi.org/10.1145/3767295.3769364", "sas"),
        ("HTTP://DX.DOI.ORG/10.1145/3767295.3769364.", "sas"),
        ("doi:10.1145/3767295.3769364", "sas"),
        ("2511.15915", "accelopt"),
        ("2511.15915v2", "accelopt"),
        ("arXiv:2511.15915", "accelopt"),
        ("https://arxiv.org/pdf/2511.15915v1.pdf", "accelopt"),
        ("hep-th/9901001", "strings"),
        ("https://github.com/awslabs/slapo", "slapo"),
        ("0-306-40615-2", "book"),
        ("978-0-306-40615-7", "book"),
        ("9780306406157", "book"),
        ("pmid:4160180", "book"),
        ("xien2003:woda", "xie-2003"),
        ("XIEN2003:WODA", "xie-2003"),
        ("XieN20*", "xie-2003"),
        ("key:XieN2003*", "xie-2003"),
        ("key:xien2003:wodb~", "xie-2003"),
        ("ijcai73*52*", "ijcai"),  # a key holding a `*`, by prefix
    ],
)
def test_an_identifier_or_key_goes_to_its_paper(
    engine: SearchEngine, text: str, expected: str
) -> None:
    assert ranked(engine, text)[:1] == [expected]
    assert ranked(engine, text, as_you_type=True)[:1] == [expected]  # pasted in the app


def test_a_key_being_typed_finds_its_paper(engine: SearchEngine) -> None:
    assert ranked(engine, "XieN20", as_you_type=True)[:1] == ["xie-2003"]


def test_a_doi_prefix_finds_the_publishers_papers(engine: SearchEngine) -> None:
    assert set(ranked(engine, "doi:10.1145")) == {"sas", "other-acm"}
    assert set(ranked(engine, "doi:10.1145 scheduling")) == {"other-acm"}
    # Each of them comes first, but no more of them than were asked for.
    one = engine.search(SearchRequest("doi:10.1145", limit=1))
    assert one.total == 2 and [hit.paper.id for hit in one.hits] in (["sas"], ["other-acm"])


def test_a_key_with_a_typo_is_found_fuzzily(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("xien2003:wodb"))
    assert [hit.paper.id for hit in result.hits] == ["xie-2003"]
    assert result.notice == "No exact match: showing results for key:xien2003:wodb~"


def test_words_that_find_nothing_are_retried_fuzzily(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("few-shot lerners"))
    assert [hit.paper.id for hit in result.hits] == ["brown-2020"]
    assert result.notice == "No exact match: showing results for few-shot lerners~"
    # "did you mean" weighs the word by the rest: title words, not the author Lerner.
    assert result.correction == "few shot learners"


def test_two_swapped_letters_are_put_back(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("langauge models"))
    assert {hit.paper.id for hit in result.hits} == {"brown-2020", "sas"}
    assert result.notice == "No exact match: showing results for language models"


def test_a_word_cut_short_is_a_typo_once_the_query_is_submitted(engine: SearchEngine) -> None:
    """`attenti` begins a title word, so it finds papers while typed; submitted, it is an
    unknown word: made fuzzy, and corrected. The stop word `for` stays as typed."""
    assert ranked(engine, "sparse attenti", as_you_type=True) == ["sas"]
    result = engine.search(SearchRequest("sparse attenti for"))
    assert result.notice == "No exact match: showing results for sparse attenti~2 for"
    assert [hit.paper.id for hit in result.hits] == ["sas"]
    assert result.correction == "sparse attention for"


def test_a_correction_is_a_name_among_names(engine: SearchEngine) -> None:
    """`lerners jane`: Jane is a name, so the word near Lerner is taken as a name."""
    assert engine.search(SearchRequest("lerners jane")).correction == "lerner jane"
    assert engine.search(SearchRequest("lerners")).correction == "learners"


def test_a_correction_that_finds_nothing_is_not_offered(engine: SearchEngine) -> None:
    # Both words are near real words, but no paper has "learners" and "circuits".
    result = engine.search(SearchRequest("lerners circuts", years=frozenset({2020})))
    assert result.correction is None


def test_filters_that_leave_nothing_are_no_typo(engine: SearchEngine) -> None:
    """`language` finds papers, none of 1999: that is the filter's doing, not a typo."""
    result = engine.search(SearchRequest("language", years=frozenset({1999})))
    assert result.total == 0 and result.notice is None


def test_nothing_found_even_fuzzily_says_what_was_tried(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("qqzzxv"))
    assert result.total == 0
    assert result.notice == "Fuzzy words found nothing either (qqzzxv~2)"


def test_a_word_being_typed_is_not_retried(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("lerners", as_you_type=True))
    assert result.total == 0 and result.notice is None and result.correction is None


@pytest.mark.parametrize(
    ("text", "words", "drop", "expected"),
    [
        ("few-shot lerners", None, None, "few-shot lerners~"),
        ("when negativ reviews", None, None, "when negativ~ reviews~"),
        ("betwen subject", {"betwen"}, None, "betwen~ subject"),
        (
            '"exact phrase" -cache NOT memory title:abcd AND word',
            None,
            None,
            '"exact phrase" -cache NOT memory title:abcd AND word~',
        ),
        ("c programming", None, {"c"}, "programming~"),
        ("ab cd", None, None, None),
    ],
)
def test_which_words_are_made_fuzzy(
    text: str, words: set[str] | None, drop: set[str] | None, expected: str | None
) -> None:
    assert with_fuzzy(text, words, drop=drop) == expected


def test_the_retries_in_order() -> None:
    swapped = {"huamn": "human"}.get
    assert list(retries("huamn memry c", {"huamn", "memry"}, swapped)) == [
        "human memry~ c",  # the unknown words: a swapped pair put back, the rest fuzzy
        "human memry~",  # without the letter no field keeps (every word: the same)
    ]
    assert list(retries("pipeline trainng", {"trainng"}, swapped)) == [
        "pipeline trainng~2",
        "pipeline~2 trainng~2",  # a typo can make another real word
    ]
    # As fuzzy as the closest real word needs: one edit, though seven letters allow two.
    assert list(retries("pipeline trainng", {"trainng"}, swapped, {"trainng": 1}.get)) == [
        "pipeline trainng~",
        "pipeline~2 trainng~",
    ]
    assert list(retries("hofetal13", set(), swapped)) == ["key:hofetal13~"]
    assert list(retries("https://doi.org/10.1/x", {"https"}, swapped)) == []  # no typo
