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
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 21
    assert err[0] == f"paperscope: warning: {refs}:1: entry 'p0' uses undefined @string macro 'j0'; kept as written"
    assert err[-1] == ("paperscope: warning: ... and 10 more (30 problems in your files); "
                       "`paperscope check` lists them all")


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
