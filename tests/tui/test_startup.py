"""Start-up's collector policy lives in tui/ alone; the library and the index set none."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.cli.context import CliContext

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "library"


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    """The collector back on if it was. What a test froze stays frozen: the suite freezes
    what outlives every test anyway (tests/conftest.py), and unfreezing the worker's whole
    heap here made the next collection walk all of it (~0.4 s of CPU a test)."""
    was_enabled = gc.isenabled()
    yield
    if was_enabled:
        gc.enable()


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CACHE_DIR", "DATA_DIR"):
        monkeypatch.setenv(f"PAPERSCOPE_{name}", str(tmp_path / name.lower()))
    monkeypatch.setenv("PAPERSCOPE_CONFIG", str(tmp_path / "config.toml"))


def test_index_sets_no_collector_policy() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "index").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "gc." in line.split("#")[0] and "import" not in line
    ]
    assert offenders == []


def test_loading_leaves_no_garbage_for_start_up_to_freeze(isolated: None) -> None:
    # The collector is paused during start-up, which then freezes what is alive: cycles
    # the parsers leave behind must be gone by then.
    gc.collect()
    gc.disable()
    context = CliContext(corpus=[FIXTURES], taxonomy=None)
    assert context.library.papers
    assert gc.collect() == 0


def test_the_open_engine_is_frozen_out_of_garbage_collection(isolated: None) -> None:
    context = CliContext(corpus=[FIXTURES], taxonomy=None)
    assert context.library.papers  # loaded first: the engine's open is what is measured
    before = gc.get_freeze_count()  # everything older is frozen already (tests/conftest.py)
    engine = context.engine
    try:
        assert gc.get_freeze_count() > before
        assert not gc.is_tracked(engine) or not _collectable(engine)
    finally:
        engine.close()


def _collectable(obj: object) -> bool:
    """Whether the next full collection would look at `obj` (frozen objects it skips)."""
    return any(obj is other for other in gc.get_objects())


class Node:
    itself: object = None


def test_a_reload_in_the_app_pauses_the_collector_then_collects_and_freezes() -> None:
    from tui.startup import collector_paused

    gc.enable()
    frozen = gc.get_freeze_count()
    with collector_paused():
        assert not gc.isenabled()
        cycle = Node()
        cycle.itself = cycle  # a parser's reference cycle: only the collector frees it
        garbage = weakref.ref(cycle)
        del cycle
        kept = [Node() for _ in range(100)]
    assert gc.isenabled()
    assert garbage() is None  # collected before the freeze, not frozen for good
    assert gc.get_freeze_count() >= frozen + len(kept)  # the new library's objects
    gc.disable()  # paused by start-up: left to start-up to end
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_a_command_opens_the_index_with_the_collector_off_then_on_again(
    isolated: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An in-place update's postings would set off full collections (index.store.updates);
    the command line's open keeps the collector off and turns it back on, an error too."""
    import index

    context = CliContext(corpus=[FIXTURES], taxonomy=None)
    assert context.library.papers
    seen: list[bool] = []
    real_open = index.open_engine

    def open_engine(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real_open(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(index, "open_engine", open_engine)
    gc.enable()
    context.open_engine().close()
    assert seen == [False] and gc.isenabled()


def test_the_collector_off_block_leaves_it_as_it_was() -> None:
    from tui.startup import collector_off

    gc.enable()
    with pytest.raises(KeyError), collector_off():
        assert not gc.isenabled()
        raise KeyError
    assert gc.isenabled()
    gc.disable()  # start-up's pause, or a caller's: theirs to end
    with collector_off():
        assert not gc.isenabled()
    assert not gc.isenabled()
