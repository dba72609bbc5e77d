"""The query language: Whoosh's syntax, paperscope's rewrites, and no error ever raised."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh import query as wq
from whoosh.filedb.filestore import FileStorage
from whoosh.reading import IndexReader

from index.schema.fields import build_schema
from index.search.parser import QueryBuilder, positive_words
from index.search.ranking import ranking_query


@pytest.fixture()
def reader(tmp_path: Path) -> Iterator[IndexReader]:
    # Not RamStorage: its writer keeps temp files in the fixed /tmp/MAIN.tmp, which two
    # test runs at once (3.10 and 3.13 in parallel) delete from under each other.
    ix = FileStorage(str(tmp_path)).create_index(build_schema())
    with ix.writer() as writer:
        for word in ("cache", "cached", "caching", "cabbage", "dynamic"):
            writer.add_document(id=word, title=word, abstract=f"{word} systems")
    reader = ix.reader()
    yield reader
    reader.close()


BUILDER = QueryBuilder({"gpu": ("gpu", "nvidia-gpu", "amd-gpu")})


def leaves(q: wq.Query) -> list[wq.Query]:
    return list(q.leaves()) if not q.is_leaf() else [q]


@pytest.mark.parametrize(
    "text",
    [
        '"unclosed',
        "title:",
        "((",
        "year:abc",
        ")",
        "a OR",
        "NOT",
        "-",
        "~",
        "*",
        "year:2020..abc",
        "author:",
        '"',
        "(((a",
        "a AND AND b",
        ":",
        "title:(",
        "hw:",
        "year:[2020 TO",
    ],
)
@pytest.mark.parametrize("as_you_type", [False, True])
def test_bad_syntax_never_raises(reader: IndexReader, text: str, as_you_type: bool) -> None:
    parsed = BUILDER.parse(text, reader, as_you_type)
    assert parsed.query is None or isinstance(parsed.query, wq.Query)


@pytest.mark.parametrize("text", ["title:", "((", "year:abc", "year:2020..abc", "a OR", "NOT"])
def test_bad_syntax_says_so(reader: IndexReader, text: str) -> None:
    notice = BUILDER.parse(text, reader).notice
    assert notice and notice.startswith("Could not parse the query") and "\n" not in notice


def test_year_ranges(reader: IndexReader) -> None:
    for text, start, end in (
        ("year:2020..2024", 2020, 2024),
        ("year:2022..", 2022, None),
        ("year:..2019", None, 2019),
    ):
        q = BUILDER.parse(text, reader).query
        assert isinstance(q, wq.NumericRange) and (q.start, q.end) == (start, end)
    single = BUILDER.parse("year:2021", reader).query
    assert isinstance(single, wq.Term) and single.fieldname == "year"


def test_hardware_parent_matches_children(reader: IndexReader) -> None:
    q = BUILDER.parse("hw:gpu", reader).query
    assert {t.text for t in leaves(q)} == {"gpu", "nvidia-gpu", "amd-gpu"}
    alias = BUILDER.parse("hardware:nvidia-gpu", reader).query
    assert alias == wq.Term("hw", "nvidia-gpu")


def test_fields_phrases_fuzzy_and_exclusion(reader: IndexReader) -> None:
    phrase = BUILDER.parse('author:"Cody Hao Yu"', reader).query
    assert isinstance(phrase, wq.Phrase) and phrase.fieldname == "authors"
    fuzzy = BUILDER.parse("cachng~", reader).query
    # The index's own words near it, found once (a stem is allowed one more edit).
    assert {(leaf.fieldname, leaf.text) for leaf in leaves(fuzzy) if isinstance(leaf, wq.Term)} == {
        ("title", "cach"),
        ("abstract", "cach"),
    }
    excluded = BUILDER.parse("cache -dynamic", reader).query
    assert any(isinstance(node, (wq.Not, wq.AndNot)) for node in _walk(excluded))
    assert BUILDER.parse("doi:10.1145/ABC.1", reader).query == wq.Term("doi", "10.1145/abc.1")


def _walk(q: wq.Query) -> Iterator[wq.Query]:
    yield q
    if not q.is_leaf():
        for child in q.children():
            yield from _walk(child)


def test_as_you_type_makes_the_last_word_a_prefix(reader: IndexReader) -> None:
    parsed = BUILDER.parse("dynamic cac", reader, as_you_type=True)
    assert parsed.terms == ("dynamic", "cac*")
    words = {t.text for t in leaves(parsed.query) if t.fieldname == "abstract"}
    assert {"cach", "cabbag"} & words == {"cach"}  # the stems starting with "cac"
    assert any(t.fieldname == "prefix" and t.text == "cac" for t in leaves(parsed.query))
    finished = BUILDER.parse("dynamic cac ", reader, as_you_type=True)
    assert finished.terms == ("dynamic", "cac")  # a space ends the word
    assert BUILDER.parse("cac", reader).terms == ("cac",)  # not as you type


def test_ranking_drops_the_prefix_expansion(reader: IndexReader) -> None:
    parsed = BUILDER.parse("dynamic ca", reader, as_you_type=True)
    ranking = ranking_query(parsed.query)
    assert isinstance(ranking, wq.AndMaybe)
    assert not any(isinstance(n, wq.ConstantScoreQuery) for n in _walk(ranking))
    only_prefix = BUILDER.parse("ca", reader, as_you_type=True)
    assert ranking_query(only_prefix.query) is not None  # "ca" may be a whole word too


def test_positive_words_skip_exclusions_and_ids() -> None:
    assert positive_words('gpu -cuda NOT tpu title:"dynamic pipe" year:2021 hw:gpu x*') == [
        "gpu",
        "dynamic",
        "pipe",
        "x*",
    ]


def test_positive_words_leave_out_fuzzy_distances_and_boosts() -> None:
    assert positive_words("pipelne~2 gpu^2 memory~ kernel^0.5") == [
        "pipelne",
        "gpu",
        "memory",
        "kernel",
    ]
    assert positive_words("pipelne~2 gpu", keep_fuzzy=True) == ["pipelne~2", "gpu"]


def test_empty_query_means_everything(reader: IndexReader) -> None:
    assert BUILDER.parse("   ", reader).query is None


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("2020..2024", (2020, 2024)),
        ("2021", (2021, 2021)),
        ("2022..", (2022, None)),
        ("..2019", (None, 2019)),
        (" 2020 .. 2024 ", (2020, 2024)),
        ("2024..2020", (2024, 2020)),
        ("0", (0, 0)),
        ("..", None),
        ("20x4", None),
        ("2020 2024", None),
        ("", None),
    ],
)
def test_one_grammar_reads_years_for_the_query_and_the_command_line(
    text: str, years: tuple[int | None, int | None] | None
) -> None:
    from index.search.syntax import parse_years

    assert parse_years(text) == years
