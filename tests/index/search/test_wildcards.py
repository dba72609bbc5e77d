"""Wildcard words: the expansion is bounded like a short prefix's, the result says so, and
a wildcard is one pattern (highlighted as such), not the prefixes around its stars."""

from __future__ import annotations

import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh import query as wq
from whoosh.filedb.filestore import FileStorage
from whoosh.reading import IndexReader
from whoosh.searching import Searcher

from index.schema.fields import build_schema
from index.search.highlight import Highlighter
from index.search.parser import QueryBuilder
from index.search.prefixes import LETTER_CAPS
from index.search.syntax import positive_words
from index.search.wildcards import WILDCARD_CAP, literal_start

# `p?e` fits 20 words; the word for letter number n is in n + 1 papers.
LETTERS = string.ascii_lowercase[:20]


@pytest.fixture()
def reader(tmp_path: Path) -> Iterator[IndexReader]:
    ix = FileStorage(str(tmp_path)).create_index(build_schema())
    with ix.writer() as writer:
        for n, letter in enumerate(LETTERS):
            for copy in range(n + 1):
                writer.add_document(id=f"{letter}{copy}", abstract=f"p{letter}e pipeline")
        writer.add_document(id="other", abstract="pipe engine")
    reader = ix.reader()
    yield reader
    reader.close()


def abstract_terms(q: wq.Query) -> set[str]:
    return {str(leaf.text) for leaf in q.leaves() if getattr(leaf, "fieldname", "") == "abstract"}


def test_a_wildcard_searches_only_its_commonest_words_and_says_so(reader: IndexReader) -> None:
    parsed = QueryBuilder().parse("p?e", reader)
    assert parsed.query is not None
    cap = LETTER_CAPS[1]  # the literal start `p` is one letter, capped as the prefix `p*` is
    commonest = {f"p{letter}e" for letter in LETTERS[-cap:]}
    assert abstract_terms(parsed.query) == commonest
    assert parsed.partial
    assert (
        parsed.notice
        == f"Wildcards capped: p?e searched for the {cap} commonest of 20 words it fits"
    )


def test_a_wildcard_that_fits_few_words_finds_what_whoosh_finds(reader: IndexReader) -> None:
    builder = QueryBuilder()
    parsed = builder.parse("pi*ne", reader)
    assert parsed.query is not None
    assert abstract_terms(parsed.query) == {"pipelin"}  # Whoosh stems the pattern too
    assert not parsed.partial and parsed.notice is None
    searcher = Searcher(reader)
    uncapped = builder.parser.parse("pi*ne")  # Whoosh's own Wildcard, every fitting term
    assert set(searcher.docs_for_query(parsed.query)) == set(searcher.docs_for_query(uncapped))
    assert len(set(searcher.docs_for_query(uncapped))) == len(LETTERS) * 21 // 2


def test_the_cap_never_exceeds_the_wildcard_cap() -> None:
    assert literal_start("pipel*e?") == "pipel"
    assert literal_start("a[bc]*") == "a"
    assert max(LETTER_CAPS.values()) <= WILDCARD_CAP


def test_a_wildcard_is_one_pattern_for_highlighting() -> None:
    assert positive_words("p*e* -x*y* model pre*") == ["p*e*", "model", "pre*"]
    highlighter = Highlighter(["p*e*"])
    text = "Pipelines are efficient; pe and pa"
    assert [text[a:b] for a, b in highlighter.spans(text)] == ["Pipelines", "pe"]


def test_a_cut_is_told_once(reader: IndexReader) -> None:
    notice = QueryBuilder().parse("*ing", reader).notice
    assert notice == "Query capped: a word cannot start with * or ?: searched from its first letter"


@pytest.mark.parametrize("text", ["pi*ne OR", "AND pi*ne", "pi*ne title:"])
def test_a_query_that_does_not_parse_still_searches_its_patterns(
    reader: IndexReader, text: str
) -> None:
    """The fallback to plain words keeps a pattern whole: `pi*ne OR` finds what `pi*ne`
    finds (it searched "pi" and "ne", which no paper has)."""
    builder = QueryBuilder()
    parsed, alone = builder.parse(text, reader), builder.parse("pi*ne", reader)
    assert parsed.notice is not None and parsed.notice.startswith("Could not parse the query")
    assert parsed.query is not None and alone.query is not None
    searcher = Searcher(reader)
    found = set(searcher.docs_for_query(parsed.query))
    assert found and found == set(searcher.docs_for_query(alone.query))
