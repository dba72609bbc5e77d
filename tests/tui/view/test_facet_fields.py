"""The facet panel's presenters cover every facet the engine counts (arXiv category too)."""

from __future__ import annotations

from index.facets.taxonomy import Taxonomy
from index.models import FACET_FIELDS, FacetCount, SearchRequest, SearchResult
from tui.view.facets import facet_view
from tui.view.filters import toggle_value, without_selection


def test_every_facet_toggles_into_its_request_field_and_clears() -> None:
    request = SearchRequest()
    for facet in FACET_FIELDS:
        value = "2024" if facet == "year" else "x"
        toggled = toggle_value(request, facet, value)
        assert toggled.selected(facet) == {value}
        assert toggle_value(toggled, facet, value) == request
        assert without_selection(toggled) == request


def test_the_category_facet_reaches_the_panel_with_its_selection() -> None:
    request = SearchRequest(categories=frozenset({"hep-ph"}))
    counts = (
        FacetCount("category", "hep-ph", "hep-ph", 2, True),
        FacetCount("category", "cs.DC", "cs.DC", 1),
    )
    result = SearchResult(request=request, total=2, hits=(), facets={"category": counts})
    view = facet_view(result, taxonomy=object())
    assert [(c.value, c.count, c.selected) for c in view["category"]] == [
        ("hep-ph", 2, True),
        ("cs.DC", 1, False),
    ]
    assert set(view) == set(FACET_FIELDS)


def test_a_typed_value_no_paper_has_is_listed_selected_and_no_other_is_added(
    taxonomy: Taxonomy,
) -> None:
    # The engine lists the values the library has; the panel adds none of the taxonomy's
    # others (a law library showed every topic at 0), except one typed in the query.
    request = SearchRequest(query="topic:gnn pipelines")
    counts = (FacetCount("topic", "training", "Training systems", 3),)
    result = SearchResult(request=request, total=3, hits=(), facets={"topic": counts})
    view = facet_view(result, taxonomy)
    assert [(c.value, c.count, c.selected) for c in view["topic"]] == [
        ("training", 3, False),
        ("gnn", 0, True),
    ]
    assert view["hardware"] == ()
