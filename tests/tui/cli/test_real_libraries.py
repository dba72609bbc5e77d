"""The command line on libraries as researchers keep them: merges explained, own keys,
warnings that help (issue 12)."""

from __future__ import annotations

from pathlib import Path

from tui.cli import main


def test_show_says_why_papers_were_merged(tmp_path: Path, capsys) -> None:
    from tui.cli import main

    (tmp_path / "a.bib").write_text("@article{a, title={Loomwork}, doi={10.1/X}}\n")
    (tmp_path / "b.bib").write_text("@article{b, title={Loomwork}, doi={https://doi.org/10.1/x}}\n")
    assert main(["--corpus", str(tmp_path), "show", "a"]) == 0
    out = capsys.readouterr().out
    assert f"merged: {tmp_path / 'a.bib'}:1 and {tmp_path / 'b.bib'}:1: same DOI 10.1/x" in out


def _many_problems(tmp_path: Path) -> Path:
    text = "".join(f"@article{{p{n}, title={{T{n}}}, journal = j{n}}}\n" for n in range(30))
    (tmp_path / "refs.bib").write_text(text)
    return tmp_path / "refs.bib"


def test_a_load_shows_twenty_problems_then_the_count(tmp_path: Path, capsys) -> None:
    refs = _many_problems(tmp_path)
    assert main(["--corpus", str(refs), "list"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(err) == 21
    assert (
        err[0]
        == f"paperscope: warning: {refs}:1: entry 'p0' uses undefined @string macro 'j0'; kept as written"
    )
    assert err[-1] == (
        "paperscope: warning: ... and 10 more (30 problems in your files); "
        "`paperscope check` lists them all"
    )


def test_a_load_from_the_cache_does_not_replay_them(tmp_path: Path, capsys) -> None:
    refs = _many_problems(tmp_path)
    main(["--corpus", str(refs), "list"])
    capsys.readouterr()
    assert main(["--corpus", str(refs), "search", "T1"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_check_lists_every_problem_and_exits_1(tmp_path: Path, capsys) -> None:
    refs = _many_problems(tmp_path)
    main(["--corpus", str(refs), "list"])  # the cached load must not hide them from check
    capsys.readouterr()
    assert main(["--corpus", str(refs), "check"]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 30
    assert "30 problems in your files" in captured.err


def test_check_on_clean_files_exits_0(tmp_path: Path, capsys) -> None:
    (tmp_path / "ok.bib").write_text("@article{a, title = {Fine}, year = 2020}\n")
    assert main(["--corpus", str(tmp_path / "ok.bib"), "check"]) == 0
    assert capsys.readouterr().out == ""


KEYS = r"""
@incollection{westfahl:space, author = {Westfahl, Gary}, title = {The True Frontier}, year = 2000,
  booktitle = {Space}}
@article{Smith_2020, author = {Smith, Ann}, title = {Smith on Looms}, year = 2020, journal = {J}}
@article{Doe:78, author = {Doe, Jane}, title = {Doe Looks at Weaving}, year = 1978, journal = {K}}
"""


def test_show_and_cite_take_the_users_own_keys(tmp_path: Path, capsys) -> None:
    (tmp_path / "k.bib").write_text(KEYS)
    corpus = ["--corpus", str(tmp_path / "k.bib")]
    assert main([*corpus, "show", "westfahl:space"]) == 0
    assert "id: westfahl-space" in capsys.readouterr().out
    assert main([*corpus, "cite", "Doe:78", "Smith_2020", "westfahl-space", "--style", "apa"]) == 0
    out = capsys.readouterr().out
    assert "Doe, J. (1978)" in out and "Smith, A. (2020)" in out and "Westfahl, G. (2000)" in out


def test_an_unknown_key_suggests_the_closest_few(tmp_path: Path, capsys) -> None:
    (tmp_path / "k.bib").write_text(KEYS)
    assert main(["--corpus", str(tmp_path / "k.bib"), "show", "smith_2021"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert (
        err == "paperscope: unknown paper id or citation key 'smith_2021'; did you mean smith_2020?"
    )


def test_the_key_query_finds_a_key_in_any_case_and_by_prefix(tmp_path: Path, capsys) -> None:
    """As fzf-bibtex users expect: `key:doe:78` and `key:Smi*` find the keys as written."""
    (tmp_path / "k.bib").write_text(KEYS)
    corpus = ["--corpus", str(tmp_path / "k.bib")]
    for query, expected in (
        ("key:westfahl:space", "westfahl-space"),
        ("key:Doe:78", "doe-78"),
        ("key:Smith_2020", "smith_2020"),
    ):
        assert main([*corpus, "search", query, "--json"]) == 0
        import json

        hits = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [hit["id"] for hit in hits] == [expected], query
    for query, expected in (("key:doe:78", "doe-78"), ("key:smi*", "smith_2020")):
        assert main([*corpus, "search", query, "--json"]) == 0
        hits = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [hit["id"] for hit in hits] == [expected], query
    # A key with a typo is found fuzzily, and stderr says so; no key near: nothing.
    assert main([*corpus, "search", "key:doe:79", "--json"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["doe-78"]
    assert "No exact match: showing results for key:doe:79~" in err
    assert main([*corpus, "search", "key:zzz:00", "--json"]) == 0
    assert capsys.readouterr().out == ""


def test_tag_status_and_search_take_the_users_own_keys(tmp_path: Path, capsys) -> None:
    import json

    (tmp_path / "k.bib").write_text(KEYS)
    corpus = ["--corpus", str(tmp_path / "k.bib")]
    assert main([*corpus, "tag", "Doe:78", "westfahl:space", "+toread"]) == 0
    assert main([*corpus, "status", "Smith_2020", "read"]) == 0
    capsys.readouterr()
    assert main([*corpus, "search", "tag:toread", "--json"]) == 0
    hits = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert sorted(hits) == ["doe-78", "westfahl-space"]
    # The key alone as the query, without `key:`, finds its paper first.
    assert main([*corpus, "search", "Doe:78", "--json"]) == 0
    hits = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert hits[:1] == ["doe-78"]
    assert main([*corpus, "tag", "doe:78", "+x"]) == 2
    assert "did you mean Doe:78?" in capsys.readouterr().err
