"""Helpers for driving the app in Pilot tests (and snapshot tests): build, settle, read."""

from __future__ import annotations

import io
from typing import Any

from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from index.search.engine import SearchEngine
from tui.app import PaperscopeApp, make_app
from tui.services.config import AppSettings
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar

WIDE = (120, 30)


def build(engine: SearchEngine, *, show_timings: bool = True) -> PaperscopeApp:
    """The app on a shared engine, with settings from the tmp folders set by conftest.

    Snapshot tests pass `show_timings=False`: "3 ms" in the status line varies per run.
    """
    return make_app(AppSettings.from_environment(), engine=engine, show_timings=show_timings)


async def _wait_for_workers(app: PaperscopeApp | Any) -> None:
    """Wait for every worker; one cancelled on the way is fine, one that failed is not.

    An exclusive worker (a search superseded by the next keystroke) is cancelled by design,
    and Textual's `wait_for_complete` raises for it.
    """
    for worker in list(app.workers):
        try:
            await worker.wait()
        except WorkerCancelled:
            pass


async def settle(pilot: Pilot[Any]) -> None:
    """Let messages, workers and the messages they post all finish.

    A finished search may start the next one (the request changed while it ran), and a
    shown result may load a detail: rounds go on until nothing runs or is queued.
    """
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        await _wait_for_workers(app)
    for _ in range(50):
        await pilot.pause()
        busy = any(worker.is_running for worker in app.workers)
        if not busy and not getattr(getattr(app, "main_screen", None), "searching", False):
            break
        await _wait_for_workers(app)
    await pilot.pause()


async def search(pilot: Pilot[Any], query: str) -> None:
    """Type a query (after `/`, unless the search bar has the focus) and wait for its result."""
    if not isinstance(pilot.app.focused, SearchBar):
        await pilot.press("slash")
    await pilot.press(*query)
    await settle(pilot)


def results(app: PaperscopeApp) -> ResultsList:
    return app.main_screen.query_one(ResultsList)


def screen_text(app: PaperscopeApp) -> str:
    """What the terminal shows, as plain characters."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def results_text(app: PaperscopeApp) -> str:
    """The results pane's visible lines joined into one string, wrapped lines rejoined."""
    widget = results(app)
    lines = [widget.render_line(y).text.strip() for y in range(widget.size.height)]
    return " ".join(" ".join(lines).split())


def plain(renderable: Any, width: int = 80) -> str:
    """A Rich renderable (a widget's content) as the plain text a terminal would show."""
    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def facet_node(panel: FacetPanel, facet: str, value: str) -> Any:
    """The visible tree node of one facet value (its `.line` is where to move the cursor)."""
    for line in range(panel.last_line + 1):
        node = panel.get_node_at_line(line)
        if node is not None and node.data == (facet, value):
            return node
    raise AssertionError(f"{facet}={value} is not in the facet panel")
