"""The fast index-time analysis gives exactly the postings Whoosh's analyzers give."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from whoosh import fields

from index.schema.analysis import FastFoldText, FastListText, FastNgramText, FastStemText
from index.schema.fields import SEP, build_schema, document
from tests.fixtures.search.generate import make_library

TRICKY = [
    "",
    "a",
    "The mixture of experts, and of the EXPERTS: 3.2x faster; 49% less.",
    "Stärk Müller Søren Émile Novák naïve café coöperate İstanbul ß straße",
    "x.y.z a.b 1.5 v2.0 e.g. i.e. _under_score__ snake_case CamelCaseName",
    "supercalifragilisticexpialidociousness antidisestablishmentarianism " * 2,
    "a an the of to in it is be as at so we he by or on do if me my up an go no us am",
    "tokens\ttabs\nnewlines   spaces — dashes – and “quotes” ‘single’ ellipsis…",
    "日本語 テキスト 中文 한국어 العربية русский текст ελληνικά",
    "CrO₂ films, x² and 10⁻³ at Tᵢ, H₂O and ℝⁿ",
]


def postings(field: fields.FieldType, text: str, fast: bool) -> list[tuple[object, ...]]:
    items = field.index(text) if fast else fields.FieldType.index(field, text)
    return sorted(items)


def texts() -> list[str]:
    library = make_library(200)
    out = list(TRICKY)
    for paper in library.papers:
        out += [paper.title, paper.abstract, document(paper)["prefix"]]
    bench = Path(__file__).resolve().parents[3] / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        import synth

        for paper in synth.generate_papers(150, 3):
            out += [paper.title, paper.abstract, document(paper)["prefix"]]
    finally:
        sys.path.remove(str(bench))
    rng = random.Random(2)
    words = " ".join(TRICKY).split()
    out += [" ".join(rng.choices(words, k=rng.randint(1, 40))) for _ in range(200)]
    return out


@pytest.mark.parametrize("lean", [False, True])
@pytest.mark.parametrize("name", ["title", "abstract", "prefix"])
def test_fast_postings_equal_the_analyzers(name: str, lean: bool) -> None:
    """`lean`: a lean first index's fields (index.store.lean) keep counts, no positions."""
    field = build_schema(lean)[name]
    assert isinstance(field, (FastStemText, FastNgramText))
    for text in texts():
        assert postings(field, text, True) == postings(field, text, False), text


def listed() -> list[str]:
    """Values as the document joins them: names, topics, keywords, paths, by `SEP`."""
    rng = random.Random(4)
    names = [p.authors for p in make_library(60).papers] + [
        ["Stärk, J.", "İlkay Öz", "ΟΔΟΣ Σ", "", "  spaced  ", "a\x1e b"],
        ["Cody Hao Yu", "cody hao yu", "Cody Hao Yu"],  # a value twice, and in two cases
    ]
    words = " ".join(TRICKY).split()
    names += [[" ".join(rng.choices(words, k=rng.randint(1, 3))) for _ in range(5)]]
    return [SEP.join(values) for values in names] + ["", SEP, SEP * 3 + "x" + SEP]


@pytest.mark.parametrize(
    "name",
    ["short_name", "venue", "authors", "topic", "hw", "author_facet", "keyword_facet", "source"],
)
@pytest.mark.parametrize("lean", [False, True])
def test_fast_name_and_list_postings_equal_the_analyzers(name: str, lean: bool) -> None:
    field = build_schema(lean)[name]
    assert isinstance(field, (FastFoldText, FastListText))
    joined = [value.replace(SEP, " zzauthorgapzz ") for value in listed()]
    for text in TRICKY + listed() + joined:
        assert postings(field, text, True) == postings(field, text, False), text


def test_an_index_of_the_fast_fields_is_the_analyzers_index(tmp_path: Path) -> None:
    """Every posting, statistic, length, column and stored value of a whole index is the
    same with the fast fields as with plain TEXT fields over the same analyzers: every
    search finds and ranks the same."""
    from tests.index.whoosh_ext.test_pool import build

    plain = build_schema()
    for name in plain.names():
        field = plain[name]
        if isinstance(field, (FastStemText, FastNgramText, FastFoldText, FastListText)):
            stock = fields.TEXT(
                analyzer=field.analyzer,
                field_boost=field.format.field_boost,
                phrase=field.format.supports("positions"),
            )
            assert type(stock.format) is type(field.format)
            plain._fields[name] = stock
    assert build(tmp_path / "fast", True) == build(tmp_path / "plain", True, schema=plain)
