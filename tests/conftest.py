"""What many test modules share: the bundled facet vocabulary and the bundled corpus, and
the test processes' garbage-collector policy.

Both are frozen (`Taxonomy`, `Library`), so one copy per test process serves every module;
a module that needs another library (generated, hand-made) defines its own `library`.
"""

from __future__ import annotations

import compileall
import gc
import importlib
from collections.abc import Generator
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import PYTEST_TAG  # how pytest names its cached rewrites

from index.facets.taxonomy import Taxonomy, load_taxonomy
from index.library.load import load_library
from index.models import Library


@pytest.fixture(scope="session")
def taxonomy() -> Taxonomy:
    """The bundled facet vocabulary."""
    return load_taxonomy()


@pytest.fixture(scope="session")
def library(taxonomy: Taxonomy) -> Library:
    """The bundled corpus, loaded afresh (no cache)."""
    return load_library(None, taxonomy)


def pytest_configure(config: pytest.Config) -> None:
    """The main process compiles the application and the tests once, before the workers start.

    In a fresh clone every xdist worker imports the whole application at collection, all
    at the same moment, so each compiled every module itself (the caches are written,
    tests/__init__.py, but only after the others had started). Compiled here first, the
    workers read the bytecode; `compileall` skips what is already current.

    The test modules are imported here for the same reason: pytest rewrites their asserts
    on import and caches the result beside them, and four workers each rewrote all of
    them (collection took ~2.9 s of CPU per worker from a fresh clone, ~1.1 s with the
    cache). Imported here first (~1.8 s), the workers read what it wrote. Only modules
    without a current rewrite are imported: importing all of them when every one is
    cached cost the start ~1 s, more than the workers then saved.
    """
    if hasattr(config, "workerinput"):  # a worker: the main process did it
        return
    root = Path(__file__).resolve().parent.parent
    for package in ("index", "tui"):
        compileall.compile_dir(root / package, quiet=1)
    if config.getoption("numprocesses", None):  # xdist workers will collect the tests
        for path in sorted((root / "tests").rglob("test_*.py")):
            if not _rewrite_is_current(path):
                importlib.import_module(".".join(path.relative_to(root).with_suffix("").parts))


def _rewrite_is_current(path: Path) -> bool:
    """Whether pytest's cached rewrite of test module `path` is there and newer than it."""
    cached = path.parent / "__pycache__" / f"{path.stem}.{PYTEST_TAG}.pyc"
    try:
        return cached.stat().st_mtime >= path.stat().st_mtime
    except OSError:
        return False


# The kinds of test module that take longest, in the order they are handed out: each drives a
# whole program (benchmarks in child processes, the installed command in tmux, the app under
# Pilot) and takes seconds a test, where the rest take milliseconds.
_LONGEST_FIRST = (
    "tests/test_first_start_smoke.py",
    "tests/test_benchmark_smoke.py",
    "tests/e2e/",
    "tests/test_lsp_bench_smoke.py",
    "tests/tui/lsp/test_server.py",  # the language server's modules: a server process each
    "tests/tui/lsp/test_failures.py",
    "tests/torture/",
    "tests/tui/screens/",
)


def _rank(item: pytest.Item) -> int:
    """Where `item`'s module goes in the queue: its kind's place, the rest after them."""
    path = item.nodeid.partition("::")[0]
    for rank, prefix in enumerate(_LONGEST_FIRST):
        if path.startswith(prefix):
            return rank
    return len(_LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules are queued first, so the workers finish together.

    Workers take a whole module at a time (`--dist loadfile`, in pyproject.toml), so each
    module's fixtures are built once rather than once per worker; when it was made, that
    cut the suite's CPU from ~175 s to ~155 s (runs of one tree vary 10-20% from hour to
    hour on the 2-core machine). Modules are handed out in the order collected here: with the
    long ones first, the last to be handed out are the quick unit-test modules, and no
    worker is left running a ten-second benchmark smoke test while the others stand idle.
    The sort is stable: within a module and within a kind, the collection order stays.
    """
    items.sort(key=_rank)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection imported (pytest, Textual, Whoosh, every test module) stays out of
    the collector's walks, as the console script's start-up does for the app (tui/startup.py).
    """
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """After each test, its garbage is collected and what outlives it is frozen.

    A Pilot test leaves a whole app behind in reference cycles (widgets, message pumps,
    timers), and Textual's caches keep ~10,000 objects of it alive; a test process then
    holds hundreds of thousands of objects, and every full collection the next tests
    trigger walked them all again: 20 collections of ~0.2 s in a worker's 37 s of CPU,
    with Python's own pauses charged to whatever ran (a results row's render took
    0.17 s of an app's start). One collection per test walks only what that test made.
    Measured on the whole suite (2 workers): 481 -> 420-433 s of CPU, 310 -> 275-280 s
    wall; one process on two Pilot modules, two alternating runs each: 44.0 / 40.9 s of CPU
    -> 35.4 / 33.1 s (a higher gen-0 threshold on top of it: no further change).
    Frozen objects are still freed by reference counting; only a cycle that dies later
    is kept. No test unfreezes the heap after itself: the next collection would walk
    every object of the worker again (the start-up tests did, ~0.4 s of CPU each).
    """
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _fulltext_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test apps read attached PDFs in the worker's own thread, as soon as the library is
    searchable: no extraction processes per test (CPU), no timer left running after it."""
    from tui.fulltext_host import FulltextHost

    monkeypatch.setattr(FulltextHost, "fulltext_workers", 0)
    monkeypatch.setattr(FulltextHost, "fulltext_delay", 0.0)
