"""Hostile documents: markup, actions, links and escapes in a paper render as characters.

Control characters are shown as their Unicode symbols (ESC as ␛), never sent to the terminal.

Also the first run, where the app builds the index in a worker and reports progress.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.style import Style
from textual.message import Message
from textual.widgets import Static

from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.models import Label, Paper, Segment, Snippet
from tests.tui.app_pilot import WIDE, all_notices, plain, results, screen_text, search, settle
from tui.app import make_app
from tui.messages import IndexProgress, IndexReady
from tui.services.config import AppSettings
from tui.widgets.detail_pane import DetailPane, PaperDetail, detail_body
from tui.widgets.render import snippet_text

HOSTILE = Path(__file__).parents[2] / "fixtures" / "app" / "hostile.jsonl"
MARKUP = (
    "[bold]markup[/bold]",
    "[@click=app.quit]click me[/]",
    "[link=https://evil.example]a link[/link]",
)


def active_styles(app: Any) -> list[Style]:
    """Every style on screen that would make text clickable or a link."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            style = segment.style
            if style is not None and (style.link or "@click" in (style.meta or {})):
                found.append(style)
    return found


async def test_hostile_text_renders_literally_and_does_nothing(taxonomy: Taxonomy) -> None:
    library = load_library([HOSTILE], taxonomy)
    seen: list[Message] = []
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=taxonomy)
    async with app.run_test(size=WIDE, message_hook=seen.append) as pilot:
        await settle(pilot)
        # First run: the index was built in the "index" worker, with progress reported.
        progress = [m for m in seen if isinstance(m, IndexProgress)]
        assert progress and progress[-1].done == progress[-1].total == len(library.papers)
        assert any(isinstance(m, IndexReady) for m in seen)
        assert app.main_screen.result is not None and app.main_screen.result.total == 2

        await search(pilot, "quokka")
        assert results(app).hits[0].paper.title.startswith("Quokka [bold]")
        await pilot.press("enter")  # to the results: the side pane shows the paper
        await settle(pilot)
        text = screen_text(app)
        assert "Quokka [bold]Injected[/bold]" in text
        body = plain(app.main_screen.query_one("#detail-body", Static).content, width=500)
        for literal in MARKUP:
            assert literal in body
        assert "Mallory [red]Evil[/red]" in body
        assert "[link=https://evil.example]Evil Venue[/link]" in body
        assert "\x1b" not in text
        assert active_styles(app) == []
        # Clicking where the "[@click=app.quit]" text is does not quit.
        await pilot.click(DetailPane, offset=(5, 1))
        await pilot.click("#results", offset=(10, 0))
        await settle(pilot)
        assert app.is_running and app.return_code is None


def test_escape_sequences_and_controls_are_dropped_from_rendered_text() -> None:
    paper = Paper(
        id="x",
        title="T\x1b[31mred\x1b[0m\x07",
        authors=("A \x1b]52;c;aGk=\x07B",),
        abstract="before \x1b[2J after",
        topics=(Label("training", "[bold]why[/bold]"),),
    )
    text = plain(detail_body(PaperDetail(paper, Snippet()), lambda facet, value: value), width=500)
    assert "\x1b" not in text and "\x07" not in text
    assert "T␛[31mred␛[0m␇" in text and "[bold]why[/bold]" in text
    assert "before ␛[2J after" in text
    snippet = snippet_text(Snippet((Segment("[b]x\x1b[0m", True),)), match_style="bold")
    assert snippet.plain == "[b]x␛[0m"


async def test_an_index_that_cannot_be_built_is_reported_not_raised(
    taxonomy: Taxonomy, monkeypatch: Any
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("index.open_engine", broken)
    library = load_library([HOSTILE], taxonomy)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.is_running and app.engine is None
        status = str(app.main_screen.query_one("#status", Static).content)
        assert status == "Building the search index failed: disk full"
        assert any("disk full" in n.message for n in all_notices(app))
