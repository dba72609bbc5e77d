"""A result found inside an attached PDF shows its page and the words around, literally."""

from __future__ import annotations

from pathlib import Path

from index.fulltext import sync_fulltext
from index.fulltext.extract import Extracted
from index.fulltext.pool import ExtractionPool, Job
from index.fulltext.store import FulltextStore
from index.models import Paper
from tests.index.fulltext.pdfs import paper_pdf
from tests.tui.app_pilot import (
    WIDE,
    app_with,
    results,
    screen_text,
    search,
    settle,
    shown,
    top_screen,
)
from tui.screens.detail import DetailScreen
from tui.widgets.detail_pane import DetailPane


async def test_a_full_text_match_shows_its_page_in_the_row_and_the_detail(tmp_path: Path) -> None:
    pdf = paper_pdf(tmp_path)
    hostile = tmp_path / "hostile.pdf"
    hostile.write_bytes(b"%PDF-1.4 not really")
    papers = [
        Paper(id="paging", title="Memory management", year=2023, attachments=(str(pdf),)),
        Paper(id="odd", title="An odd file", year=2020, attachments=(str(hostile),)),
        Paper(id="plain", title="Nothing attached", abstract="Triangles.", year=2021),
    ]
    cache = tmp_path / "cache"
    for _ in ExtractionPool(cache, workers=0).read([Job(str(pdf))]):
        pass
    # A stored text holding markup and an escape sequence (the store is a cache on disk).
    store = FulltextStore(cache)
    store.put(
        store.digest(hostile),
        Extracted(pages=("cover", "[bold]Pythagoras[/bold] \x1b[31m [@click=app.quit]x[/]")),
    )
    store.save_files()
    sync_fulltext(cache, papers)

    app = app_with(tmp_path, papers)
    async with app.run_test(size=WIDE) as pilot:
        await search(pilot, "pythagoras")
        order = [hit.paper.id for hit in shown(app).hits]
        assert sorted(order) == ["odd", "paging"]
        widget = results(app)

        def snippet_line(paper_id: str) -> str:
            return widget.render_line(order.index(paper_id) * widget.row_height + 3).text

        assert "p. 2: On page two, the theorem of Pythagoras" in snippet_line("paging")
        assert "p. 2: [bold]Pythagoras[/bold] ␛[31m [@click" in snippet_line("odd")
        # The pane shows the highlighted paper with where it was found.
        pane = app.main_screen.query_one(DetailPane)
        assert pane.detail is not None and pane.detail.page_match is not None
        text = screen_text(app)
        assert "Found in the full text" in text
        assert "p. 2: [bold]Pythagoras[/bold]" in text
        assert f"in {Path(pane.detail.page_match.path).name}" in text
        # Opened full screen, the paper still says where it was found.
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert isinstance(top_screen(app), DetailScreen)
        assert "Found in the full text" in screen_text(app)
