"""Facets from the user's own vocabulary: their keywords and arXiv's categories."""

from __future__ import annotations

from pathlib import Path

from index import open_engine
from index.models import Library, Paper, SearchRequest
from index.search.counting import category_label
from tests.fixtures.search.generate import TAXONOMY

PAPERS = (
    Paper(
        id="a",
        title="Quarks",
        abstract="prompt photons",
        keywords=("QCD", "photons"),
        categories=("hep-ph",),
    ),
    Paper(
        id="b",
        title="Gluons",
        abstract="jets and photons",
        keywords=("QCD",),
        categories=("hep-ph", "hep-ex"),
    ),
    Paper(
        id="c",
        title="Kernels",
        abstract="gpu kernels",
        keywords=("systems",),
        categories=("cs.DC",),
    ),
)


def test_keyword_and_category_counts_and_selection(tmp_path: Path) -> None:
    engine = open_engine(Library(papers=PAPERS), TAXONOMY, tmp_path)
    try:
        result = engine.search(SearchRequest(""))
        assert [(c.value, c.count) for c in result.facets["keyword"]] == [
            ("QCD", 2),
            ("photons", 1),
            ("systems", 1),
        ]
        assert [(c.value, c.count) for c in result.facets["category"]] == [
            ("hep-ph", 2),
            ("cs.DC", 1),
            ("hep-ex", 1),
        ]
        chosen = engine.search(SearchRequest("", keywords=frozenset({"QCD"})))
        assert {hit.paper.id for hit in chosen.hits} == {"a", "b"}
        # Disjunctive: the keyword facet still counts the other keywords.
        assert ("systems", 1) in [(c.value, c.count) for c in chosen.facets["keyword"]]
        assert [(c.value, c.count) for c in chosen.facets["category"]] == [
            ("hep-ph", 2),
            ("hep-ex", 1),
        ]
        both = engine.search(SearchRequest("photons", categories=frozenset({"hep-ex"})))
        assert [hit.paper.id for hit in both.hits] == ["b"]
    finally:
        engine.close()


def test_a_category_is_labelled_with_its_name_when_the_table_knows_it() -> None:
    label = category_label("hep-ph")
    assert label in ("hep-ph", "High Energy Physics - Phenomenology (hep-ph)")
    assert category_label("not-a-category") == "not-a-category"
