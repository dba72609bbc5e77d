"""Your own data survives every writer: many `paperscope` commands at once, two apps and a
script, a writer killed while it holds the lock, and a running app that sees a script's tag.

The commands run in child processes forked from a forkserver that imported the command
line once (`run_paperscope_bytes`, the console script's entry in a fresh process's
settings): a real `paperscope` process costs ~1 s of CPU for its imports, these ~0.1 s.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from index.facets.taxonomy import load_taxonomy
from index.models import Paper, SearchRequest
from tests.tui.app_pilot import WIDE, highlighted, screen_text, search, settle, shown
from tests.tui.cli.commands import run_paperscope_bytes
from tui.app import make_app
from tui.services import stored_json
from tui.services.annotations import Annotations
from tui.services.config import AppSettings
from tui.services.saved_searches import SavedSearches
from tui.services.user_data import Marks

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process control")

PAPERS = 20
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["tui.cli", "tests.tui.cli.commands", __name__])


def _bib(folder: Path) -> Path:
    """Twenty small papers, `paper00` ... `paper19`."""
    path = folder / "refs.bib"
    path.write_text(
        "\n".join(
            f"@article{{paper{n:02d},\n  title = {{Scheduling Study {n} of Pipelines}},\n"
            f"  author = {{Doe, Jane}},\n  year = {{2020}},\n"
            f"  abstract = {{We schedule pipelines in study {n}.}}\n}}\n"
            for n in range(PAPERS)
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def home(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The environment of a user with the bib file, its index built once."""
    env = {
        **os.environ,
        "PAPERSCOPE_DATA_DIR": str(tmp_path / "data"),
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config.toml"),
    }
    bib = _bib(tmp_path)
    done = run_paperscope_bytes(
        ["--corpus", str(bib), "search", "pipelines"], env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    return env, bib


def _command(args: list[str], env: dict[str, str], cwd: str) -> tuple[int, bytes]:
    """One `paperscope ARGS` (in a child process); its exit code and stderr."""
    done = run_paperscope_bytes(args, env=env, cwd=Path(cwd))
    return done.returncode, done.stderr


def _all_at_once(commands: list[list[str]], env: dict[str, str], cwd: Path) -> None:
    with _CONTEXT.Pool(len(commands)) as pool:
        done = pool.starmap(_command, [(args, env, str(cwd)) for args in commands])
    assert [code for code, _ in done] == [0] * len(commands), [err for _, err in done]


def _annotations(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Citation key -> its record, as the file holds it."""
    data = json.loads((Path(env["PAPERSCOPE_DATA_DIR"]) / "annotations.json").read_text())
    return {
        next(i[4:] for i in record["ids"] if i.startswith("key:")): record
        for record in data["papers"]
    }


def test_twenty_commands_at_once_keep_every_tag_status_and_saved_search(
    home: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, bib = home
    corpus = ["--corpus", str(bib)]
    _all_at_once([[*corpus, "tag", "paper00", f"+t{n}"] for n in range(20)], env, tmp_path)
    assert sorted(_annotations(env)["paper00"]["tags"]) == sorted(f"t{n}" for n in range(20))

    _all_at_once([[*corpus, "status", f"paper{n:02d}", "read"] for n in range(20)], env, tmp_path)
    records = _annotations(env)
    assert {key for key, record in records.items() if record.get("status") == "read"} == {
        f"paper{n:02d}" for n in range(20)
    }
    assert len(records["paper00"]["tags"]) == 20

    saves = [[*corpus, "search", "pipelines", "--save", f"s{n}"] for n in range(10)]
    _all_at_once(saves, env, tmp_path)
    data = json.loads((Path(env["PAPERSCOPE_DATA_DIR"]) / "saved_searches.json").read_text())
    assert sorted(s["name"] for s in data["searches"]) == sorted(f"s{n}" for n in range(10))


def _paper(number: int) -> Paper:
    return Paper(
        id=f"paper{number:02d}",
        title=f"Scheduling Study {number} of Pipelines",
        year=2020,
        citation_key=f"paper{number:02d}",
    )


def test_two_apps_and_a_script_keep_all_three_tags(
    home: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, bib = home
    path = Path(env["PAPERSCOPE_DATA_DIR"]) / "annotations.json"
    first, second = Annotations(path), Annotations(path)  # two apps, open before any change
    assert first.change_tags([_paper(1)], add=["from-a"])
    assert second.change_tags([_paper(2)], add=["from-b"])
    with _CONTEXT.Pool(1) as pool:  # the script, in its own process
        code, err = pool.apply(
            _command, (["--corpus", str(bib), "tag", "paper03", "+clitag"], env, str(tmp_path))
        )
    assert code == 0, err
    records = _annotations(env)
    assert (records["paper01"]["tags"], records["paper02"]["tags"], records["paper03"]["tags"]) == (
        ["from-a"],
        ["from-b"],
        ["clitag"],
    )
    for app in (first, second):
        app.refresh()
        assert [app.tags_of(_paper(n)) for n in (1, 2, 3)] == [
            ("from-a",),
            ("from-b",),
            ("clitag",),
        ]


def _killed_in_the_middle(path: str, holding: object, partial: bool) -> None:
    """Marks a paper and stops for good while holding the lock: after reading the file,
    before (or half-way through) the replace."""

    def stop(target: Path, text: str, encoding: str = "utf-8") -> None:
        if partial:  # a temporary file half written, as index.atomic names them
            (target.parent / f".{target.name}.0badf00d.tmp").write_text(text[:3])
        holding.set()  # type: ignore[attr-defined]
        time.sleep(600)

    stored_json.write_text_atomic = stop  # type: ignore[assignment]
    Marks(Path(path)).toggle("lost-with-the-writer")


@pytest.mark.parametrize("partial", [False, True], ids=["before-the-write", "mid-write"])
def test_a_writer_killed_holding_the_lock_loses_nothing_and_blocks_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, partial: bool
) -> None:
    path = tmp_path / "marks.json"
    Marks(path).toggle("kept")
    before = path.read_bytes()
    holding = _CONTEXT.Event()
    writer = _CONTEXT.Process(target=_killed_in_the_middle, args=(str(path), holding, partial))
    writer.start()
    assert holding.wait(60), "the writer never took the lock"
    assert writer.pid is not None
    os.kill(writer.pid, signal.SIGKILL)
    writer.join(10)
    assert path.read_bytes() == before  # the file as it was
    monkeypatch.setattr(stored_json, "LOCK_WAIT", 2.0)  # a lock left held would fail this
    started = time.monotonic()
    marks = Marks(path)
    assert marks.toggle("next") is True and marks.save_error is None
    assert time.monotonic() - started < 2.0
    assert Marks(path).ids == ("kept", "next")


def _tag_later(args: list[str], env: dict[str, str], cwd: str, go: Any) -> None:
    assert go.wait(60)
    code, err = _command(args, env, cwd)
    assert code == 0, err


async def test_a_running_app_sees_a_scripts_tag_within_two_seconds(
    home: tuple[dict[str, str], Path], tmp_path: Path
) -> None:
    env, bib = home
    from index import load_library

    taxonomy = load_taxonomy()
    library = load_library([bib], taxonomy)
    settings = AppSettings(
        Path(env["PAPERSCOPE_CONFIG"]),
        Path(env["PAPERSCOPE_DATA_DIR"]),
        Path(env["PAPERSCOPE_CACHE_DIR"]) / "app",
    )
    # The script's process starts before the app: inside the app, stderr is no file for
    # multiprocessing's helpers to inherit.
    go = _CONTEXT.Event()
    script = _CONTEXT.Process(
        target=_tag_later,
        args=(["--corpus", str(bib), "tag", "paper07", "+clitag"], env, str(tmp_path), go),
    )
    script.start()
    try:
        app = make_app(settings, library=library, taxonomy=taxonomy)
        app.watch_interval = 0.2
        async with app.run_test(size=WIDE) as pilot:
            await settle(pilot)
            await search(pilot, "pipelines")
            app.main_screen.action_focus_results()
            await pilot.press("down", "down")
            await settle(pilot)
            cursor = highlighted(app).id
            go.set()
            while script.is_alive():
                await pilot.pause(0.05)
            assert script.exitcode == 0
            done = time.monotonic()
            paper = next(p for p in library.papers if p.id == "paper07")
            # Seen within 2 s with the default 1 s poll; 0.2 s here, the rest is slack for
            # a loaded machine.
            while app.annotations.tags_of(paper) != ("clitag",):
                assert time.monotonic() - done < 2.0, "the app did not see the script's tag"
                await pilot.pause(0.05)
            await settle(pilot)
            assert highlighted(app).id == cursor  # the cursor and the view stay
            tags = {value.value: value.count for value in shown(app).facets.get("tag", ())}
            assert tags == {"clitag": 1}
            # Another app marks a paper and saves a search: the border and the Saved section.
            data = Path(env["PAPERSCOPE_DATA_DIR"])
            Marks(data / "marks.json").toggle("paper05")
            SavedSearches(data / "saved_searches.json").save("elsewhere", SearchRequest("study"))
            done = time.monotonic()
            while "elsewhere" not in screen_text(app) or "1 marked" not in screen_text(app):
                assert time.monotonic() - done < 2.0, "the app did not see the other app's changes"
                await pilot.pause(0.05)
                await settle(pilot)
            assert highlighted(app).id == cursor
            await pilot.press("slash", "ctrl+u")
            await search(pilot, "tag:clitag")
            assert [hit.paper.id for hit in shown(app).hits] == ["paper07"]
    finally:
        if script.is_alive():  # a failure before the script ran
            script.kill()
