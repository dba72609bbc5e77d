"""Finding a paper one knows, in the app: a pasted identifier, a typo, the user's own key."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Static

from index import open_engine
from index.models import Library, Paper
from index.search.engine import SearchEngine
from tests.fixtures.search.generate import TAXONOMY
from tests.index.search.test_few_matches import PAPERS as FEW_PAPERS
from tests.tui.app_pilot import (
    WIDE,
    all_notices,
    build,
    plain,
    results_text,
    search,
    settle,
    shown,
)
from tui.widgets.search_bar import SearchBar

KEYED = (
    Paper(
        id="knuth-ct-b",
        title="TeX: The Program",
        citation_key="knuth:ct:b",
        authors=("Donald E. Knuth",),
        year=1986,
        doi="10.1000/tex.b",
    ),
    Paper(id="lamport-94", title="LaTeX: A Document Preparation System", year=1994),
)


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    engine = open_engine(Library(papers=KEYED), TAXONOMY, tmp_path_factory.mktemp("keyed"))
    yield engine
    engine.close()


def status(app: object) -> str:
    return str(app.main_screen.query_one("#status", Static).content)  # type: ignore[attr-defined]


async def test_a_pasted_doi_url_shows_its_paper_first(engine: SearchEngine) -> None:
    """Copied from a sentence: a resolver URL in capitals with the sentence's full stop."""
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        bar = app.main_screen.query_one("#search", SearchBar)
        bar.post_message(events.Paste("HTTPS://DX.DOI.ORG/10.1145/3767295.3769364."))
        await settle(pilot)
        result = shown(app)
        assert result.request.query == "HTTPS://DX.DOI.ORG/10.1145/3767295.3769364."
        assert result.hits[0].paper.doi == "10.1145/3767295.3769364"
        assert result.notice is None


async def test_a_doi_no_paper_has_is_named_in_the_empty_results(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "doi:10.9999/nothing.here ")
        assert shown(app).total == 0
        text = results_text(app)
        assert "No paper in this library has the DOI 10.9999/nothing.here." in text
        assert "fuzzy" not in text  # a fuzzy word would not find a DOI


async def test_a_typo_shows_fuzzy_results_and_the_status_says_so(engine: SearchEngine) -> None:
    """`trainng` typed and left: after the pause its fuzzy form's results are shown."""
    app = build(engine, show_timings=False)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "trainng")
        result = shown(app)
        assert result.request.query == "trainng" and result.total > 0
        assert "training" in result.terms
        line = status(app)
        assert "No exact match: showing results for trainng~" in line
        assert "ctrl+y: 'training'?" in line
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert shown(app).request.query == "training" and shown(app).notice is None


async def test_a_rare_typo_shows_the_exact_match_then_the_fuzzy_ones(
    tmp_path: Path,
) -> None:
    """`retreival practice` finds the one paper with that typo while typed; after the
    pause the papers of "retrieval" follow it, and the status says so."""
    engine = open_engine(Library(papers=FEW_PAPERS), TAXONOMY, tmp_path)
    app = build(engine, show_timings=False)
    try:
        async with app.run_test(size=WIDE) as pilot:
            await search(pilot, "retreival practice")
            result = shown(app)
            assert result.total == 13 and result.hits[0].paper.id == "typo"
            assert "Few exact matches, first; then results for retreival~2" in status(app)
    finally:
        engine.close()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_retrys_notice_is_read_from_its_start(
    engine: SearchEngine, size: tuple[int, int]
) -> None:
    """The status line shows three rows at most: the notice of a retry comes before a
    long correction, so its start stays in view at 80 and 120 columns."""
    app = build(engine, show_timings=True)
    async with app.run_test(size=size) as pilot:
        await search(pilot, "pipeline parallelism for multi-task traning")
        assert shown(app).correction and shown(app).total
        line = app.main_screen.query_one("#status", Static)
        rows = plain(line.content, width=line.content_size.width).splitlines()
        assert line.size.height == 3 and len(rows) > 3  # cut: the correction is what goes
        visible = " ".join(" ".join(rows[:3]).split())
        said = "No exact match: showing results for pipeline parallelism for multi-task traning~"
        assert said in visible


async def test_nothing_even_fuzzily_says_what_was_tried(engine: SearchEngine) -> None:
    app = build(engine, show_timings=False)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "qqzzxv ")
        assert shown(app).total == 0 and shown(app).correction is None
        assert "Fuzzy words found nothing either (qqzzxv~2)." in results_text(app)


async def test_rows_notices_and_the_detail_show_the_users_key(keyed: SearchEngine) -> None:
    app = build(keyed, show_timings=False)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "KNUTH:CT")  # a prefix of the key, typed in capitals
        assert shown(app).hits[0].paper.id == "knuth-ct-b"
        text = results_text(app)
        assert "knuth:ct:b · D. E. Knuth · 1986" in text or "knuth:ct:b · Donald" in text
        assert "knuth-ct-b" not in text
        await pilot.press("enter", "enter")  # submit the query, then open the first hit
        await settle(pilot)
        body = plain(app.screen.query_one("#detail-body", Static).content, width=200)
        assert re.search(r"Key\s+knuth:ct:b", body) and "knuth-ct-b" not in body
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert any("Marked knuth:ct:b" in str(n.message) for n in all_notices(app))
        await pilot.press("slash")
        app.main_screen.query_one("#search", SearchBar).value = ""
        await search(pilot, "preparation")
        assert "lamport-94 ·" in results_text(app)  # no key: paperscope's id
