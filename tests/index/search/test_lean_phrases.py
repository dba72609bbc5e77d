"""A phrase on a lean first index finds the papers the full index finds, in its order.

The lean index keeps no positions; index.search.lean_phrases checks a phrase's
candidates against their text in the library, analysed as the full build analyses it.
Checked here at both ends: each field's analysed words against the positions the full
schema indexes, and whole searches (matched papers, totals, ranked rows, facet counts,
notices) on the lean engine against the full one's, for phrases of 2-4 words, stop words
inside, repeated words, names across two authors, folded accents, punctuation, a slop,
negated, with fields and filters, one word, an unclosed quote and one being typed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from index.models import Library, SearchRequest
from index.schema.fields import TEXT_FIELDS, build_schema, document
from index.search import ranking
from index.search.lean_phrases import field_tokens, holds_phrase, prose_holds
from tests.fixtures.search.generate import make_library
from tests.index.search.lean_pair import lean_and_full

# Papers holding what the generated ones do not (title, authors, venue, abstract).
ODD = (
    (
        "The art of learning: mixture of experts",
        ("Ana Li", "Bo Yu"),
        "NeurIPS",
        "A mixture of the experts; mixture experts; data data data and the data.",
    ),
    (
        "Experts of mixture at the art",
        ("Li Bo", "Jürgen Stärk"),
        "Journal of Æsthetics",
        "Data and data, kernel to fusion, memory bandwidth bandwidth memory.",
    ),
    (
        "GPT-4 and BERT2 on v3.2x hardware",
        ("José Núñez", "Ana Li"),
        "Proceedings of the VLDB Endowment",
        "The kernel fusion of GPT-4 at 10.5 TFLOPS: kernel, then fusion.",
    ),
    (
        "Über caching in Zürich",
        ("Jurgen Stark",),
        None,
        "Memory for bandwidth; memory the bandwidth; uber caching in zurich.",
    ),
)

PHRASES = [
    '"memory bandwidth"',
    '"bandwidth memory"',
    '"kernel fusion"',
    '"model training inference"',
    '"pipeline batching dynamic kernel"',
    '"mixture of experts"',
    '"mixture experts"',
    '"the art of learning"',
    '"art of"',
    '"data data"',
    '"data data data"',
    '"data data data data"',
    '"li bo"',
    '"ana li"',
    'author:"li bo"',
    'author:"ana li bo yu"',
    'author:"jurgen stark"',
    'author:"Jürgen Stärk"',
    '"jose nunez"',
    '"uber caching"',
    '"über caching in zürich"',
    '"gpt-4 and bert2"',
    '"gpt 4"',
    '"v3.2x hardware"',
    '"10.5 tflops"',
    'venue:"of the vldb"',
    'venue:"journal of aesthetics"',
    'title:"mixture of experts"',
    'title:"experts of mixture"',
    'abstract:"memory bandwidth"',
    '"kernel fusion"~2',
    '"kernel fusion"~3',
    '"memory bandwidth"~2',
    '"fusion kernel"~3',
    'memory -"memory bandwidth"',
    'kernel -"kernel fusion" -"kernel compiler"',
    '"memory bandwidth" OR "kernel fusion"',
    '"memory bandwidth" pipeline',
    '"memory bandwidth" topic:training',
    '"memory bandwidth" hw:gpu year:2020..2024',
    '"model training" -topic:vision',
    'title:"model training" OR abstract:"tensor memory"',
    '"a"',
    '"memory"',
    '"memory bandwidth',
    '"mixture of',
    '"the of"',
    '"zebrafish quokka"',
]


def _library() -> Library:
    papers = list(make_library(80).papers)
    for n, (title, authors, venue, abstract) in enumerate(ODD):
        papers.append(
            replace(
                papers[n],
                id=f"odd{n}",
                title=title,
                authors=authors,
                venue=venue,
                abstract=abstract,
            )
        )
    return Library(papers=tuple(papers))


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """(the lean engine a first start serves, the full engine it then opens)."""
    yield from lean_and_full(_library(), tmp_path_factory.mktemp("c"))


def test_a_field_analysed_from_the_library_is_what_the_full_index_positions() -> None:
    """Each term at the positions the full schema indexes, relative to the first."""
    schema = build_schema()
    for paper in _library().papers:
        values = document(paper)
        for name in TEXT_FIELDS:
            field = schema[name]
            tokens = field_tokens(paper, name, stemmed=name in ("title", "abstract"))
            at: dict[int, str] = {}
            for term, _, _, encoded in field.index(values[name]):
                for pos in field.format.decode_positions(encoded):
                    at[pos] = term.decode("utf-8")
            first = min(at, default=0)
            expected = tuple(at.get(first + i) for i in range(max(at, default=-1) - first + 1))
            assert tokens[: len(expected)] == expected, (paper.id, name)
            assert all(t is None for t in tokens[len(expected) :]), (paper.id, name)


def test_the_phrase_rule_is_whooshs() -> None:
    tokens = ("a", "b", "c", "a", None, "b", "b")
    assert holds_phrase(tokens, ["a", "b", "c"], 1)
    assert not holds_phrase(tokens, ["b", "a", "b"], 1)  # the gap between two names
    assert holds_phrase(tokens, ["b", "b"], 1)
    assert not holds_phrase(tokens, ["c", "c"], 3)  # a word never follows itself
    assert holds_phrase(tokens, ["a", "c"], 2) and not holds_phrase(tokens, ["a", "c"], 1)
    assert not holds_phrase(tokens, ["c", "a"], 0)
    assert holds_phrase(tokens, ["a", "b", "b"], 3)  # a, then b at 1 or 5, then b at 5 or 6


# Texts whose words the tokenizer joins or splits where a plain search for a word would not.
TEXTS = (
    "Upscale scaling: the large.scale model, large. scale it; large..scale, large_scale.",
    "v3.2x hardware at 10.5 tflops, 10.5.1 and x10.5 on v3.2x.",
    "Data data data, the data of data: a datum and data-data.",
    "Memory for bandwidth; memory the bandwidth; memories bandwidths; memorybandwidth.",
)


def test_a_prose_phrase_found_from_its_first_word_is_found_from_the_whole_text() -> None:
    """`prose_holds` (the abstract's words from the first word's places on) answers as
    the whole text analysed does, for every run of 1-3 of its stems and their reverse,
    side by side and with a slop of 2 and 3."""
    papers = _library().papers
    texts = [*TEXTS, *(paper.abstract for paper in papers)]
    answers: list[bool] = []
    for text in texts:
        paper = replace(papers[0], abstract=text)
        tokens = field_tokens(paper, "abstract", stemmed=True)
        stems = [t for t in tokens if t is not None]
        phrases = {tuple(stems[i : i + n]) for n in (1, 2, 3) for i in range(len(stems))}
        phrases |= {phrase[::-1] for phrase in phrases}
        phrases |= {("scale", "larg"), ("larg", "scale"), ("10.5", "tflop"), ("datum", "data")}
        for phrase in phrases:
            for slop in (1, 2, 3) if len(phrase) > 1 else (1,):
                expected = holds_phrase(tokens, phrase, slop)
                assert prose_holds(text, phrase, slop) == expected, (text[:30], phrase, slop)
                answers.append(expected)
    assert answers.count(True) > 1000 and answers.count(False) > 1000


@pytest.mark.parametrize("query", PHRASES)
def test_a_phrase_finds_the_full_index_papers_in_its_order(engines: Any, query: str) -> None:
    lean, full = engines
    for typing in (False, True):
        request = SearchRequest(query=query, as_you_type=typing, limit=1000)
        on_lean, on_full = lean.search(request), full.search(request)
        assert on_lean.total == on_full.total, typing
        assert [h.paper.id for h in on_lean.hits] == [h.paper.id for h in on_full.hits], typing
        assert [h.score for h in on_lean.hits] == pytest.approx([h.score for h in on_full.hits])
        assert on_lean.facets == on_full.facets
        assert on_lean.notice == on_full.notice
        assert on_lean.partial == on_full.partial


@pytest.mark.parametrize(
    "query",
    [
        '"memory bandwidth"',
        '"kernel fusion"',
        '"mixture of experts"',
        '"data data data"',
        '"li bo"',
        'author:"jurgen stark"',
    ],
)
def test_the_phrases_leave_out_papers_holding_their_words_apart(engines: Any, query: str) -> None:
    """Else the comparison above would pass with the phrases searched as their words."""
    lean, _ = engines
    phrase = lean.search(SearchRequest(query=query, limit=0)).total
    words = query.replace('"', "").replace("author:", "author:(") + (
        ")" if "author:" in query else ""
    )
    apart = lean.search(SearchRequest(query=words, limit=0)).total
    assert 0 < phrase < apart


def test_a_phrase_on_the_lean_index_says_nothing_of_itself(engines: Any) -> None:
    lean, _ = engines
    result = lean.search(SearchRequest(query='"memory bandwidth"'))
    assert result.total > 0
    assert result.notice is None


@pytest.mark.parametrize(
    "query",
    ['"memory bandwidth" OR year:2020..2022', '"kernel fusion"~2 OR year:2024..2026'],
)
def test_a_phrase_ranked_by_whooshs_collector_ranks_as_on_the_full_index(
    engines: Any, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big match set of a query with a range is ranked by Whoosh's collector, whose
    phrase matcher would raise on the lean index: the phrase scores as its words there."""
    monkeypatch.setattr(ranking, "TERM_AT_A_TIME_LIMIT", 0)
    lean, full = engines
    request = SearchRequest(query=query, limit=1000)
    lean.forget_cached()
    full.forget_cached()
    on_lean, on_full = lean.search(request), full.search(request)
    assert on_lean.total == on_full.total > 0
    assert [h.paper.id for h in on_lean.hits] == [h.paper.id for h in on_full.hits]
    assert [h.score for h in on_lean.hits] == pytest.approx([h.score for h in on_full.hits])
