"""Quitting during a first build loses nothing: the build process finishes and publishes it.

The app's `q` during a big first build calls `LeaveBuilds.leave`: the caller stops waiting
at once (`BuildDetached`), the build process gets the papers it was not yet sent (through a
spool file), builds, and publishes the generation itself, holding the build lock until
then. Killed at any point, the index served is the old one or the new one, never a mix.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from index.models import Library
from index.store import child, writer
from index.store.generations import open_index
from index.store.leaving import BuildDetached, LeaveBuilds
from index.store.locks import build_lock
from index.store.manifest import library_dir, read_current
from tests.fixtures.search.generate import TAXONOMY, make_library
from tests.index.store.test_child import by_paper

LIBRARY = make_library(600, seed=11)


@pytest.fixture(autouse=True)
def _child_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds of these small libraries go to a build process, as a big library's do."""
    monkeypatch.setattr(writer, "PARALLEL_MIN_PAPERS", 50)


def _detached_build(cache: Path, library: Library, *, rebuild: bool = False) -> list[int]:
    """Starts `open_index` in a thread, detaches it at its first progress report and
    returns the build process's pid once the caller has stopped waiting."""
    outcome: list[BaseException] = []
    started = threading.Event()
    leave = LeaveBuilds()

    def progress(done: int, total: int) -> None:
        started.set()

    def run() -> None:
        try:
            opened = open_index(
                library, TAXONOMY, cache, rebuild=rebuild, progress=progress, leave=leave
            )
            opened.index.close()
        except BaseException as error:
            outcome.append(error)

    pids: list[int] = []
    real_build = child.BuildProcess.build

    def remember(self: child.BuildProcess, *args: object, **kwargs: object) -> object:
        pids.append(self.pid)
        return real_build(self, *args, **kwargs)  # type: ignore[arg-type]

    child.BuildProcess.build = remember  # type: ignore[method-assign,assignment]
    try:
        thread = threading.Thread(target=run)
        thread.start()
        assert started.wait(60), "the build never reported progress"
        assert leave.leave() == 1  # one build was being waited for
        thread.join(30)
    finally:
        child.BuildProcess.build = real_build  # type: ignore[method-assign]
    assert not thread.is_alive(), "the caller kept waiting after the detach"
    assert len(outcome) == 1 and isinstance(outcome[0], BuildDetached), outcome
    return pids


def test_a_build_started_after_leaving_is_left_once_it_has_its_papers(tmp_path: Path) -> None:
    """The user quit while the library was read: the build that comes next is not waited for."""
    leave = LeaveBuilds()
    assert leave.leave() == 0  # nothing was being built yet
    cache = tmp_path / "cache"
    with pytest.raises(BuildDetached):
        open_index(LIBRARY, TAXONOMY, cache, leave=leave)
    folder = library_dir(cache, LIBRARY)
    gen = _wait_published(folder, None)
    opened = open_index(LIBRARY, TAXONOMY, cache)
    assert opened.action == "up to date" and opened.path.name == gen
    assert opened.doc_count == len(LIBRARY.papers)
    opened.index.close()


def _wait_published(folder: Path, old: str | None, seconds: float = 120) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        current = read_current(folder)
        if current and current["dir"] != old:
            return str(current["dir"])
        time.sleep(0.05)
    raise AssertionError("the detached build never published")


def test_a_detached_build_is_finished_and_published_alone(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    folder = library_dir(cache, LIBRARY)
    [pid] = _detached_build(cache, LIBRARY)
    # The build process holds the build lock until it has published: no second build.
    with build_lock(folder, wait=False) as locked:
        still_building = read_current(folder) is None
        assert not locked or not still_building
    gen = _wait_published(folder, None)
    with build_lock(folder, wait=True) as locked:  # released once it is done
        assert locked
    assert not list(folder.glob("rest-*")) and not list(folder.glob("build-*"))
    # The next start opens it as it is: nothing is built again.
    opened = open_index(LIBRARY, TAXONOMY, cache)
    assert opened.action == "up to date" and opened.path.name == gen
    assert opened.doc_count == len(LIBRARY.papers)
    opened.index.close()
    # And it is the index a build left alone to the end writes.
    one_shot = tmp_path / "one-shot"
    whole = open_index(LIBRARY, TAXONOMY, one_shot)
    whole.index.close()
    assert by_paper(folder / gen) == by_paper(whole.path)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the build process has exited


@pytest.fixture(scope="module")
def before_after(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, Library]:
    """One library file as it was (600 papers) and after an edit (500 others): one folder."""
    source = tmp_path_factory.mktemp("library") / "refs.bib"
    source.write_text("% the papers are given, not read\n", encoding="utf-8")
    files = (str(source),)
    return (
        Library(papers=LIBRARY.papers, files=files),
        Library(papers=make_library(500, seed=12).papers, files=files),
    )


@pytest.fixture(scope="module")
def one_shot(
    tmp_path_factory: pytest.TempPathFactory, before_after: tuple[Library, Library]
) -> dict[int, dict[str, list[object]]]:
    """Each library's index as a build left alone to the end writes it, by library size."""
    cache = tmp_path_factory.mktemp("one-shot")
    out = {}
    for library in before_after:
        opened = open_index(library, TAXONOMY, cache / str(len(library.papers)))
        opened.index.close()
        out[len(library.papers)] = by_paper(opened.path)
    return out


@pytest.mark.parametrize("delay", [0.0, 0.4, 1.2])
def test_a_killed_detached_build_leaves_the_old_index_or_the_new(
    tmp_path: Path,
    delay: float,
    before_after: tuple[Library, Library],
    one_shot: dict[int, dict[str, list[object]]],
) -> None:
    before, after = before_after
    cache = tmp_path / "cache"
    folder = library_dir(cache, before)
    assert library_dir(cache, after) == folder
    first = open_index(before, TAXONOMY, cache)  # the index as it was
    first.index.close()
    [pid] = _detached_build(cache, after)  # the library changed: a new index, left alone
    time.sleep(delay)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it had finished: the new index is served
    # Whichever generation is current holds exactly the papers its manifest names.
    current = read_current(folder)
    assert current is not None
    papers = current["manifest"]["papers"]
    assert papers in (len(before.papers), len(after.papers))
    assert by_paper(folder / current["dir"]) == one_shot[papers]
    # The next start gets the new library's index, as one build gives it.
    served = open_index(after, TAXONOMY, cache)
    assert served.doc_count == len(after.papers)
    assert by_paper(served.path) == one_shot[len(after.papers)]
    served.index.close()
