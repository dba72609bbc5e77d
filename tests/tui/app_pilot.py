"""Helpers for driving the app in Pilot tests (and snapshot tests): build, settle, read.

The readers (`shown`, `highlighted`, `known`, `search_text`, `highlighted_option`,
`top_screen`) return what a
test asserts on with its type narrowed: each fails the test with a plain message when the
app has nothing there yet, instead of every test writing `assert x is not None` first.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual.notifications import Notification
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import WorkerCancelled

from index.facets.taxonomy import load_taxonomy
from index.models import Library, Paper, SearchResult
from index.search.engine import SearchEngine
from tests.tui.frames import draw_pending
from tui.app import PaperscopeApp, make_app
from tui.services.config import AppSettings
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.results_list import ResultsList
from tui.widgets.search_bar import SearchBar

WIDE = (120, 30)


def app_with(tmp_path: Path, papers: Sequence[Paper]) -> PaperscopeApp:
    """The app on these papers alone, its config, data and cache under `tmp_path`."""
    settings = AppSettings(tmp_path / "config.toml", tmp_path / "data", tmp_path / "cache")
    return make_app(settings, library=Library(papers=tuple(papers)), taxonomy=load_taxonomy())


def build(engine: SearchEngine, *, show_timings: bool | None = True) -> PaperscopeApp:
    """The app on a shared engine, with settings from the tmp folders set by conftest.

    Snapshot tests pass `show_timings=False`: "3 ms" in the status line varies per run;
    None leaves it to the user's config (`debug`).
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
    shown result may load a detail: rounds go on until two pauses in a row (each one waits
    for every widget's queued messages, then for an idle app) find no worker unfinished and
    no search running or queued. Two, not one: a pause that ends a worker's round may leave
    the messages it posted for the next. A fixed three rounds before the first check cost
    every settle ~20 ms of waiting on an app that was already still.
    """
    app = pilot.app
    quiet = 0
    for _ in range(60):
        await pilot.pause()
        if _busy(app):
            quiet = 0
            await _wait_for_workers(app)
        else:
            quiet += 1
            if quiet == 2:
                break
    draw_pending(app)  # the settled state is drawn (tests/tui/frames.py)


def _busy(app: PaperscopeApp | Any) -> bool:
    """A worker has not finished, or the main screen has a search running or queued."""
    if any(not worker.is_finished for worker in app.workers):
        return True
    return bool(getattr(getattr(app, "main_screen", None), "searching", False))


async def search(pilot: Pilot[Any], query: str) -> None:
    """Type a query (after `/`, unless the search bar has the focus) and wait for its result."""
    if not isinstance(pilot.app.focused, SearchBar):
        await pilot.press("slash")
    await pilot.press(*query)
    await settle(pilot)


def results(app: PaperscopeApp) -> ResultsList:
    return app.main_screen.query_one(ResultsList)


def shown(app: PaperscopeApp) -> SearchResult:
    """The result the main screen shows now."""
    result = app.main_screen.result
    assert result is not None, "the main screen has no result yet"
    return result


def highlighted(app: PaperscopeApp) -> Paper:
    """The paper under the results list's cursor."""
    paper = results(app).highlighted
    assert paper is not None, "no paper is highlighted"
    return paper


def known(engine: SearchEngine, paper_id: str) -> Paper:
    """A paper the test corpus has."""
    paper = engine.paper(paper_id)
    assert paper is not None, f"the engine has no paper {paper_id!r}"
    return paper


def search_text(app: PaperscopeApp) -> str:
    """What the main screen's search bar holds."""
    return app.main_screen.query_one("#search", SearchBar).value


def highlighted_option(app: PaperscopeApp, selector: str = "#style-list") -> Option:
    """The highlighted option of an option list on the screen on top (the style picker's)."""
    option = app.screen.query_one(selector, OptionList).highlighted_option
    assert option is not None, f"nothing is highlighted in {selector}"
    return option


def top_screen(app: PaperscopeApp) -> Screen[Any]:
    """The screen on top, read afresh (an earlier `isinstance` narrowing does not stick)."""
    return app.screen


def all_notices(app: PaperscopeApp | Any) -> list[Notification]:
    """Every notification the app was given, expired ones too (tests/tui/conftest.notice_log)."""
    seen: list[Notification] = app._notifications.__dict__.get("seen", [])
    return list(seen) if seen else list(app._notifications)


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
