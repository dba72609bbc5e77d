"""The index's own files are checked on open: anything changed since the build (valid
JSON of the wrong types, one altered mask, random bytes in a segment, a truncated or
missing file) is a damaged index, rebuilt, with the same answers. An open engine keeps
its generation alive while other processes rebuild."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from index import open_engine
from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from index.models import Library, SearchRequest
from index.search import prefixes
from index.store.generations import open_index


def answers(library: Library, taxonomy: Taxonomy, cache: Path) -> tuple[str, list[list[str]]]:
    engine = open_engine(library, taxonomy, cache)
    try:
        found = [
            [hit.paper.id for hit in engine.search(SearchRequest(query=q, limit=100)).hits]
            for q in ("pipeline", "g", "training gpu", "a")
        ]
        return engine.opened.action, found
    finally:
        engine.close()


def generation(cache: Path) -> Path:
    (folder,) = [p for p in cache.iterdir() if p.name.startswith("library-")]
    current = json.loads((folder / "current.json").read_text(encoding="utf-8"))
    return folder / current["dir"]


def wrong_types(path: Path) -> None:
    table = path / "prefixes.json"
    data = json.loads(table.read_text(encoding="utf-8"))
    first = next(iter(data))
    data[first] = {"p": "not a list"}
    table.write_text(json.dumps(data), encoding="utf-8")


def altered_mask(path: Path) -> None:
    letters = path / "letters.json"
    data = letters.read_text(encoding="utf-8")
    index = next(i for i, ch in enumerate(data) if ch.isdigit())
    letters.write_text(
        data[:index] + str((int(data[index]) + 1) % 10) + data[index + 1 :], encoding="utf-8"
    )


def random_bytes_in_a_segment(path: Path) -> None:
    segment = max((p for p in path.iterdir() if p.suffix == ".seg"), key=lambda p: p.stat().st_size)
    size = segment.stat().st_size
    with open(segment, "r+b") as handle:
        handle.seek(size // 2)
        handle.write(os.urandom(min(4096, size // 4)))


def truncated(path: Path) -> None:
    segment = max((p for p in path.iterdir() if p.suffix == ".seg"), key=lambda p: p.stat().st_size)
    os.truncate(segment, segment.stat().st_size // 2)


def missing(path: Path) -> None:
    (path / "letters.json").unlink()


@pytest.mark.parametrize(
    "harm", [wrong_types, altered_mask, random_bytes_in_a_segment, truncated, missing]
)
def test_a_damaged_index_file_is_rebuilt_with_the_same_answers(
    tmp_path: Path,
    library: Library,
    taxonomy: Taxonomy,
    harm: Callable[[Path], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first-keystroke masks a large library stores, so there is a mask to alter.
    monkeypatch.setattr(prefixes, "LETTER_MASKS_MIN_PAPERS", 0)
    action, good = answers(library, taxonomy, tmp_path)
    assert action == "built"
    assert answers(library, taxonomy, tmp_path)[0] == "up to date"
    harm(generation(tmp_path))
    action, again = answers(library, taxonomy, tmp_path)
    assert action == "rebuilt" and again == good


def test_an_open_engine_keeps_its_generation_while_others_rebuild(
    tmp_path: Path, library: Library, taxonomy: Taxonomy
) -> None:
    engine = open_engine(library, taxonomy, tmp_path)
    served = engine.opened.path
    errors: list[BaseException] = []
    answered: list[int] = []  # one entry per search answered, from any thread
    stop = threading.Event()

    def ask() -> None:
        queries = ["pipeline", "training", "gpu", "model"]
        i = 0
        while not stop.is_set():
            try:
                engine.search(SearchRequest(query=queries[i % 4] + " " * (i % 7), limit=5))
            except BaseException as error:
                errors.append(error)
                return
            answered.append(i)
            i += 1
            # A breath between searches: four threads spinning flat out held the GIL from
            # the rebuilds (12 s of CPU for three rebuilds of 47 papers); searches still
            # land all through every rebuild, since each takes far longer than this.
            stop.wait(0.002)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    during: list[int] = []  # searches answered while each rebuild ran
    try:
        for _ in range(3):  # three rebuilds: the default keeps only the last two
            before = len(answered)
            open_index(library, taxonomy, tmp_path, rebuild=True).index.close()
            during.append(len(answered) - before)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert served.is_dir()
    assert errors == []
    assert all(count > 0 for count in during), during
    engine.close()


def test_a_file_changed_after_it_was_read_is_never_served_as_indexed(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    source = tmp_path / "refs.bib"
    source.write_text("@misc{a, title={Quokka old words}, year={2020}}\n", encoding="utf-8")
    cache = tmp_path / "cache"
    library = load_library([source], taxonomy)
    # The user saves the file after paperscope read it, before the index is built.
    source.write_text("@misc{a, title={Quokka fresh wombat}, year={2020}}\n", encoding="utf-8")
    engine = open_engine(library, taxonomy, cache)
    engine.close()
    # The next start reads the new text: the index must not call itself up to date.
    engine = open_engine(load_library([source], taxonomy), taxonomy, cache)
    try:
        assert engine.opened.action != "up to date"
        assert engine.search(SearchRequest(query="wombat")).total == 1
    finally:
        engine.close()


def _cli_env(tmp_path: Path) -> dict[str, str]:
    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "TMUX", "SSH_TTY")}
    env.update(
        PAPERSCOPE_CACHE_DIR=str(tmp_path / "cache"),
        PAPERSCOPE_DATA_DIR=str(tmp_path / "d"),
        PAPERSCOPE_CONFIG=str(tmp_path / "c.toml"),
        PYTHONPATH=str(repo),
    )
    return env


def _corpus(tmp_path: Path, count: int = 400) -> Path:
    source = tmp_path / "many.bib"
    source.write_text(
        "".join(
            f"@article{{p{i}, title={{Paper {i} on pipeline scheduling number {i}}}, year={{{2000 + i % 25}}},"
            f" abstract={{Words about topic{i % 17} and gpu training {i}.}}}}\n"
            for i in range(count)
        ),
        encoding="utf-8",
    )
    return source


def test_two_rebuilds_at_once_and_a_killed_one_leave_a_serving_index(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    env = _cli_env(tmp_path)
    source = _corpus(tmp_path)
    command = [sys.executable, "-m", "tui", "--corpus", str(source)]
    first = subprocess.run(
        [*command, "index"], env=env, capture_output=True, timeout=300, check=False
    )
    assert first.returncode == 0, first.stderr
    both = [
        subprocess.Popen(
            [*command, "index", "--rebuild"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=300) for process in both]
    assert [process.returncode for process in both] == [0, 0], outputs
    assert not any(b"Traceback" in err for _, err in outputs)
    for delay in (0.3, 0.8, 1.5):  # killed at different moments of a rebuild
        process = subprocess.Popen(
            [*command, "index", "--rebuild"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        process.kill()
        process.wait()
        found = subprocess.run(
            [*command, "search", "pipeline", "--limit", "3", "--summary"],
            env=env,
            capture_output=True,
            timeout=300,
            check=False,
        )
        assert found.returncode == 0 and b"Traceback" not in found.stderr, found.stderr
        assert b"400 of 400 papers match" in found.stderr or b"papers match" in found.stderr
        assert found.stdout.count(b"\n") >= 3
