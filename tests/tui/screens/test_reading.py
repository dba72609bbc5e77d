"""Reading a paper by keys: the pager keys scroll, tab reaches similar papers, esc steps back,
and the paper on show is the one `c`, `m` and the style preview act on."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from index.citations import format_citation
from index.models import Paper
from index.search.engine import SearchEngine
from tests.tui.app_pilot import (
    WIDE,
    build,
    highlighted,
    known,
    plain,
    screen_text,
    search,
    settle,
    top_screen,
)
from tui.screens.detail import DetailScreen
from tui.widgets.detail_pane import DetailPane, venue_line

NARROW = (80, 24)


async def _open(pilot: Any, query: str) -> DetailPane:
    await search(pilot, query)
    await pilot.press("enter", "enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, DetailScreen)
    return pilot.app.screen.query_one(DetailPane)


async def test_the_abstract_is_visible_at_80x24_and_scrolls_to_its_end_by_keys(
    engine: SearchEngine,
) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        pane = await _open(pilot, "dynapipe")
        paper = known(engine, "dynapipe")
        assert paper.abstract.split()[0] in screen_text(app)
        assert pane.max_scroll_y > 0 and pane.border_subtitle == "no marks · ↓ more"
        for key, check in (
            ("j", lambda y: y == 1),
            ("k", lambda y: y == 0),
            ("space", lambda y: y > 5),
            ("b", lambda y: y == 0),
            ("pagedown", lambda y: y > 5),
            ("pageup", lambda y: y == 0),
            ("G", lambda y: y == pane.max_scroll_y),
            ("g", lambda y: y == 0),
            ("end", lambda y: y == pane.max_scroll_y),
            ("home", lambda y: y == 0),
            ("down", lambda y: y == 1),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert check(pane.scroll_y), (key, pane.scroll_y)
        # Page by page to the end: every word of the abstract was on screen at some point.
        seen = ""
        await pilot.press("home")
        while True:
            await pilot.pause()
            seen += screen_text(app)
            if pane.scroll_y >= pane.max_scroll_y:
                break
            await pilot.press("space")
        assert pane.border_subtitle == "no marks"  # the end: no "more"
        words = [w for w in paper.abstract.split() if "/" not in w]
        assert all(word in seen for word in words[:5] + words[-5:])


async def test_tab_reaches_similar_papers_and_esc_undoes_the_step(
    engine: SearchEngine, clipboard: list[str]
) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        pane = await _open(pilot, "dynapipe")
        similar = pane.query_one("#detail-similar", OptionList)
        await pilot.press("j")
        assert pane.has_focus and similar.highlighted == 0  # reading keys never move its highlight
        await pilot.press("tab")
        await settle(pilot)  # focus scrolls the list into view after a refresh
        await pilot.wait_for_scheduled_animations()
        assert similar.has_focus
        assert pane.detail is not None
        scrolled = pane.scroll_y
        await pilot.press("j")  # in the list j moves its cursor, as down does
        await pilot.pause()
        assert similar.highlighted == 1 and pane.scroll_y == scrolled
        await pilot.press("k")
        assert similar.highlighted == 0
        other = (pane.detail.related + pane.detail.similar)[0]
        await pilot.press("enter")
        await settle(pilot)
        assert pane.detail.paper.id == other.id and pane.has_focus
        trail = str(pane.query_one("#detail-trail", Static).content)
        assert "DynaPipe" in trail and ("similar to" in trail or "linked version" in trail)
        await pilot.press("c")
        await settle(pilot)
        assert clipboard[-1] == format_citation([other], "apa")
        await pilot.press("escape")
        await settle(pilot)
        assert pane.detail.paper.id == "dynapipe" and isinstance(app.screen, DetailScreen)
        await pilot.press("escape")
        assert top_screen(app) is app.main_screen


async def test_the_side_pane_reads_by_keys_and_keys_act_on_the_paper_it_shows(
    engine: SearchEngine, clipboard: list[str]
) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "dynapipe")
        await pilot.press("enter")  # to the results
        await settle(pilot)
        pane = app.main_screen.query_one(DetailPane)
        assert pane.detail is not None and pane.detail.paper.id == "dynapipe"
        await pilot.press("tab")
        assert pane.has_focus
        await pilot.press("tab", "enter")  # a similar paper, in the pane
        await settle(pilot)
        other = pane.detail.paper
        assert other.id != "dynapipe"
        await pilot.press("c", "m")
        await settle(pilot)
        assert clipboard[-1] == format_citation([other], "apa")
        assert other.id in app.marks
        # Back to the results: the pane shows the highlighted paper again, and c copies it.
        await pilot.press("r")
        await settle(pilot)
        assert pane.detail.paper.id == highlighted(app).id == "dynapipe"
        await pilot.press("c")
        await settle(pilot)
        assert clipboard[-1] == format_citation([known(engine, "dynapipe")], "apa")


async def test_the_style_preview_names_its_paper(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await _open(pilot, "dynapipe")
        await pilot.press("s")
        await settle(pilot)
        about = str(app.screen.query_one("#style-about", Static).content)
        assert "dynapipe" in about and "DynaPipe" in about


def test_the_detail_hides_curation_notes_and_says_the_pages_once() -> None:
    from index.models import Snippet
    from tui.services.papers import PaperDetail
    from tui.widgets.detail_pane import detail_body

    paper = Paper(
        id="x",
        title="T",
        authors=("A B",),
        year=2024,
        pages="542-559",
        venue="EuroSys '24 (Proceedings), pp. 542-559",
        note="003[8] is the same abstract",
        doi="10.1145/3627703.3629585",
        url="https://example.org/" + "a" * 35,
    )
    assert venue_line(paper) == "EuroSys '24 (Proceedings) · pp. 542-559 · 2024"
    body = plain(detail_body(PaperDetail(paper, Snippet()), lambda f, v: v), width=60)
    assert "003[8]" not in body and body.count("542-559") == 1
    # Identifiers are never broken: the URL (too long beside its name) moves below it.
    lines = [line.strip() for line in body.splitlines()]
    assert "DOI 10.1145/3627703.3629585" in lines
    assert "URL" in lines and paper.url in lines


async def test_the_full_screen_detail_counts_the_marked_papers(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("m", "j", "m")  # two marked from the results
        await settle(pilot)
        pane = await _open(pilot, "dynapipe")
        assert pane.border_subtitle == "● 2 marked · ↓ more"
        await pilot.press("m")
        await settle(pilot)
        assert pane.border_subtitle == "● 3 marked · ↓ more"
        assert "● 3 marked" in screen_text(app)
        await pilot.press("G")  # at the end: the count stays, "more" goes
        await pilot.pause()
        assert pane.border_subtitle == "● 3 marked"
        await pilot.press("escape")
        await settle(pilot)
        column = app.main_screen.query_one("#results-column")
        assert column.border_subtitle == "● 3 marked"


def test_a_source_keeps_its_name_and_line_together_with_the_folder_below() -> None:
    """As one "path:line" a 38-column pane broke the real exports' paths anywhere:
    "/work/shared/realdata/cdl.bib:50" and "469" on the next line."""
    from index.models import Snippet, Source
    from tui.services.papers import PaperDetail
    from tui.widgets.detail_pane import detail_body

    folder = "/home/researcher/library/exports/lab-shared"
    paper = Paper(
        id="x",
        title="T",
        sources=(Source(f"{folder}/cdl.bib", 50469), Source("bundled.jsonl", 3)),
    )
    body = plain(detail_body(PaperDetail(paper, Snippet()), lambda f, v: v), width=38)
    lines = [line.strip() for line in body.splitlines()]
    assert "cdl.bib:50469" in lines and "bundled.jsonl:3" in lines
    start = lines.index("cdl.bib:50469") + 1
    end = lines.index("bundled.jsonl:3")
    assert lines[start].startswith("in") and "".join(lines[start:end]) == f"in{folder}"
