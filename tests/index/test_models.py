"""`FACET_FIELDS`: the one map from a facet to the request field holding its selection."""

from __future__ import annotations

from dataclasses import fields

from index.models import FACET_FIELDS, SearchRequest
from index.search.counting import FACETS
from index.search.user_layer import LAYER_FACETS


def test_every_selection_field_of_a_request_is_one_facets() -> None:
    selections = {f.name for f in fields(SearchRequest) if str(f.type).startswith("frozenset")}
    # `within` limits a search to given papers (the marked-only view): no facet's values.
    assert sorted(FACET_FIELDS.values()) == sorted(selections - {"within"})


def test_the_index_and_the_layer_split_the_facets_between_them() -> None:
    assert set(FACETS) | set(LAYER_FACETS) == set(FACET_FIELDS)
    assert not set(FACETS) & set(LAYER_FACETS)  # no facet is counted twice


def test_selected_reads_any_facet_years_as_text() -> None:
    request = SearchRequest(years=frozenset({2024}), categories=frozenset({"hep-ph"}))
    assert request.selected("year") == {"2024"}
    assert request.selected("category") == {"hep-ph"}
    assert request.selected("tag") == frozenset()
    assert SearchRequest(tags=frozenset({"a", "b"}), year_range=(2020, None)).filter_count == 3
