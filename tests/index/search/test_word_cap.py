"""The 16-word cap cuts between whole parts: never leaving a dangling operator, never
splitting a phrase or a parenthesised group (which would change what the rest means)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh.filedb.filestore import FileStorage
from whoosh.reading import IndexReader

from index.schema.fields import build_schema
from index.search.parser import QueryBuilder
from index.search.query_caps import MAX_TERMS, cap_query
from index.search.syntax import cut_words

THIRTEEN, FOURTEEN, FIFTEEN = (" ".join(f"w{n}" for n in range(k)) for k in (13, 14, 15))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"{FIFTEEN} OR gpu tpu", FIFTEEN),  # the 16th word an operator
        (f"{FIFTEEN} AND x", FIFTEEN),
        (f"{FIFTEEN} NOT gpu", FIFTEEN),
        (f"OR {FIFTEEN} x y", FIFTEEN),  # nor start with one
        (f'{FOURTEEN} "kv cache eviction"', FOURTEEN),  # not the phrase "kv cache"
        (f"{THIRTEEN} (gpu OR tpu OR fpga)", THIRTEEN),  # not (gpu OR tpu
        (f'{FOURTEEN} OR title:"a b c"', FOURTEEN),
        (f"{FOURTEEN} -(a b c)", FOURTEEN),  # not -(a b: "c" no longer excluded
        (f'{THIRTEEN} "a b" c', f'{THIRTEEN} "a b" c'),  # 16 words: no cut at all
    ],
)
def test_the_cut_falls_between_whole_parts(text: str, expected: str) -> None:
    assert cut_words(text, MAX_TERMS) == expected


def test_a_first_phrase_or_group_longer_than_the_cap_is_cut_inside_and_closed() -> None:
    words = [f"w{n}" for n in range(20)]
    assert cut_words('"' + " ".join(words) + '"', MAX_TERMS) == '"' + " ".join(words[:16]) + '"'
    grouped = "title:(" + " OR ".join(words) + ")"
    assert cut_words(grouped, MAX_TERMS) == "title:(" + " OR ".join(words[:8]) + ")"


@pytest.fixture()
def reader(tmp_path: Path) -> Iterator[IndexReader]:
    ix = FileStorage(str(tmp_path)).create_index(build_schema())
    with ix.writer() as writer:
        writer.add_document(id="a", title="gpu kernels", abstract="kv cache eviction")
    reader = ix.reader()
    yield reader
    reader.close()


@pytest.mark.parametrize(
    "text",
    [
        f"{FIFTEEN} OR gpu tpu",
        f"OR {FIFTEEN} x y",
        f"{' '.join(['x'] * 14)} NOT (a b c)",
        f'{FIFTEEN} "kv cache',
    ],
)
def test_a_cut_query_parses_as_the_words_it_kept(reader: IndexReader, text: str) -> None:
    parsed = QueryBuilder().parse(text, reader)
    assert parsed.notice is not None
    assert "Could not parse" not in parsed.notice and "quote" not in parsed.notice
    kept, _ = cap_query(text)
    assert len(kept.split()) <= MAX_TERMS
    assert f"only its first {len(kept.split())} words searched" in parsed.notice
