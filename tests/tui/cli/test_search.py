"""`paperscope search`, `facets` and `index` as a user runs them (cache in a tmp folder)."""

from __future__ import annotations

import argparse
import json

import pytest

from tui.cli import main
from tui.cli.context import UserError
from tui.cli.search_cmds import (
    add_filter_arguments,
    parse_year_range,
    request_from_args,
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_builds_then_reports_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "index")
    assert code == 0 and out.startswith("built: 47 papers")
    code, out, _ = run(capsys, "index")
    assert code == 0 and out.startswith("up to date: 47 papers")
    code, out, _ = run(capsys, "index", "--rebuild")
    assert code == 0 and out.startswith("rebuilt: 47 papers")


def test_search_json_has_list_keys_score_and_snippet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "search", "dynamic", "micro-batching", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["id"] == "dynapipe"
    _, listed, _ = run(capsys, "list", "--json")
    list_keys = set(json.loads(listed.splitlines()[0]))
    assert list_keys | {"score", "snippet"} <= set(rows[0])
    assert isinstance(rows[0]["score"], float) and "micro" in rows[0]["snippet"]
    assert "papers match" not in err  # the summary only when asked
    _, _, err = run(capsys, "search", "dynamic", "--summary")
    assert "papers match" in err


def test_a_search_that_prints_no_row_says_how_many_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Silence read as a failure: no match, or a count alone (`--limit 0`), is said on
    stderr, and stdout stays empty for a pipe."""
    for argv in (("zzyzx",), ("zzyzx", "--json")):
        code, out, err = run(capsys, "search", *argv)
        assert (code, out) == (0, "")
        # After "indexing 47 papers..." the first time; then what the typo retry tried.
        *_, count, tried = err.strip().splitlines()
        assert count == f"paperscope: 0 of 47 papers match ({_elapsed(count)} ms)"
        assert tried == "paperscope: Fuzzy words found nothing either (zzyzx~)"
    code, out, err = run(capsys, "search", "dynamic", "--limit", "0")
    assert (code, out) == (0, "")
    total = int(err.split()[1])
    assert total >= 1 and err.startswith(f"paperscope: {total} of 47 papers match")


def _elapsed(err: str) -> str:
    """The milliseconds a summary line reports (they vary from run to run)."""
    return err.rsplit("(", 1)[1].split(" ms)")[0]


def test_search_counts_facets_only_for_a_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table and JSON show no counts: counting every facet was a fifth of a search."""
    import index.search.engine

    counted: list[str] = []
    count = index.search.engine.facet_counts

    def spy(*args: object, **kwargs: object) -> object:
        counted.append("facets")
        return count(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(index.search.engine, "facet_counts", spy)
    code, plain, _ = run(capsys, "search", "memory")
    assert code == 0 and "memory" in plain.lower() and counted == []
    code, summarised, err = run(capsys, "search", "memory", "--summary")
    assert code == 0 and summarised == plain and counted == ["facets"]
    assert "papers match" in err and "topic: " in err


def test_search_table_filters_and_sort(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        capsys,
        "search",
        "model",
        "--hardware",
        "aws-trainium",
        "--year",
        "2024..2026",
        "--sort",
        "year",
        "--limit",
        "50",
    )
    assert code == 0
    _, listed, _ = run(capsys, "list", "--json")
    papers = {p["id"]: p for p in map(json.loads, listed.splitlines())}
    ranked = [line.split()[1] for line in out.splitlines() if line[:5].strip().endswith(".")]
    assert ranked
    for paper_id in ranked:
        assert "aws-trainium" in papers[paper_id]["hardware"]
        assert 2024 <= papers[paper_id]["year"] <= 2026
    years = [papers[i]["year"] for i in ranked]
    assert years == sorted(years, reverse=True)


def test_facets_over_the_whole_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "facets", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    _, listed, _ = run(capsys, "list", "--json")
    papers = [json.loads(line) for line in listed.splitlines()]
    for row in rows:
        if row["facet"] == "topic":
            assert row["count"] == sum(row["value"] in p["topics"] for p in papers)
        if row["facet"] == "hardware":
            assert row["count"] == sum(row["value"] in p["hardware"] for p in papers)
    assert {r["facet"] for r in rows} == {"topic", "hardware", "year", "venue", "author"}


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["search", "x", "--year", "20x4"],
        ["search", "x", "--topic", "nope"],
        ["search", "x", "--limit", "-1"],
        ["facets", "--year", "2025..2020"],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.count("\n") == 1 and err.startswith("paperscope: "), argv


def test_bad_query_syntax_is_a_notice_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "search", "year:abc", "training")
    assert code == 0 and "Could not parse the query" in err


def test_filter_helpers_build_requests() -> None:
    parser = argparse.ArgumentParser()
    add_filter_arguments(parser)
    args = parser.parse_args(
        ["--topic", "training", "--topic", "inference", "--hardware", "gpu", "--year", "2022.."]
    )
    request = request_from_args(args, "kv cache", limit=5)
    assert request.topics == {"training", "inference"} and request.hardware == {"gpu"}
    assert request.year_range == (2022, None) and request.limit == 5
    assert parse_year_range("2021") == (2021, 2021)
    assert parse_year_range("..2019") == (None, 2019)
    with pytest.raises(UserError):
        parse_year_range("..")


def test_no_score_column_without_relevance_and_an_aligned_facets_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, ranked, _ = run(capsys, "search", "pipeline", "--limit", "3")
    _, by_year, _ = run(capsys, "search", "pipeline", "--sort", "year", "--limit", "3")
    assert any(
        line.split()[3].replace(".", "").isdigit()
        for line in ranked.splitlines()
        if line[:4].strip()
    )
    for line in by_year.splitlines():
        if line.strip()[:2].rstrip(".").isdigit():
            assert not line.split()[3].replace(".", "").isdigit(), (
                line
            )  # the title follows the year
    _, table, _ = run(capsys, "facets")
    lines = table.splitlines()
    topics = lines[1 : lines.index("hardware")]
    ends = {len(line.split("  ")[0]) for line in topics}
    counts_end = {line.index(line.split()[1]) + len(line.split()[1]) for line in topics}
    assert len(counts_end) == 1, topics
    assert ends


def test_list_is_newest_first_like_the_app(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "list")
    years = [int(line.split()[1]) for line in out.splitlines() if line.split()[1].isdigit()]
    assert years == sorted(years, reverse=True)


def test_an_unknown_typed_facet_value_is_named_with_a_suggestion(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "search", "hw:trainium")
    assert code == 0 and "hw:trainium is not a hardware id (did you mean hw:aws-trainium?)" in err


def test_index_json_and_options_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "index", "--json")
    data = json.loads(out)
    assert code == 0 and data["papers"] == 47 and data["action"]
    code, out, _ = run(capsys, "list", "--taxonomy", "/no/such/taxonomy.toml")
    assert code == 2 or "taxonomy" in out  # taken as the option, not an unknown argument
