"""`paperscope list` and `show` as a user runs them: exit codes, JSON, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.tui.cli.commands import run_paperscope

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures" / "library"
SUMMARY_KEYS = {
    "id",
    "title",
    "title_inferred",
    "authors",
    "authors_complete",
    "year",
    "venue",
    "doi",
    "arxiv",
    "url",
    "topics",
    "hardware",
    "sources",
}


def run(*args: str | Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        PAPERSCOPE_DATA_DIR=str(tmp_path / "data"),
        PAPERSCOPE_CONFIG=str(tmp_path / "config.toml"),
        PAPERSCOPE_CACHE_DIR=str(tmp_path / "cache"),
    )
    return run_paperscope(tuple(map(str, args)), env=env, cwd=tmp_path)


def assert_one_line_error(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines and "Traceback" not in result.stderr
    assert lines[-1].startswith("paperscope")


def test_list_json_on_the_bundled_corpus(tmp_path: Path) -> None:
    result = run("list", "--json", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 47
    assert all(set(row) >= SUMMARY_KEYS for row in rows)
    dynapipe = next(row for row in rows if row["id"] == "dynapipe")
    assert dynapipe["authors_complete"] is True and dynapipe["year"] == 2024
    assert len(dynapipe["sources"]) == 2
    assert sum(row["title_inferred"] for row in rows) == 2


def test_list_plain_and_show(tmp_path: Path) -> None:
    listing = run("list", tmp_path=tmp_path)
    assert listing.returncode == 0 and len(listing.stdout.splitlines()) == 47
    assert "[title inferred]" in listing.stdout
    shown = run("show", "rt-fcma", tmp_path=tmp_path)
    assert shown.returncode == 0
    assert "[title inferred]" in shown.stdout and "(authors unknown)" in shown.stdout
    assert "003_fa2b0a6780a26d55.txt:47 (paragraph 23)" in shown.stdout
    details = json.loads(run("show", "mics", "--json", tmp_path=tmp_path).stdout)
    assert (details["journal"], details["volume"], details["pages"]) == (
        "Proceedings of the VLDB Endowment",
        "16",
        "37-50",
    )


def test_unknown_id_is_a_one_line_error(tmp_path: Path) -> None:
    result = run("show", "dynapipe2", tmp_path=tmp_path)
    assert_one_line_error(result)
    assert (
        "unknown paper id or citation key 'dynapipe2'" in result.stderr
        and "dynapipe" in result.stderr
    )


@pytest.mark.parametrize("kind", ["missing", "binary", "empty folder"])
def test_nothing_loadable_exits_2_without_traceback(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "input.bib"
    if kind == "binary":
        target.write_bytes(b"\x00\x01\x02\xff" * 64)
    elif kind == "empty folder":
        target = tmp_path / "empty"
        target.mkdir()
    result = run("--corpus", target, "list", tmp_path=tmp_path)
    assert_one_line_error(result)
    assert len(result.stderr.strip().splitlines()) == 2  # the warning, then the error
    assert str(target) in result.stderr


def test_bad_utf8_and_broken_entries_warn_but_load(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(
        b"Caf\xe9 ordering systems let waiters send every order straight to the "
        b"kitchen, which halves the time guests wait for food."
    )
    result = run(
        "--corpus", bad, "--corpus", FIXTURES / "refs.bib", "list", "--json", tmp_path=tmp_path
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert f"{bad}:1: not valid UTF-8" in result.stderr
    assert "malformed BibTeX entry skipped" in result.stderr
    ids = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    assert "dup" in ids and "dup-2" in ids and len(ids) == 6


def test_usage_error(tmp_path: Path) -> None:
    assert_one_line_error(run("show", tmp_path=tmp_path))


def test_a_warm_start_reads_the_cache_and_does_not_replay_warnings(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("arxiv.jsonl", "malformed.json"):
        (corpus / name).write_bytes((FIXTURES / name).read_bytes())
    cold = run("--corpus", corpus, "list", "--json", tmp_path=tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert list((tmp_path / "cache" / "library").glob("library-*.pkl"))
    assert "malformed.json" in cold.stderr and "warning" in cold.stderr
    warm = run("--corpus", corpus, "list", "--json", tmp_path=tmp_path)
    assert (warm.returncode, warm.stdout) == (0, cold.stdout)
    assert "warning" not in warm.stderr  # shown once, when the files were read
    check = run("--corpus", corpus, "check", tmp_path=tmp_path)
    assert check.returncode == 1 and "malformed.json:3: malformed JSON" in check.stdout
