"""Searching for a screen's `request`: at most one search at a time, the latest one shown.

Widgets and keys change `request` (a frozen `SearchRequest` reactive); this layer runs
it in a thread worker (all but an open index's first page, searched before the first
frame: `first_search`), cancels a running search that a newer request superseded, looks
up "did you mean" once the user pauses, and hands the screen only the result for the
request it has now (`show_result`). The main screen draws it; nothing here knows how.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import on, work
from textual.reactive import var
from textual.worker import Worker, WorkerState, get_current_worker

from index.cancel import Cancelled
from index.models import SearchRequest, SearchResult
from tui.messages import SearchFinished, SearchThreadEnded
from tui.screens.base import PaperScreen

__all__ = ["CORRECTION_PAUSE", "PAGE", "SearchingScreen"]

PAGE = 50  # hits fetched at a time; more are asked for when the cursor reaches the end
CORRECTION_PAUSE = 0.3  # seconds of no typing before "did you mean" is looked up


# Seconds after the first page of an engine is shown before its deferred reads are done.
PRELOAD_DELAY = 1.0


class SearchingScreen(PaperScreen):
    """A paper screen that searches for its `request` and shows the current result."""

    # `var`, not `reactive`: a reactive repaints the widget it belongs to when set, and the
    # screen's repaint is the whole terminal (every widget's every line, sent again on each
    # keystroke). What the request changes is drawn by the widgets it is given to.
    request: var[SearchRequest] = var(SearchRequest(as_you_type=True, limit=PAGE), init=False)
    marked_only: var[bool] = var(False, init=False)

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.result: SearchResult | None = None
        self._search_worker: Worker[None] | None = None  # the one search running
        self._search_again = False  # the request changed while it ran
        # Search workers whose thread is working (it reports its end: SearchThreadEnded).
        self._threads: set[Worker[None]] = set()
        self._threads_lock = threading.Lock()
        self._preloaded: object = None  # the engine whose deferred reads are done

    def show_result(self, result: SearchResult) -> None:
        """Draw the result of the current request (the screen that composes the widgets)."""
        raise NotImplementedError

    def engine_for(self, request: SearchRequest) -> Any:
        """What answers `request`: the app's engine (None while there is none yet). A
        first start's screen may answer from the records read meanwhile (`MainScreen`)."""
        return self._app.engine

    def watch_request(self, request: SearchRequest) -> None:
        self.start_search()

    def watch_marked_only(self, marked_only: bool) -> None:
        self.request = replace(self.request, limit=PAGE)  # a new request: search again
        self.result = None
        self.start_search()

    def start_search(self) -> None:
        """Search for the current request: now, or as soon as the running search stops.

        Python threads share one core, so searches started on every keystroke while the
        earlier ones still ran slowed each other down (100,000 papers: the last of eight
        fast keystrokes took ~340 ms instead of ~80). At most one runs: a keystroke meanwhile
        changes `request` and cancels the running search, whose thread stops at the
        engine's next check (index.cancel), and the latest request is searched when it has.
        Typing never waits, and a slow query (a 100 KB paste) never delays the next one.
        """
        if self.engine_for(self.request) is None:
            return
        running = self._search_worker
        if running is not None:
            running.cancel()
            self._search_again = True  # searched when the running one has stopped
            self.run_worker(self._when_stopped(running), group="search-end", exit_on_error=False)
            return
        self._search_again = False
        self._search_worker = self.run_search(self.request)

    def first_search(self) -> None:
        """The screen's first page: searched here, on the UI thread, when the engine is open.

        Before the first frame nothing waits for the UI thread, and an open index's first
        page is quick (the empty request at 100,000 papers: ~12 ms). Searched in a worker,
        it reached the screen ~45 ms later (measured in tmux, a warm start at 100,000
        papers: 0.54 -> 0.49 s to the first rows), as the worker's thread and the first
        frame took turns holding the interpreter's lock. With no engine yet, a result
        already shown, or a search that fails here, `start_search` does it (and a failure
        is reported there, as for any search).
        """
        engine = self.engine_for(self.request)
        if engine is None or self.marked_only or self.result is not None:
            self.start_search()
            return
        try:
            result = engine.search(self.request)
        except Exception:  # the worker's search says what went wrong
            self.start_search()
            return
        self._shown(result)

    @property
    def searching(self) -> bool:
        """A search is running or queued (tests wait for this to settle)."""
        return self._search_worker is not None or self._search_again

    def _search_ended(self) -> None:
        self._search_worker = None
        if self._search_again:
            self._search_again = False
            self.start_search()

    @on(SearchThreadEnded)
    def _search_thread_ended(self, message: SearchThreadEnded) -> None:
        """The running search's thread is done (even if it posted no result): go on."""
        if message.worker is self._search_worker:
            self._search_ended()

    async def _when_stopped(self, worker: Worker[None]) -> None:
        """A cancelled search's task is over: go on now unless its thread still works.

        A worker cancelled before its task first ran never runs, and Textual then posts no
        state change for it (it stays "running"); awaiting it is the one sure signal.
        A thread that began reports its own end (SearchThreadEnded) once it stops.
        """
        try:
            await worker.wait()
        except Exception:  # cancelled (the point) or failed (told by the base screen)
            pass
        with self._threads_lock:
            working = worker in self._threads
        if not working and worker is self._search_worker:
            self._search_ended()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed search with no thread left working on it ends here."""
        super().on_worker_state_changed(event)
        if event.worker is self._search_worker and event.state == WorkerState.ERROR:
            with self._threads_lock:
                working = event.worker in self._threads
            if not working:  # else its thread posts SearchThreadEnded when it stops
                self._search_ended()

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="Searching")
    def run_search(self, request: SearchRequest) -> None:
        """Ask the engine in a thread, so typing never waits for a search."""
        worker = get_current_worker()
        with self._threads_lock:
            if worker.is_cancelled:  # cancelled before it began: the screen has moved on
                return
            self._threads.add(worker)
        try:
            self._search_in_thread(request, worker)
        except Cancelled:  # superseded: the screen searches the latest request next
            pass
        finally:
            with self._threads_lock:
                self._threads.discard(worker)
            self.post_message(SearchThreadEnded(worker))

    @work(thread=True, group="preload", exit_on_error=False, description="Reading ahead")
    def preload_engine(self) -> None:
        """Once a page is on screen, read what a narrow search would wait for
        (`SearchEngine.preload`), so the user's first keystroke does not.

        Not at once (`PRELOAD_DELAY`): the read holds the interpreter's lock, and Textual
        writes a frame to the terminal from a thread of its own, so a read begun at the
        first page's refresh held that page back from the screen by as long (0.2 s at
        100,000 papers, measured in tmux).
        """
        engine = self._app.engine
        if engine is not None:
            engine.preload()

    def _search_in_thread(self, request: SearchRequest, worker: Worker[None]) -> None:
        engine = self.engine_for(request)
        assert engine is not None  # start_search checked it, and an open engine is never unset

        def cancelled() -> bool:
            return worker.is_cancelled

        if self.marked_only:
            result = self._marked_result(request, cancelled)
            if not cancelled():  # the screen ends a cancelled search itself
                self.post_message(SearchFinished(result))
            return
        result = engine.search(request, cancelled)
        if cancelled():  # the screen ends a cancelled search itself
            return
        self.post_message(SearchFinished(result))  # even if stale: it ends this search
        # Here: the search package imports Whoosh, which start-up defers.
        from index.search.typos import ALMOST_NOTHING, FEW

        if (
            result.total > ALMOST_NOTHING
            or result.correction
            or not request.as_you_type
            or not request.query.strip()
        ):
            return
        # The engine offers no spelling and no fuzzy retry while the last word is still
        # being typed (it is a prefix of the word meant). Once the user pauses, ask again
        # with the word finished: its fuzzy results (the notice says so), or what was
        # tried, and a correction; or, when a rare word found almost nothing, the results
        # of it made fuzzy after the exact ones. A new keystroke cancels this worker;
        # nobody waits for it.
        if worker.cancelled_event.wait(CORRECTION_PAUSE):  # a keystroke meanwhile
            return
        finished = engine.search(replace(request, as_you_type=False), cancelled)
        if result.total:
            # Only the rare word's fuzzy results after the exact ones: the query submitted
            # may find fewer (a phrase's last word, a prefix while typed, is whole now).
            changed = finished.total > result.total and (finished.notice or "").startswith(FEW)
        else:
            changed = bool(finished.total or finished.correction or finished.notice)
        if changed and not cancelled():
            self.post_message(SearchFinished(replace(finished, request=request), follow_up=True))

    def _marked_result(
        self, request: SearchRequest, cancelled: Callable[[], bool] | None = None
    ) -> SearchResult:
        """The search's matches that are marked, with facet counts over those alone.

        The marks go to the engine as `within`, so the panel's counts describe the marked
        papers (issue 47: after `M` they still counted the whole search's matches).
        """
        within = replace(request, within=frozenset(self._app.marks.ids))
        engine = self.engine_for(within)
        assert engine is not None
        marked = engine.search(within, cancelled)
        return replace(marked, request=request)

    @on(SearchFinished)
    def _search_finished(self, message: SearchFinished) -> None:
        """Show a finished search, unless the user has typed on since it started."""
        if not message.follow_up:
            self._search_ended()  # its "did you mean" may follow; the next search need not wait
        if message.result.request == self.request:
            self._shown(message.result)

    def _shown(self, result: SearchResult) -> None:
        """Show the current request's result; an engine's first page brings its preload."""
        self.show_result(result)
        if self._preloaded is not self._app.engine:
            self._preloaded = self._app.engine
            self.set_timer(PRELOAD_DELAY, self.preload_engine)
