"""One search at a time: keystrokes typed while a search runs make one more, for the latest text."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual.widgets import Static

from index.models import SearchRequest, SearchResult
from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, all_notices, build, search_text, settle, shown
from tui.screens import searching
from tui.widgets.status_line import StatusLine


def status(app) -> str:
    return str(app.main_screen.query_one(StatusLine, Static).render())


async def test_typing_during_a_search_queues_only_the_latest_request(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []
    release = threading.Event()
    real_search = engine.search

    def slow_search(request: SearchRequest, cancelled: Any = None) -> SearchResult:
        started.append(request.query)
        if request.query == "p":  # checks for no cancellation: runs until released
            assert release.wait(10), "the test never released the first search"
        return real_search(request, cancelled)

    monkeypatch.setattr(engine, "search", slow_search)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        started.clear()
        await pilot.press("p")  # this search blocks until released
        await pilot.pause(0.2)
        await pilot.press(*"ipelin")  # typed while it runs: no new searches yet
        await pilot.pause(0.3)
        assert started == ["p"]
        assert search_text(app) == "pipelin"  # typing never waited
        release.set()
        await settle(pilot)
        assert started == ["p", "pipelin"]  # one more search, for the latest text only
        assert app.main_screen.result is not None
        assert app.main_screen.result.request.query == "pipelin"
        assert "of 47 papers" in status(app)


async def test_a_failed_search_does_not_stop_the_next_one(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_search = engine.search

    def failing_search(request: SearchRequest, cancelled: Any = None) -> SearchResult:
        if request.query == "x":
            raise RuntimeError("index damaged")
        return real_search(request, cancelled)

    monkeypatch.setattr(engine, "search", failing_search)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "x")
        await settle(pilot)
        assert any("index damaged" in n.message for n in all_notices(app))
        await pilot.press("backspace", *"pipeline")
        await settle(pilot)
        assert app.main_screen.result is not None
        assert app.main_screen.result.request.query == "pipeline"


async def test_the_engine_reads_ahead_once_after_the_first_page(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`SearchEngine.preload` runs in a worker once the first page is shown, not before
    it (its read would hold the page back from the terminal) and not per search."""
    shown_before: list[bool] = []
    monkeypatch.setattr(searching, "PRELOAD_DELAY", 0.05)
    app = build(engine)
    monkeypatch.setattr(
        SearchEngine,
        "preload",
        lambda self: shown_before.append(app.main_screen.result is not None),
    )
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.pause(0.1)
        await settle(pilot)
        assert shown_before == [True]
        await pilot.press("slash", *"memory")
        await settle(pilot)
        await pilot.pause(0.1)
        assert shown_before == [True]


def spy_repaints(monkeypatch: pytest.MonkeyPatch) -> set[str | None]:
    """From now on, the ids of the widgets the screen repaints (cleared by the caller)."""
    from textual._compositor import Compositor

    repainted: set[str | None] = set()
    update_widgets = Compositor.update_widgets

    def spy_update_widgets(self: Compositor, widgets: set[Any]) -> None:
        repainted.update(widget.id for widget in widgets)
        update_widgets(self, widgets)

    monkeypatch.setattr(Compositor, "update_widgets", spy_update_widgets)
    return repainted


async def test_a_keystroke_redraws_what_changed_not_the_whole_terminal(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Setting the screen's request repainted the whole screen, and setting a border title
    repainted its pane whole even when the title stayed: every keystroke drew and sent
    every line again (888 kB for 17 keys in tmux, now 400 kB)."""
    from textual._compositor import Compositor

    full_frames: list[object] = []
    draw_all = Compositor.render_full_update

    def render_full_update(self: Compositor, simplify: bool = False) -> Any:
        full_frames.append(self)
        return draw_all(self, simplify=simplify)

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot)
        monkeypatch.setattr(Compositor, "render_full_update", render_full_update)
        repainted = spy_repaints(monkeypatch)
        for key in "sched":
            await pilot.press(key)
            await settle(pilot)
        assert search_text(app) == "sched"
        assert app.main_screen.result is not None and app.main_screen.result.total > 0
        assert full_frames == []
        assert "results" in repainted  # the rows changed...
        assert "results-column" not in repainted  # ...not the column's title (the sort)


async def test_counts_already_shown_do_not_rebuild_the_facet_tree(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typing on in a narrow search often brings the counts shown already; the panel is
    not repainted for them (a rebuilt tree repaints every line), and still is when they
    change."""
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"dynap")
        await settle(pilot)
        repainted = spy_repaints(monkeypatch)
        steps: list[tuple[str, bool, bool]] = []  # query, counts changed, panel repainted
        for key in ("i", "p", "backspace", "backspace", "backspace", "backspace", "backspace"):
            before = shown(app)
            repainted.clear()
            await pilot.press(key)
            await settle(pilot)
            after = shown(app)
            steps.append((search_text(app), after.facets != before.facets, "facets" in repainted))
        assert all(changed == painted for _, changed, painted in steps), steps
        assert {changed for _, changed, _ in steps} == {True, False}, steps


