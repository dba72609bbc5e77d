"""A user file nested ~1,000 deep (annotations, saved searches, marks, history) stops no
command and no app: one line names the file and the cause, and the file is never written."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from index.models import Paper
from tests.tui.app_pilot import WIDE, all_notices, app_with, search, settle
from tests.tui.cli.commands import run_paperscope

FILES = ("annotations.json", "saved_searches.json", "marks.json", "history.json")
DEEP = "[" * 1000 + "]" * 1000
# Deep inside a key this code does not know: read (and kept on a rewrite) where the stack
# is shallow, too deep to read where it is not; either way no command fails.
DEEP_KEY = '{"version": 1, "papers": [], "searches": [], "x": ' + "[" * 950 + "]" * 950 + "}"


def digests(data: Path) -> dict[str, str]:
    return {name: hashlib.sha256((data / name).read_bytes()).hexdigest() for name in FILES}


@pytest.mark.parametrize("content", [DEEP, DEEP_KEY], ids=["deep", "deep-unknown-key"])
def test_no_command_fails_on_a_deep_user_file(tmp_path: Path, content: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for name in FILES:
        (data / name).write_text(content, encoding="utf-8")
    before = digests(data)
    env = {
        "PAPERSCOPE_DATA_DIR": str(data),
        "PAPERSCOPE_CACHE_DIR": str(tmp_path / "cache"),
        "PAPERSCOPE_CONFIG": str(tmp_path / "config.toml"),
        "PATH": "",
    }
    for args in [
        ("tag", "slapo", "+x"),
        ("status", "slapo", "read"),
        ("search", "pipeline", "--save", "s"),
        ("saved",),
        ("search", "tag:x"),
        ("show", "slapo"),
    ]:
        done = run_paperscope(args, env=env, cwd=tmp_path)
        assert done.returncode in (0, 2), (args, done.stderr)
        assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
        for line in done.stderr.splitlines():
            if "annotations.json" in line or "saved_searches.json" in line:
                assert "nested too deeply" in line or content == DEEP_KEY, line
    if content == DEEP:
        assert digests(data) == before


async def test_the_app_starts_on_deep_user_files_and_never_writes_them(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for name in FILES:
        (data / name).write_text(DEEP, encoding="utf-8")
    before = digests(data)
    paper = Paper(id="p", title="Pipelines Scheduled", year=2020, abstract="Pipelines.")
    app = app_with(tmp_path, [paper])
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        told = [n.message for n in all_notices(app)]
        for name in FILES:
            line = f"{data / name}: nested too deeply to read (more than about 900 levels); starting empty"
            assert line in told
        await search(pilot, "pipelines")
        app.main_screen.action_focus_results()
        await pilot.press("m", "t")  # a mark, and the tag dialog
        await pilot.pause()
        await pilot.press(*"later", "enter")
        await settle(pilot)
        assert "p" in app.marks and app.annotations.tags_of(paper) == ("later",)
        assert any("could not save tags" in n.message for n in all_notices(app))
    assert digests(data) == before
