"""`--corpus <Zotero data folder>` and `--zotero` as a user runs them (see commands.py)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.fixtures.zotero import ZoteroFixture
from tests.tui.cli.commands import run_paperscope
from tests.tui.cli.test_library import assert_one_line_error


def run(*args: str | Path, tmp_path: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        HOME=str(home),
        PAPERSCOPE_DATA_DIR=str(tmp_path / "data"),
        PAPERSCOPE_CONFIG=str(tmp_path / "config.toml"),
        PAPERSCOPE_CACHE_DIR=str(tmp_path / "cache"),
    )
    return run_paperscope(tuple(map(str, args)), env=env, cwd=tmp_path)


def _zotero(folder: Path) -> Path:
    z = ZoteroFixture(folder)
    z.item(
        "journalArticle",
        {
            "title": "Loom Scheduling",
            "citationKey": "loom2020",
            "abstractNote": "We schedule looms across a mill.",
        },
        creators=[("Ada", "Byron", 0, "author")],
    )
    z.close()
    return folder


def test_data_folder_beside_a_bib_file(tmp_path: Path) -> None:
    data = _zotero(tmp_path / "Zotero")
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{cards, title={Punched Cards}, abstract={Cards drive patterns.}}\n")
    result = run(
        "--corpus",
        data,
        "--corpus",
        bib,
        "list",
        "--json",
        tmp_path=tmp_path,
        home=tmp_path / "home",
    )
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert sorted(rows) == ["cards", "loom2020"]
    assert rows["loom2020"]["authors"] == ["Ada Byron"]
    assert rows["loom2020"]["sources"] == [str(data / "zotero.sqlite")]


def test_zotero_flag_reads_the_default_data_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _zotero(home / "Zotero")
    result = run("--zotero", "list", tmp_path=tmp_path, home=home)
    assert result.returncode == 0, result.stderr
    assert "loom2020" in result.stdout and "warning" not in result.stderr


def test_zotero_flag_without_a_library_says_where_it_looked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = run("--zotero", "list", tmp_path=tmp_path, home=home)
    assert_one_line_error(result)
    assert f"looked for zotero.sqlite in {home / 'Zotero'}" in result.stderr


def _two_libraries(folder: Path) -> Path:
    """The user's library and a group, each with a collection named "Reading"; a word
    ("quokka") only in a child note."""
    z = ZoteroFixture(folder)
    mine = z.collection("Reading")
    group = z.group("Lab group")
    theirs = z.collection("Reading", library=group)
    loom = z.item(
        "journalArticle",
        {"title": "Loom Scheduling", "citationKey": "loom2020", "abstractNote": "Looms."},
        collections=[mine],
    )
    z.note(loom, "<p>Compare with the <b>quokka</b> trials.</p>")
    z.item(
        "journalArticle",
        {"title": "Shared Cards", "citationKey": "cards2021", "abstractNote": "Cards."},
        collections=[theirs],
        library=group,
    )
    z.close()
    return folder


def test_a_word_only_in_a_child_note_finds_the_paper(tmp_path: Path) -> None:
    data = _two_libraries(tmp_path / "Zotero")
    home = tmp_path / "home"
    for query in ("quokka", "quokka", "note:quokka", "quok*"):  # the second: index current
        result = run("--corpus", data, "search", "--json", query, tmp_path=tmp_path, home=home)
        assert result.returncode == 0, result.stderr
        assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["loom2020"]
    result = run("--corpus", data, "show", "loom2020", tmp_path=tmp_path, home=home)
    assert "Compare with the quokka trials." in result.stdout


def test_group_collections_are_apart_from_the_users(tmp_path: Path) -> None:
    data = _two_libraries(tmp_path / "Zotero")
    home = tmp_path / "home"
    result = run("--corpus", data, "facets", "--json", tmp_path=tmp_path, home=home)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    collections = {r["value"]: r["count"] for r in rows if r["facet"] == "collection"}
    assert collections == {"Reading": 1, "Lab group": 1, "Lab group/Reading": 1}
    for value, expected in (("Reading", "loom2020"), ('"Lab group/Reading"', "cards2021")):
        result = run(
            "--corpus",
            data,
            "search",
            "--json",
            f"collection:{value}",
            tmp_path=tmp_path,
            home=home,
        )
        assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [expected]


def test_zotero_flag_finds_a_flatpak_library(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _zotero(home / ".var" / "app" / "org.zotero.Zotero" / "Zotero")
    result = run("--zotero", "list", tmp_path=tmp_path, home=home)
    assert result.returncode == 0, result.stderr
    assert "loom2020" in result.stdout