async def test_the_first_detail_is_loaded_after_the_first_page_is_drawn(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first detail imports the citation engine (~0.1 s holding the interpreter's
    lock): it waits for the first page to be drawn. A start asked for it three times
    (the first result, the first resize, the cursor); it is loaded once."""
    from textual.screen import Screen

    from tui.screens.main import MainScreen
    from tui.widgets.results_list import ResultsList

    pages_drawn: list[int] = []
    draw = Screen._compositor_refresh

    def counting_draw(self: Screen[Any]) -> None:
        rows = self.query(ResultsList)
        if isinstance(self, MainScreen) and rows and rows.first().hits:
            pages_drawn.append(len(rows.first().hits))
        draw(self)

    loads: list[int] = []
    load = MainScreen.load_detail

    def counting_load(self: MainScreen, paper_id: str, terms: tuple[str, ...]) -> Any:
        loads.append(len(pages_drawn))
        return load(self, paper_id, terms)

    monkeypatch.setattr(Screen, "_compositor_refresh", counting_draw)
    monkeypatch.setattr(MainScreen, "load_detail", counting_load)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.main_screen.query_one("DetailPane").detail is not None  # type: ignore[attr-defined]
        assert loads[0] >= 1  # a frame with the rows came first...
        assert len(loads) == 1  # ...and the pane was filled once


async def test_a_start_with_no_tags_or_notes_searches_once(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's layer is applied at every start; when it is the engine's already (empty,
    for a new user), the first search is not cancelled and run again for it."""
    from index.search.user_layer import UserLayer
    from tui.services.paths import data_dir
    from tui.services.saved_searches import SavedSearches

    engine.set_user_layer(UserLayer())  # the shared engine as a new user's is
    SavedSearches(data_dir() / "saved_searches.json").save("kv", SearchRequest("cache"))
    started: list[SearchRequest] = []
    real_search = engine.search

    def counted(request: SearchRequest, cancelled: Any = None) -> SearchResult:
        started.append(request)
        return real_search(request, cancelled)

    monkeypatch.setattr(engine, "search", counted)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        shown_searches = [request for request in started if request.counts]  # the screen's
        assert [request.query for request in shown_searches] == [""]
        assert "47 of 47 papers" in status(app)
        cache_total = engine.search(SearchRequest("cache", limit=0)).total
        assert app.main_screen.with_saved({})["saved"][0].count == cache_total  # still counted


async def test_an_open_index_has_its_rows_in_the_first_frame(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start on an open index searches its first page before the first frame, on the
    UI thread (`SearchingScreen.first_search`), not in a worker whose result comes frames
    later; every later search still runs in a worker."""
    from textual.screen import Screen

    from tui.screens.main import MainScreen
    from tui.widgets.results_list import ResultsList

    frames: list[int] = []
    draw = Screen._compositor_refresh

    def counting_draw(self: Screen[Any]) -> None:
        if isinstance(self, MainScreen):
            frames.append(len(self.query_one(ResultsList).hits))
        draw(self)

    searches: list[tuple[str, bool]] = []  # (query, searched on the UI thread)
    real_search = engine.search

    def recording_search(request: SearchRequest, cancelled: Any = None) -> SearchResult:
        if request.counts:  # the screen's own searches (not the detail's look-ups)
            searches.append((request.query, threading.current_thread() is threading.main_thread()))
        return real_search(request, cancelled)

    monkeypatch.setattr(Screen, "_compositor_refresh", counting_draw)
    monkeypatch.setattr(engine, "search", recording_search)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert frames and frames[0] == len(shown(app).hits) > 0
        assert searches == [("", True)]
        await pilot.press("slash", "g")
        await settle(pilot)
        assert searches == [("", True), ("g", False)]


async def test_a_first_search_that_fails_on_the_ui_thread_is_searched_again_in_a_worker(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_ui_thread: list[bool] = []
    real_search = engine.search

    def failing_once(request: SearchRequest, cancelled: Any = None) -> SearchResult:
        if request.counts:  # the screen's own searches (not the detail's look-ups)
            on_ui_thread.append(threading.current_thread() is threading.main_thread())
            if len(on_ui_thread) == 1:
                raise OSError("the disk hiccuped")
        return real_search(request, cancelled)

    monkeypatch.setattr(engine, "search", failing_once)
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert on_ui_thread == [True, False]
        assert shown(app).total == engine.size
        assert not [n for n in all_notices(app) if n.severity == "error"]
