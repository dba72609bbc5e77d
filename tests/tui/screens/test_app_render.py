"""The pure pieces behind the widgets: text building, sparkline, typed filters, status."""

from __future__ import annotations

from index.facets.taxonomy import Taxonomy
from index.models import FacetCount, Paper, SearchRequest, SearchResult, Segment, Snippet
from tui.view.facets import empty_message, facet_view, status_line
from tui.view.filters import typed_filters
from tui.widgets.render import short_authors, snippet_text, sparkline


def test_one_line_snippet_keeps_spaces_around_highlighted_words() -> None:
    snippet = Snippet((Segment("can use "), Segment("GPUs", True), Segment("\n in  training")))
    text = snippet_text(snippet, match_style="bold", one_line=True)
    assert text.plain == "can use GPUs in training"
    assert [text.plain[span.start : span.end] for span in text.spans] == ["GPUs"]


def test_sparkline_scales_to_the_largest_count() -> None:
    assert sparkline([0, 5, 10]) == "▁▅█"
    assert sparkline([0, 0]) == "▁▁"
    assert sparkline([]) == ""


def test_short_authors_cuts_and_says_et_al() -> None:
    assert (
        short_authors(Paper(id="a", title="t", authors=("A", "B", "C", "D"))) == "A, B, C, et al."
    )
    assert (
        short_authors(Paper(id="a", title="t", authors=("A",), authors_complete=False))
        == "A, et al."
    )
    assert short_authors(Paper(id="a", title="t")) == "authors unknown"


def test_typed_filters_find_topic_and_hw_tokens_and_remove_exactly_them() -> None:
    found = typed_filters('kv cache topic:Training hw:"nvidia-gpu" hwx:y')
    assert set(found) == {"topic", "hardware"}
    assert set(found["topic"]) == {"training"} and set(found["hardware"]) == {"nvidia-gpu"}
    assert found["topic"]["training"].sub("", "kv topic:Training cache").split() == ["kv", "cache"]


def test_facet_view_adds_no_value_and_marks_typed_ones_selected(taxonomy: Taxonomy) -> None:
    request = SearchRequest(query="topic:training", years=frozenset({2024}))
    result = SearchResult(
        request=request,
        total=3,
        hits=(),
        facets={
            "topic": (FacetCount("topic", "training", "Training", 3),),
            "year": (FacetCount("year", "2024", "2024", 3), FacetCount("year", "2023", "2023", 0)),
        },
        library_size=47,
    )
    view = facet_view(result, taxonomy)
    # The engine lists every value the library has (at 0 too); the view adds none of the
    # taxonomy's others, which no paper has (issue 47).
    topics = {count.value: count for count in view["topic"]}
    assert list(topics) == ["training"]
    assert topics["training"].selected and topics["training"].count == 3
    assert [c.selected for c in view["year"]] == [True, False]
    assert status_line(result, "ctrl+y", timings=True) == "3 of 47 papers · 0 ms · 2 filters"
    assert status_line(result, "ctrl+y", timings=False) == "3 of 47 papers · 2 filters"


async def test_results_list_draws_only_what_is_visible_for_100000_hits() -> None:
    from textual.app import App, ComposeResult

    from index.models import Hit
    from tui.widgets.results_list import ROW_HEIGHT, ResultsList

    hits = tuple(
        Hit(Paper(id=f"p{n}", title=f"Paper number {n}", year=2000 + n % 25), float(n))
        for n in range(100_000)
    )

    class Harness(App[None]):
        def compose(self) -> ComposeResult:
            yield ResultsList(lambda facet, value: value, id="results")

    app = Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        widget = app.query_one(ResultsList)
        widget.show_hits(hits)
        widget.focus()
        await pilot.press("end")
        await pilot.pause()
        assert widget.highlighted is not None and widget.highlighted.id == "p99999"
        assert widget.virtual_size.height == 100_000 * ROW_HEIGHT
        assert len(app.query("*")) < 10  # no widget per paper
        assert len(widget._strips) <= widget.size.height  # only visible lines were rendered
        await pilot.click(ResultsList, offset=(5, 0))
        assert widget.highlighted.id != "p99999"


def test_every_binding_has_a_unique_id_and_a_tooltip() -> None:
    from textual.binding import Binding

    from tui.app import PaperscopeApp
    from tui.screens.detail import DetailScreen
    from tui.screens.dialogs import CopyFallback, HelpScreen, StylePicker
    from tui.screens.main import MainScreen
    from tui.widgets.facet_panel import FacetPanel
    from tui.widgets.results_list import ResultsList
    from tui.widgets.search_bar import SearchBar

    owners = (
        PaperscopeApp,
        MainScreen,
        DetailScreen,
        HelpScreen,
        StylePicker,
        CopyFallback,
        FacetPanel,
        ResultsList,
        SearchBar,
    )
    ids: dict[str, tuple[str, str]] = {}
    for owner in owners:
        for binding in owner.BINDINGS:
            assert isinstance(binding, Binding)
            assert binding.id and binding.tooltip, (
                f"{owner.__name__}: {binding.key} lacks id/tooltip"
            )
            seen = ids.setdefault(binding.id, (binding.key, binding.action))
            assert seen == (binding.key, binding.action), f"id {binding.id} means two things"


def test_the_empty_message_names_the_keys_that_help() -> None:
    request = SearchRequest(query="trainng", topics=frozenset({"gnn"}))
    result = SearchResult(request=request, total=0, hits=(), facets={}, correction="training")
    assert empty_message(result, "ctrl+g", "x") == (
        "No paper matches this search.\n"
        "Did you mean \u201ctraining\u201d? Press ctrl+g to search for it.\n"
        "Try fewer words, a prefix (micro*) or a fuzzy word (sheduling~), or press x to clear the filters."
    )
    plain = SearchResult(request=SearchRequest(query="x"), total=0, hits=(), facets={})
    assert "Did you mean" not in empty_message(plain, "ctrl+y", "x")
