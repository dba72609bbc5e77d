"""`paperscope tag`, `status`, `saved` and `search --save/--saved`, as a user runs them."""

from __future__ import annotations

import json

import pytest

from tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def ranked(out: str) -> list[str]:
    return [line.split()[1] for line in out.splitlines() if line[:5].strip().endswith(".")]


def test_tag_adds_and_removes_and_search_finds_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tag", "dynapipe", "slapo", "+ToRead", "+old")
    assert code == 0 and out.splitlines() == ["dynapipe: toread old", "slapo: toread old"]
    code, out, _ = run(capsys, "tag", "slapo", "-old")
    assert code == 0 and out.strip() == "slapo: toread"
    code, out, _ = run(capsys, "search", "tag:toread", "--limit", "50")
    assert code == 0 and set(ranked(out)) == {"dynapipe", "slapo"}
    code, out, _ = run(capsys, "search", "--tag", "old")
    assert code == 0 and ranked(out) == ["dynapipe"]
    _, out, _ = run(capsys, "facets", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert {(r["value"], r["count"]) for r in rows if r["facet"] == "tag"} == {
        ("toread", 2),
        ("old", 1),
    }


def test_tag_errors_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tag", "no-such-paper", "+x")
    assert code == 2 and "unknown paper id or citation key 'no-such-paper'" in err
    code, _, err = run(capsys, "tag", "dynapipe")
    assert code == 2 and "+TAG" in err
    code, _, err = run(capsys, "tag", "+x")
    assert code == 2 and "paper id" in err


def test_status_sets_and_filters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "status", "dynapipe", "slapo", "read")
    assert code == 0 and out.splitlines() == ["dynapipe: read", "slapo: read"]
    code, out, _ = run(capsys, "status", "slapo", "toread")
    assert code == 0 and out.strip() == "slapo: to-read"
    code, out, _ = run(capsys, "search", "status:read")
    assert ranked(out) == ["dynapipe"]
    code, out, _ = run(capsys, "search", "training", "--status", "to-read")
    assert ranked(out) == ["slapo"]
    code, _, err = run(capsys, "status", "dynapipe", "skimmed")
    assert code == 2 and "'skimmed'" in err and "unread, to-read, reading, read" in err
    code, _, err = run(capsys, "search", "x", "--status", "skimmed")
    assert code == 2 and "--status 'skimmed'" in err


def test_save_recall_list_and_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "search", "training", "--hardware", "gpu", "--save", "GPU training")
    assert code == 0
    saved_ids = ranked(out)
    code, out, _ = run(capsys, "search", "--saved", "gpu training")  # names ignore case
    assert code == 0 and ranked(out) == saved_ids
    run(capsys, "search", "status:read", "--save", "done")
    code, out, _ = run(capsys, "saved")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[0] == str(len(saved_ids)) and "GPU training" in lines[0]
    assert "1 filter" in lines[0]
    assert lines[1].split()[0] == "0" and "done" in lines[1]
    # A status set later counts at once: the counts are live.
    run(capsys, "status", "dynapipe", "read")
    _, out, _ = run(capsys, "saved", "--json")
    counts = {row["name"]: row["count"] for row in map(json.loads, out.splitlines())}
    assert counts == {"GPU training": len(saved_ids), "done": 1}
    code, _, err = run(capsys, "search", "--saved", "nope")
    assert code == 2 and "no saved search named 'nope'" in err and "GPU training" in err


def test_saved_rename_and_delete(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "search", "cache", "--save", "a")
    code, out, _ = run(capsys, "saved", "--rename", "a", "b")
    assert code == 0 and out.split()[1:] == ["b", "cache"]
    code, _, err = run(capsys, "saved", "--delete", "a")
    assert code == 2 and "no saved search named 'a'" in err
    code, out, err = run(capsys, "saved", "--delete", "b")
    assert code == 0 and out == "" and "no saved searches" in err


def test_search_needs_a_query_filters_or_saved(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "search")
    assert code == 2 and "--saved NAME" in err


def test_show_lists_the_users_tags_and_status(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "tag", "dynapipe", "+toread")
    run(capsys, "status", "dynapipe", "reading")
    code, out, _ = run(capsys, "show", "dynapipe")
    assert code == 0
    assert "  your tags: toread" in out and "     status: reading" in out
