"""`paperscope export` as a user runs it: the format follows `-o`'s name as in the app, every
style is a format (key formats write the keys), and a missing folder is asked about."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import bibtexparser
import pytest
import rispy
import yaml

from tests.tui.cli.test_cite import run
from tui.cli.context import UserError
from tui.cli.output import prepare_output


def config(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def keys_of(env: dict[str, str], query: str) -> list[str]:
    result = run(env, "export", query, "--format", "key")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_file_name_decides_the_format(env: dict[str, str], tmp_path: Path) -> None:
    keys = keys_of(env, "pipeline")
    assert len(keys) > 2
    for name in ("refs.bib", "refs.ris", "refs.json", "refs.yml", "refs.yaml", "refs.txt"):
        result = run(env, "export", "pipeline", "-o", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
    text = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("refs.*")}
    assert [e.key for e in bibtexparser.parse_string(text["refs.bib"]).entries] == keys
    assert [r["id"] for r in rispy.loads(text["refs.ris"])] == keys
    assert [item["id"] for item in json.loads(text["refs.json"])] == keys
    assert list(yaml.safe_load(text["refs.yml"])) == keys
    assert text["refs.yaml"].split("\n", 1)[1] == text["refs.yml"].split("\n", 1)[1]
    assert "Jiang, " in text["refs.txt"] and "(2024)" in text["refs.txt"]  # APA, the default


def test_format_overrides_the_name_and_the_config_style_fills_in(
    env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "refs.txt"
    assert run(env, "export", "dynapipe", "-o", str(out), "--format", "ris").returncode == 0
    assert rispy.loads(out.read_text(encoding="utf-8"))[0]["id"] == "jiang2024dynapipe"
    config(tmp_path, 'style = "biblatex"\n')
    bib = run(env, "export", "dynapipe", "-o", str(tmp_path / "refs.bib"), "--json")
    assert json.loads(bib.stderr.splitlines()[-1])["format"] == "biblatex"
    assert "@inproceedings{jiang2024dynapipe," in (tmp_path / "refs.bib").read_text()
    stdout = run(env, "export", "dynapipe")  # no file name: BibTeX, whatever the config says
    assert "exported 1 paper as bibtex" in stdout.stderr


@pytest.mark.parametrize(
    ("args", "template"),
    [
        (("--format", "key"), "{lines}\n"),
        (("--style", "latex"), "\\citep{{{commas}}}\n"),  # the config's latex_command
        (("--style", "latex:autocite"), "\\autocite{{{commas}}}\n"),
        (("--format", "pandoc"), "[{pandoc}]\n"),
        (("--format", "typst"), "{typst}\n"),
        (("--format", "org"), "[cite:{org}]\n"),
    ],
)
def test_key_formats_write_the_exported_papers_keys(
    env: dict[str, str], tmp_path: Path, args: tuple[str, ...], template: str
) -> None:
    keys = keys_of(env, "pipeline")
    config(tmp_path, 'latex_command = "citep"\n')
    out = tmp_path / "cites.tex"
    result = run(env, "export", "pipeline", *args, "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8") == template.format(
        lines="\n".join(keys),
        commas=",".join(keys),
        pandoc="; ".join(f"@{k}" for k in keys),
        typst=" ".join(f"@{k}" for k in keys),
        org=";".join(f"@{k}" for k in keys),
    )


def test_an_unknown_format_lists_the_formats_and_the_styles(env: dict[str, str]) -> None:
    result = run(env, "export", "--format", "docx")
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("paperscope: unknown export format 'docx'; choose one of: bibtex,")
    assert "hayagriva, jsonl, apa," in line and "latex:COMMAND or a .csl file" in line


def test_a_missing_folder_is_an_error_without_a_terminal_and_created_with_mkdir(
    env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "paper" / "refs.bib"
    refused = run(env, "export", "dynapipe", "-o", str(out))
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"paperscope: no such folder: {out.parent}; add --mkdir to create it"
    ]
    assert not out.parent.exists()
    made = run(env, "export", "dynapipe", "-o", str(out), "--mkdir")
    assert made.returncode == 0, made.stderr
    assert f"paperscope: warning: created the folder {out.parent}" in made.stderr
    assert out.read_text(encoding="utf-8").count("@inproceedings{") == 1
    cited = tmp_path / "paper.tex"
    cited.write_text("\\cite{jiang2024dynapipe}\n", encoding="utf-8")
    target = tmp_path / "build" / "refs.bib"
    assert "add --mkdir" in run(env, "cited", str(cited), "-o", str(target)).stderr
    assert run(env, "cited", str(cited), "-o", str(target), "--mkdir").returncode == 0
    assert target.is_file()


def test_on_a_terminal_the_missing_folder_is_asked_about(tmp_path: Path) -> None:
    asked: list[str] = []

    def answering(text: str) -> Callable[[str], str]:
        def ask(question: str) -> str:
            asked.append(question)
            return text

        return ask

    target = tmp_path / "new" / "deeper" / "refs.bib"
    for no in ("n\n", "\n", ""):  # no, just enter, end of input
        with pytest.raises(UserError, match="nothing written"):
            prepare_output(target, ask=answering(no))
        assert not (tmp_path / "new").exists()
    assert asked[0] == f"paperscope: no such folder: {target.parent}; create it? [y/N] "
    done = prepare_output(target, ask=answering("Yes\n"))
    assert done == f"created the folder {target.parent}" and target.parent.is_dir()
    assert prepare_output(target, ask=answering("y\n")) is None
    assert len(asked) == 4  # the folder exists now: not asked again


def test_what_is_in_the_way_is_said(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(UserError, match="is not a folder"):
        prepare_output(tmp_path / "file" / "sub" / "refs.bib", mkdir=True)
    with pytest.raises(UserError, match="is a folder; give a file name"):
        prepare_output(tmp_path)
    with pytest.raises(UserError, match="exists; add --force"):
        prepare_output(tmp_path / "file", force=False)
