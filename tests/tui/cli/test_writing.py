"""`cited`, key formats in `cite`, the user's CSL styles and Hayagriva export, as a user runs them."""

from __future__ import annotations

import shutil
from pathlib import Path

import bibtexparser
import pytest
import yaml

from index.citations.csl import CSL_DIR
from tests.tui.cli.test_cite import run

MANUSCRIPT = r"""\documentclass{article}
\begin{document}
Pipelines \citep[p.~3]{jiang2024dynapipe}, 100\% sure % \cite{hidden}
and \parencite[see][]{sam-med,gorgolewski2017bidsapps}.
Again \cite{jiang2024dynapipe} and \cite{jiang2024dynapip}.
\end{document}
"""


def messages(stderr: str) -> list[str]:
    """stderr without the first run's "reading the papers" notice."""
    return [line for line in stderr.splitlines() if "reading the papers" not in line]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cited_writes_the_cited_papers_in_order_and_reports_unknown_keys(
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    tex = write(tmp_path, "paper.tex", MANUSCRIPT)
    result = run(env, "cited", str(tex))
    assert result.returncode == 1
    assert messages(result.stderr) == [
        f"{tex}:5: unknown citation key 'jiang2024dynapip'; did you mean 'jiang2024dynapipe'?"
    ]
    entries = bibtexparser.parse_string(result.stdout).entries
    # In order of first citation; a paper cited by its id keeps that key, so LaTeX finds it.
    assert [e.key for e in entries] == ["jiang2024dynapipe", "sam-med", "gorgolewski2017bidsapps"]


def test_cited_exit_0_and_output_file_for_markdown_typst_and_org(
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    md = write(
        tmp_path,
        "notes.md",
        "See [@wang2023sammed, p. 3; -@jiang2024dynapipe].\n"
        "```python\n@property\n```\nMail a@b.org\n",
    )
    typ = write(tmp_path, "paper.typ", "As @yao2021hawqv3 shows // @commented\n")
    org = write(tmp_path, "notes.org", "[cite/t:@jiang2024dynapipe;@gorgolewski2017bidsapps]\n")
    out = tmp_path / "refs" / "cited.bib"
    out.parent.mkdir()
    result = run(env, "cited", str(md), str(typ), str(org), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert messages(result.stderr) == [f"paperscope: wrote 4 cited papers to {out}"]
    keys = [e.key for e in bibtexparser.parse_string(out.read_text(encoding="utf-8")).entries]
    assert keys == [
        "wang2023sammed",
        "jiang2024dynapipe",
        "yao2021hawqv3",
        "gorgolewski2017bidsapps",
    ]


def test_cited_in_another_style_and_as_hayagriva_for_typst(
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    typ = write(tmp_path, "paper.typ", "@jiang2024dynapipe and #cite(<wang2023sammed>)\n")
    keys = run(env, "cited", str(typ), "--style", "pandoc")
    assert keys.returncode == 0 and keys.stdout == "[@jiang2024dynapipe; @wang2023sammed]\n"
    yml = run(env, "cited", str(typ), "--style", "hayagriva")
    assert list(yaml.safe_load(yml.stdout)) == ["jiang2024dynapipe", "wang2023sammed"]


def test_cited_refuses_a_file_it_cannot_read(env: dict[str, str], tmp_path: Path) -> None:
    result = run(env, "cited", str(write(tmp_path, "paper.txt", "@a")))
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "paper.txt: not a manuscript paperscope reads (.tex, .aux, .md, .typ, .org)"
    )


def test_cite_in_key_formats_with_a_latex_command_from_the_call_or_the_config(
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    assert (
        run(env, "cite", "dynapipe", "sam-med", "--style", "latex:citep").stdout
        == "\\citep{jiang2024dynapipe,wang2023sammed}\n"
    )
    assert run(env, "cite", "dynapipe", "--style", "typst").stdout == "@jiang2024dynapipe\n"
    assert (
        run(env, "cite", "dynapipe", "sam-med", "--style", "key").stdout
        == "jiang2024dynapipe\nwang2023sammed\n"
    )
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text(
        'latex_command = "autocite"\n', encoding="utf-8"
    )
    assert (
        run(env, "cite", "dynapipe", "--style", "latex").stdout == "\\autocite{jiang2024dynapipe}\n"
    )
    bad = run(env, "cite", "dynapipe", "--style", "latex:ci te")
    assert bad.returncode == 2 and "not a LaTeX command name" in bad.stderr


def test_the_users_csl_styles_are_listed_used_and_a_broken_one_is_one_line(
    env: dict[str, str],
    tmp_path: Path,
) -> None:
    styles = tmp_path / "config" / "styles"
    styles.mkdir(parents=True)
    shutil.copy(CSL_DIR / "ieee.csl", styles / "my-ieee.csl")
    (styles / "x.csl").write_text(
        "<?xml version='1.0'?>\n<style>\n<oops a=></style>\n", encoding="utf-8"
    )
    warning = f"paperscope: warning: {styles / 'x.csl'}: not a CSL style (XML error at line 3)"
    cited = run(env, "cite", "dynapipe", "--style", "my-ieee")
    assert cited.returncode == 0
    assert cited.stdout.startswith("C. Jiang, Z. Jia, S. Zheng, Y. Wang, and C. Wu, \u201cDynaPipe")
    assert messages(cited.stderr) == [warning]
    # Said once: the next command is quiet about it; `styles` always lists it.
    again = run(env, "cite", "dynapipe", "--style", "MY-IEEE")  # names fold case
    assert again.stdout == cited.stdout and messages(again.stderr) == []
    listed = run(env, "styles")
    assert listed.returncode == 0
    assert any(
        line.startswith("my-ieee    IEEE Reference Guide") for line in listed.stdout.splitlines()
    )
    assert messages(listed.stderr) == [warning]
    by_path = run(env, "cite", "dynapipe", "--style", str(styles / "my-ieee.csl"))
    assert by_path.stdout == cited.stdout
    broken = run(env, "cite", "dynapipe", "--style", "x")
    assert broken.returncode == 2 and broken.stdout == ""
    assert broken.stderr.splitlines()[-1] == (
        f"paperscope: {styles / 'x.csl'}: not a CSL style (XML error at line 3)"
    )


def test_export_as_hayagriva(env: dict[str, str]) -> None:
    result = run(env, "export", "dynapipe", "--format", "hayagriva")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Exported by paperscope ")
    data = yaml.safe_load(result.stdout)
    assert data["jiang2024dynapipe"]["parent"]["type"] == "proceedings"


@pytest.mark.parametrize("style", ["key", "pandoc"])
def test_styles_lists_the_key_formats(env: dict[str, str], style: str) -> None:
    assert any(line.split()[0] == style for line in run(env, "styles").stdout.splitlines())


def test_cited_nocite_star_puts_the_whole_library_in(env: dict[str, str], tmp_path: Path) -> None:
    tex = write(tmp_path, "paper.tex", "\\cite{sam-med}\n\\nocite{*}\n")
    result = run(env, "cited", str(tex))
    assert result.returncode == 0, result.stderr
    listed = run(env, "list").stdout.splitlines()
    keys = [e.key for e in bibtexparser.parse_string(result.stdout).entries]
    assert len(keys) == len(listed) > 1 and len(set(keys)) == len(keys)
    assert keys[0] == "sam-med"  # the papers cited by key come first


def test_cited_reads_the_files_a_thesis_reads_in(env: dict[str, str], tmp_path: Path) -> None:
    """`\\input`, `\\include`, `\\subfile` and `\\import` are followed (`.tex` added), a
    verbatim or `comment` environment holds no citation, a commented-out input is not read,
    and a missing file is one warning naming where it was read in."""
    (tmp_path / "chapters").mkdir()
    write(tmp_path, "chapters/one.tex", "\\cite{sam-med}\n\\input{chapters/deep}\n")
    write(tmp_path, "chapters/deep.tex", "\\citep{jiang2024dynapipe}\n\\input{thesis}\n")
    write(
        tmp_path, "two.tex", "\\begin{verbatim}\n\\cite{gorgolewski2017bidsapps}\n\\end{verbatim}\n"
    )
    write(tmp_path, "old.tex", "\\cite{gorgolewski2017bidsapps}\n")
    thesis = write(
        tmp_path,
        "thesis.tex",
        "\\include{chapters/one}\n\\subfile{two.tex}\n% \\input{old}\n"
        "\\begin{comment}\n\\input{old}\n\\end{comment}\n\\import{./}{missing}\n",
    )
    result = run(env, "cited", str(thesis))
    assert result.returncode == 0, result.stderr
    assert messages(result.stderr) == [
        f"paperscope: warning: {thesis}:7: './missing' is read in but not found"
    ]
    keys = [e.key for e in bibtexparser.parse_string(result.stdout).entries]
    assert keys == ["sam-med", "jiang2024dynapipe"]  # the thesis read back in is read once


def test_cited_ignores_biblatex_control_in_an_aux_file(env: dict[str, str], tmp_path: Path) -> None:
    aux = write(tmp_path, "paper.aux", "\\citation{biblatex-control}\n\\citation{sam-med}\n")
    result = run(env, "cited", str(aux))
    assert result.returncode == 0, result.stderr
    assert [e.key for e in bibtexparser.parse_string(result.stdout).entries] == ["sam-med"]
