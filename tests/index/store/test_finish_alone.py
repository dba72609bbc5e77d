"""A first start the user quit is finished by a process of its own (index.store.finish_alone).

The app hands the start over and exits; the finisher reads the library (its parsed files
from the library cache), waits for the build lock and builds as any start does. Killed at
any point, the index served is none yet (a first start has no old one) or the new one,
whole; the next start resumes and gets exactly the index a one-shot build gives.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.store.finish_alone import finish_alone
from index.store.generations import open_index
from index.store.locks import build_lock
from index.store.manifest import library_dir, read_current
from tests.index.store.test_child import by_paper

TAXONOMY = load_taxonomy()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """120 distinct arXiv records in two JSON Lines files."""
    folder = tmp_path_factory.mktemp("library")
    for part in range(2):
        lines = (
            json.dumps(
                {
                    "id": f"2403.{n:05d}",
                    "title": f"Scheduling study {n} of pipelined training",
                    "authors": f"Ann Writer{n} and Bo Person{n}",
                    "abstract": f"We schedule {n} "
                    + " ".join(f"w{n * k % 983}" for k in range(30)),
                }
            )
            for n in range(part * 60, part * 60 + 60)
        )
        (folder / f"part{part}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def one_shot(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[object]]:
    """The index a start that was never quit builds."""
    library = load_library([corpus], TAXONOMY)
    opened = open_index(library, TAXONOMY, tmp_path_factory.mktemp("one-shot"))
    opened.index.close()
    return by_paper(opened.path)


def _finished(process: subprocess.Popen[bytes] | None, seconds: float = 120) -> None:
    assert process is not None, "the finisher did not start"
    assert process.wait(seconds) == 0


def _current(cache: Path, corpus: Path) -> Path | None:
    folder = library_dir(cache, load_library([corpus], TAXONOMY))
    current = read_current(folder)
    return None if current is None else folder / current["dir"]


def test_the_finisher_builds_the_index_a_start_would(
    tmp_path: Path, corpus: Path, one_shot: dict[str, list[object]]
) -> None:
    cache = tmp_path / "cache"
    _finished(finish_alone([corpus], TAXONOMY, cache))
    served = _current(cache, corpus)
    assert served is not None and by_paper(served) == one_shot
    # It went through the library cache: a start now reads the library whole from it.
    assert load_library([corpus], TAXONOMY, cache_dir=cache / "library").from_cache


def test_a_build_under_way_elsewhere_is_waited_for_never_doubled(
    tmp_path: Path, corpus: Path, one_shot: dict[str, list[object]]
) -> None:
    cache = tmp_path / "cache"
    folder = library_dir(cache, load_library([corpus], TAXONOMY))
    folder.mkdir(parents=True)
    with build_lock(folder, wait=False) as locked:  # another start is building
        assert locked
        process = finish_alone([corpus], TAXONOMY, cache)
        assert process is not None
        time.sleep(3)
        assert process.poll() is None and read_current(folder) is None  # it waits
    _finished(process)
    served = _current(cache, corpus)
    assert served is not None and by_paper(served) == one_shot


@pytest.mark.parametrize("delay", [0.4, 1.6])  # early (importing, loading) and later
def test_a_killed_finisher_leaves_no_index_or_the_whole_one_and_the_next_resumes(
    tmp_path: Path, corpus: Path, one_shot: dict[str, list[object]], delay: float
) -> None:
    cache = tmp_path / "cache"
    process = finish_alone([corpus], TAXONOMY, cache)
    assert process is not None
    time.sleep(delay)
    try:
        os.killpg(process.pid, signal.SIGKILL)  # it and its workers: its own session
    except ProcessLookupError:
        pass  # it had finished
    process.wait(30)
    served = _current(cache, corpus)
    assert served is None or by_paper(served) == one_shot
    _finished(finish_alone([corpus], TAXONOMY, cache))  # the next start's quit, or a start
    served = _current(cache, corpus)
    assert served is not None and by_paper(served) == one_shot


def test_handing_off_never_waits_for_the_finisher_to_read(
    tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app hands off while the user waits for the prompt: the job must fit in the
    pipe. A taxonomy that has tagged carries its compiled rules (122 KB pickled, more
    than a pipe holds, and the write waited ~0.4 s for the finisher's imports); it is
    sent as a fresh copy. Here the finisher says when it starts reading, two seconds in.
    """
    from index.library.parallel import _labels
    from index.models import Paper
    from index.store import finish_alone as module

    used = load_taxonomy()
    _labels([Paper(id="p", title="GPU kernels", abstract="Paged attention on GPUs.")], used)
    reading = tmp_path / "reading"
    monkeypatch.setattr(
        module,
        "_BOOT",
        "import pathlib, pickle, sys, time; time.sleep(2); "
        f"pathlib.Path({str(reading)!r}).touch(); "
        "names, taxonomy, cache = pickle.loads(sys.stdin.buffer.read()); "
        f"sys.exit(0 if taxonomy.fingerprint == {used.fingerprint!r} else 1)",  # the same rules
    )
    process = finish_alone([corpus], used, tmp_path / "cache")
    assert process is not None
    assert not reading.exists()  # handed off before the finisher read a byte
    assert process.wait(60) == 0
    assert reading.exists()
