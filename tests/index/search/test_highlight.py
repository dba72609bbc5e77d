"""Highlighting from each text's remembered words equals deciding token by token."""

from __future__ import annotations

import fnmatch
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from index import open_engine
from index.models import Library, SearchRequest
from index.schema.analysis import cached_stem, fold_word
from index.search.highlight import Highlighter, _words_of
from tests.fixtures.search.generate import RARE, TAXONOMY, WORDS, make_library

# The index's idea of a word (the default RegexTokenizer), written out again here.
TOKEN = re.compile(r"\w+(\.?\w+)*")

TEXTS = (
    "Scheduling schedulers schedule; the Scheduler's schedules (re-scheduled).",
    "Stärk and STARK, Émile, emile: accents fold both ways; Müller müller mueller.",
    "v2.0 beats e.g. 3.2x of GPT-4o on A100s; 49% less memory, memories memorize.",
    "Yielding yields: yacht, Y, y, yes; mixture-of-experts MoE mixtures experts.",
    "",
    "   ",
    "Dots: a..b ..c. d.e.f. g._h _i_.j 1.2.3 x. .y",
    "Ünïcödé ﬁnal ligatures, ß straße, İstanbul, ΣΊΣΥΦΟΣ, 北京 and 北京大学.",
)

TERMS = (
    ("schedul*",),
    ("scheduling",),
    ("scheduler", "memory"),
    ("stärk*", "emile"),
    ("v2.0",),
    ("e.g*", "3.2x"),
    ("y*", "yield"),
    ("mixture of experts", "expert*"),
    ("s*e*", "m?ller"),
    ("ß*", "straße", "istanbul"),
    ("北京*",),
    ("memori*", "memories", "memor"),
    ("a*",),
    ("d.e*", "g", "1.2*", "_i_.j", "b"),
)


def by_token(terms: tuple[str, ...], text: str) -> list[tuple[int, int]]:
    """The spans the obvious way: every token of `text` decided on its own."""
    words: set[str] = set()
    prefixes: list[str] = []
    patterns = []
    for term in terms:
        if "?" in term or "*" in term.rstrip("*"):
            patterns.append(re.compile(fnmatch.translate(fold_word(term))))
            continue
        found = [m.group(0) for m in TOKEN.finditer(fold_word(term))]
        for i, word in enumerate(found):
            if term.endswith("*") and i == len(found) - 1:
                prefixes.append(word)
            else:
                words.add(word)
    stems = {cached_stem(word) for word in words}
    spans = []
    for match in TOKEN.finditer(text):
        word = fold_word(match.group(0))
        if (
            word in words
            or cached_stem(word) in stems
            or any(word.startswith(prefix) for prefix in prefixes)
            or any(pattern.match(word) for pattern in patterns)
        ):
            spans.append(match.span())
    return spans


@pytest.mark.parametrize("terms", TERMS)
def test_spans_equal_a_token_by_token_decision(terms: tuple[str, ...]) -> None:
    """Every text twice, and with every other query between: a text's words are
    remembered across highlighters, its spans are not."""
    for text in TEXTS + TEXTS:
        assert Highlighter(terms).spans(text) == by_token(terms, text), (terms, text)


def test_generated_abstracts_highlight_as_token_by_token() -> None:
    rng = random.Random(5)
    library = make_library(60, seed=11)
    vocabulary = [*WORDS, *RARE]
    for paper in library.papers:
        for _ in range(3):
            words = rng.sample(vocabulary, rng.randint(1, 3))
            terms = tuple(
                word[: rng.randint(1, len(word))] + "*" if rng.random() < 0.4 else word
                for word in words
            )
            for text in (paper.abstract, paper.title, " ".join(paper.authors)):
                assert Highlighter(terms).spans(text) == by_token(terms, text), (terms, text)


def test_porter_keeps_a_words_first_letter() -> None:
    """Whole words are stemmed only among a text's words starting with the letter of a
    stem of the query's: Whoosh's Porter stemmer must never change a first letter."""
    from whoosh.lang.porter import stem

    words = {fold_word(m.group(0)) for text in TEXTS for m in TOKEN.finditer(text)}
    words |= {*WORDS, *RARE} | {"ies", "yies", "eed", "ing", "ying", "yed", "ational"}
    assert all(stem(word)[:1] == word[:1] for word in words)


def test_an_edited_abstract_is_highlighted_as_it_now_reads(tmp_path: Path) -> None:
    """The remembered words are keyed by the text itself: after a library reload with an
    edited abstract, the snippet shows the new words, never the old positions."""
    papers = list(make_library(8, seed=3).papers)
    papers[0] = replace(papers[0], abstract="Quokka memory pooling.")
    first = open_engine(Library(papers=tuple(papers)), TAXONOMY, tmp_path / "a")
    shown = first.search(SearchRequest("quokka", limit=5)).hits[0].snippet
    assert [s.text for s in shown.segments if s.highlighted] == ["Quokka"]
    first.close()
    edited = "A long preface, then the quokka and another Quokka."
    papers[0] = replace(papers[0], abstract=edited)
    second = open_engine(Library(papers=tuple(papers)), TAXONOMY, tmp_path / "b")
    snippet = second.search(SearchRequest("quokka", limit=5)).hits[0].snippet
    assert snippet.plain == edited
    assert [s.text for s in snippet.segments if s.highlighted] == ["quokka", "Quokka"]
    second.close()


def test_forgetting_the_caches_forgets_the_texts_words(tmp_path: Path) -> None:
    """`forget_cached` makes the next search do all of its work, highlighting included
    (what the torture tests count and the hostile-query benchmark times)."""
    engine = open_engine(make_library(8, seed=3), TAXONOMY, tmp_path)
    engine.search(SearchRequest("memory", limit=5))
    assert _words_of.cache_info().currsize > 0
    engine.forget_cached()
    assert _words_of.cache_info().currsize == 0
    engine.close()
