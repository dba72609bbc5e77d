"""Pilot tests: the real app on the bundled corpus, driven by keys like a user would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from index.citations import format_citation
from index.models import SearchRequest
from index.search.engine import SearchEngine
from tests.tui.app_pilot import (
    WIDE,
    all_notices,
    build,
    facet_node,
    known,
    plain,
    results,
    screen_text,
    search,
    search_text,
    settle,
    shown,
    top_screen,
)
from tui.app import PaperscopeApp
from tui.messages import SearchFinished
from tui.screens.detail import DetailScreen
from tui.widgets.detail_pane import DetailPane
from tui.widgets.facet_panel import FacetPanel


async def test_typing_a_query_shows_the_expected_first_result(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.main_screen.result is not None
        assert app.main_screen.result.total == engine.size
        await search(pilot, "dynapipe")
        assert results(app).hits[0].paper.id == "dynapipe"
        assert app.main_screen.result.total < engine.size
        assert f"of {engine.size} papers" in screen_text(app)


def count_of(app: PaperscopeApp, facet: str, value: str) -> int:
    result = app.main_screen.result
    assert result is not None
    return next(c.count for c in result.facets[facet] if c.value == value)


async def test_selecting_a_facet_changes_counts_and_results(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        papers = [hit.paper for hit in shown(app).hits]
        year = max(
            (p.year for p in papers if p.year), key=lambda y: sum(p.year == y for p in papers)
        )
        expected = sum(1 for p in engine_papers(engine) if p.year == year)
        venues_before = {c.value: c.count for c in shown(app).facets["venue"]}
        panel = app.main_screen.query_one(FacetPanel)
        panel.focus()
        panel.cursor_line = facet_node(panel, "year", str(year)).line
        await pilot.press("enter")
        await settle(pilot)
        result = shown(app)
        assert result.request.years == frozenset({year})
        assert result.total == expected < engine.size
        assert all(hit.paper.year == year for hit in result.hits)
        assert {c.value: c.count for c in result.facets["venue"]} != venues_before
        assert "1 filter" in screen_text(app)
        # Selecting it again unselects it: everything is back.
        panel.cursor_line = facet_node(panel, "year", str(year)).line
        await pilot.press("enter")
        await settle(pilot)
        assert shown(app).total == engine.size


def engine_papers(engine: SearchEngine) -> list[Any]:
    everything = engine.search(SearchRequest(limit=10_000))
    return [hit.paper for hit in everything.hits]


async def test_typed_topic_and_clicked_topic_agree(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        topic, other = sorted(shown(app).facets["topic"], key=lambda c: -c.count)[:2]
        panel = app.main_screen.query_one(FacetPanel)

        async def click(value: str) -> None:
            panel.focus()
            panel.cursor_line = facet_node(panel, "topic", value).line
            await pilot.press("enter")
            await settle(pilot)

        await search(pilot, f"topic:{topic.value}")
        typed = shown(app)
        assert typed.total == topic.count
        node = facet_node(panel, "topic", topic.value)
        assert node is not None and str(node.label).startswith("●"), (
            "typed filter shows as selected"
        )
        # Clicking another topic moves the typed one into the selection: OR, as clicks do.
        await click(other.value)
        both = shown(app)
        assert both.request.topics == frozenset({topic.value, other.value})
        assert both.request.query == "" and search_text(app) == ""
        assert both.total >= max(typed.total, other.count)
        # With the other one unclicked, the clicked filter gives what typing it gave.
        await click(other.value)
        clicked = shown(app)
        assert clicked.request.topics == frozenset({topic.value})
        assert {h.paper.id for h in clicked.hits} == {h.paper.id for h in typed.hits}
        await click(topic.value)
        assert shown(app).total == engine.size
        # Clicking a value that is only typed removes its token from the text.
        await pilot.press("slash")
        await search(pilot, f"topic:{topic.value}")
        await click(topic.value)
        assert search_text(app) == ""
        assert shown(app).request.topics == frozenset()
        assert shown(app).total == engine.size


@pytest.mark.parametrize("size", [WIDE, (80, 24)])
async def test_enter_opens_the_paper_full_screen_in_every_layout(
    engine: SearchEngine, size: Any
) -> None:
    app = build(engine)
    async with app.run_test(size=size) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "enter")  # submit the query, then open the first hit
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        pane = app.screen.query_one(DetailPane)
        assert pane.has_focus and pane.detail is not None and pane.detail.paper.id == "dynapipe"
        paper = known(engine, "dynapipe")
        assert paper.doi is not None
        body = plain(pane.query_one("#detail-body", Static).content, width=500)
        for expected in ("Identifiers", "Sources", paper.doi, paper.abstract[:40], *paper.authors):
            assert expected in body
        assert str(paper.sources[0]) in body
        # Abstract first: title, authors, venue and year, abstract, identifiers, labels, sources.
        order = [
            body.index(part)
            for part in (
                paper.title,
                paper.authors[0],
                paper.abstract[:40],
                "Identifiers",
                "Topics",
                "Sources",
            )
        ]
        assert order == sorted(order)
        citation = str(pane.query_one("#detail-citation", Static).content)
        assert format_citation([paper], "apa") in citation
        await pilot.press("escape")
        assert top_screen(app) is app.main_screen and results(app).has_focus


async def test_c_copies_the_citation_and_names_the_path(
    engine: SearchEngine, clipboard: list[str]
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "c")
        await settle(pilot)
        expected = format_citation([known(engine, "dynapipe")], "apa")
        assert clipboard == [expected]
        assert app.clipboard == expected
        messages = [n.message for n in all_notices(app)]
        assert any("system clipboard" in m and "APA" in m for m in messages), messages


async def test_mark_two_papers_and_copy_a_bibliography(
    engine: SearchEngine, clipboard: list[str], isolated_dirs: Path
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("m", "j", "m", "b")  # the app starts on the results
        await settle(pilot)
        first, second = (hit.paper for hit in results(app).hits[:2])
        assert app.marks.ids == (first.id, second.id)
        assert clipboard == [format_citation([first, second], "apa")]
        assert (isolated_dirs / "data" / "marks.json").is_file()
        await pilot.press("e", "ctrl+u", *str(isolated_dirs / "refs"), "enter")  # the dialog
        await settle(pilot)
        exported = isolated_dirs / "refs.txt"  # APA is text
        assert exported.read_text(encoding="utf-8").strip() == clipboard[0].strip()


async def test_the_palette_runs_an_action(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        first = results(app).highlighted
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Mark paper")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert first is not None and app.marks.ids == (first.id,)


async def test_a_superseded_result_is_dropped(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        stale = engine.search(SearchRequest(query="training", as_you_type=True))
        app.main_screen.post_message(SearchFinished(stale))
        await settle(pilot)
        assert shown(app).request.query == "dynapipe"
        assert results(app).hits[0].paper.id == "dynapipe"


async def test_a_failing_search_becomes_a_notification(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)

        def broken(request: SearchRequest, cancelled: object = None) -> None:
            raise RuntimeError("index went away")

        monkeypatch.setattr(engine, "search", broken)
        await search(pilot, "x")
        messages = [n.message for n in all_notices(app)]
        assert any("Searching failed: index went away" in m for m in messages), messages
        assert app.is_running


async def test_did_you_mean_is_one_key_away(engine: SearchEngine) -> None:
    """A typo's fuzzy results are shown at once; the precise correction is one key away."""
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "trainng")
        result = shown(app)
        assert result.total > 0 and result.correction == "training"
        status = str(app.main_screen.query_one("#status", Static).content)
        assert f"{result.total} of 47 papers ·" in status
        assert "ctrl+y: 'training'?" in status
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert search_text(app) == "training"
        assert shown(app).total > 0 and shown(app).correction is None


async def test_o_opens_the_best_link_in_the_browser(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    app = build(engine)
    monkeypatch.setattr(
        "tui.screens.paper_actions.launch_browser", lambda url, env: opened.append(url)
    )
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter", "o")
        await settle(pilot)
        assert opened == [f"https://doi.org/{known(engine, 'dynapipe').doi}"]


async def test_reaching_the_last_hit_loads_more_and_keeps_the_cursor(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.screens.main.PAGE", 10)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "a")
        await pilot.press("backspace")
        await settle(pilot)
        assert len(results(app).hits) == 10 < shown(app).total
        await pilot.press("enter", "end")
        await settle(pilot)
        assert app.main_screen.request.limit == 20
        assert len(results(app).hits) == 20
        assert results(app).cursor == 9, "the cursor stays on the paper it was on"
