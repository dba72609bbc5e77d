"""A superseded search stops at the engine's next check instead of running to the end."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.cancel import Cancelled, checkpoint
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.models import SearchRequest
from index.search.engine import SearchEngine
from index.search.prefixes import PrefixExpander


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    taxonomy = load_taxonomy()
    engine = open_engine(load_library(None, taxonomy), taxonomy, tmp_path_factory.mktemp("idx"))
    yield engine
    engine.close()


def test_a_cancelled_search_raises_and_leaves_nothing_half_done(engine: SearchEngine) -> None:
    request = SearchRequest(query="pipelne~ sheduling~2 train*")
    engine.forget_cached()
    with pytest.raises(Cancelled):
        engine.search(request, cancelled=lambda: True)
    # Nothing of it was cached: the next search gives what a fresh engine gives.
    answer = engine.search(request)
    engine.forget_cached()
    fresh = engine.search(request)
    assert replace(fresh, elapsed_ms=0) == replace(answer, elapsed_ms=0)
    assert answer.total > 0


def test_the_work_is_checked_all_along(engine: SearchEngine) -> None:
    """Fuzzy words, prefixes, match sets, ranking and "did you mean" all ask: cancelled
    after any number of checks, the search stops there."""
    request = SearchRequest(query="pipelne~ sheduling~2 train* zzqx")
    engine.forget_cached()
    asked = 0

    def count() -> bool:
        nonlocal asked
        asked += 1
        return False

    engine.search(request, cancelled=count)
    assert asked > 20
    for after in (1, asked // 3, asked // 2, asked - 1):
        engine.forget_cached()
        with pytest.raises(Cancelled):
            engine.search(request, cancelled=_after(after))


def _after(checks: int) -> Callable[[], bool]:
    """A check that says "cancelled" once it has been asked `checks` times."""
    remaining = [checks]

    def later() -> bool:
        remaining[0] -= 1
        return remaining[0] < 0

    return later


def test_a_slow_search_ends_soon_after_it_is_cancelled(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An expansion made slow on purpose (the 29 s "did you mean" of issue 14) stops
    within one check once the caller cancels."""
    original = PrefixExpander.expand

    def slow(self: PrefixExpander, reader: Any, fieldname: str, prefix: str) -> Any:
        if prefix.startswith("slowword"):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                checkpoint()
                time.sleep(0.005)
        return original(self, reader, fieldname, prefix)

    monkeypatch.setattr(PrefixExpander, "expand", slow)
    stop = threading.Event()
    outcome: list[object] = []

    def run() -> None:
        try:
            engine.search(SearchRequest(query="slowword*"), cancelled=stop.is_set)
        except Cancelled as error:
            outcome.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.1)
    stop.set()
    thread.join(5)  # uncancelled, the expansion runs for 30 s
    assert not thread.is_alive() and isinstance(outcome[0], Cancelled)
    assert engine.search(SearchRequest(query="pipeline")).total > 0  # the engine is fine


def test_cancellation_is_per_thread(engine: SearchEngine, tmp_path: Path) -> None:
    """A search in one thread with a cancelled check does not stop another's."""
    engine.forget_cached()
    results: list[int] = []
    errors: list[BaseException] = []

    def cancelled_search() -> None:
        try:
            engine.search(SearchRequest(query="pipelne~ gpu"), cancelled=lambda: True)
        except Cancelled as error:
            errors.append(error)

    def plain_search() -> None:
        results.append(engine.search(SearchRequest(query="pipelne~ training")).total)

    threads = [threading.Thread(target=f) for f in (cancelled_search, plain_search) * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(errors) == 4 and len(results) == 4 and min(results) > 0
