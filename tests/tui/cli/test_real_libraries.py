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
