"""`paperscope cite`, `styles` and `export` as a user runs them (tests/tui/cli/commands.py),
on a machine with no clipboard tool (no xclip/xsel/wl-copy on PATH, no display) and no
terminal."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import bibtexparser
import pytest
import rispy

from index.citations import STYLES
from index.models import Paper
from tests.tui.cli.commands import run_paperscope

REPO = Path(__file__).resolve().parents[3]


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return run_paperscope(args, env=env, cwd=REPO)


def test_styles_lists_every_style(env: dict[str, str]) -> None:
    result = run(env, "styles")
    assert result.returncode == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == [*STYLES, "hayagriva"]
    assert "apa        APA 7" in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1].startswith("hayagriva  Hayagriva (Typst)")


def test_cite_prints_a_bibtex_entry_that_parses(env: dict[str, str]) -> None:
    result = run(env, "cite", "dynapipe", "--style", "bibtex")
    assert result.returncode == 0, result.stderr
    (entry,) = bibtexparser.parse_string(result.stdout).entries
    assert entry.key == "jiang2024dynapipe"
    assert entry.entry_type == "inproceedings"
    assert entry.fields_dict["doi"].value == "10.1145/3627703.3629585"


def test_cite_several_ids_gives_an_ordered_bibliography(env: dict[str, str]) -> None:
    result = run(env, "cite", "sam-med", "bids-apps", "dynapipe", "--style", "apa")
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and len(lines) == 3
    assert [line.split(",")[0] for line in lines] == ["Gorgolewski", "Jiang", "Wang"]


def test_config_style_is_the_default(env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('style = "ieee"\n', encoding="utf-8")
    result = run(env, "cite", "dynapipe")
    assert result.stdout.startswith(
        "C. Jiang, Z. Jia, S. Zheng, Y. Wang, and C. Wu, \u201cDynaPipe"
    )


def test_unknown_style_is_one_line_listing_the_styles(env: dict[str, str]) -> None:
    result = run(env, "cite", "dynapipe", "--style", "harvard")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "'harvard'" in result.stderr and ", ".join(STYLES) in result.stderr


def test_unknown_id_is_one_line_suggesting_the_closest(env: dict[str, str]) -> None:
    result = run(env, "cite", "dynapip", "sam-med")
    assert result.returncode == 2 and result.stdout == ""
    line = result.stderr.splitlines()[-1]  # a slow machine may add the load notice first
    assert "unknown paper id or citation key 'dynapip'" in line
    assert "did you mean dynapipe" in line
    assert "rt-fcma" not in line  # the closest few, never every id


def test_copy_without_any_clipboard_saves_the_text(env: dict[str, str], tmp_path: Path) -> None:
    result = run(env, "cite", "hawq-v3", "--style", "ieee", "--copy")
    assert result.returncode == 1  # nothing was copied: saved is not copied
    saved = tmp_path / "data" / "clipboard.txt"
    assert saved.read_text(encoding="utf-8") == result.stdout
    (message,) = result.stderr.splitlines()
    assert message.startswith("paperscope: No clipboard available (no system clipboard tool")
    assert "no terminal to send OSC 52 to" in message and str(saved) in message
    assert "Copied" not in message
    assert "\x1b]52" not in result.stdout + result.stderr


def test_copy_over_ssh_never_tries_the_remote_clipboard(
    env: dict[str, str], tmp_path: Path
) -> None:
    result = run({**env, "SSH_TTY": "/dev/pts/9"}, "cite", "dynapipe", "--copy")
    assert result.returncode == 1
    assert "remote machine" in result.stderr and "xclip" not in result.stderr
    assert (tmp_path / "data" / "clipboard.txt").is_file()


def test_export_bibtex_with_filters_has_provenance(env: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "out" / "training.bib"
    result = run(
        env, "export", "--topic", "training", "--year", "2024..2025", "-o", str(out), "--mkdir"
    )
    assert result.returncode == 0, result.stderr
    assert f"created the folder {out.parent}" in result.stderr
    text = out.read_text(encoding="utf-8")
    header = text.split("\n\n")[0].splitlines()
    assert header[0].startswith("% Exported by paperscope ")
    assert header[1:] == [
        "% query: (none)",
        "% filters: topic=training; year=2024..2025",
        header[3],
    ]
    entries = bibtexparser.parse_string(text).entries
    assert header[3] == f"% papers: {len(entries)}" and len(entries) > 0
    assert all(2024 <= int(entry.fields_dict["year"].value) <= 2025 for entry in entries)
    assert f"exported {len(entries)} papers as bibtex to {out}" in result.stderr
    assert sorted(p.name for p in out.parent.iterdir()) == ["training.bib"]  # no temp left


def test_export_query_as_ris_and_all_as_jsonl(env: dict[str, str], tmp_path: Path) -> None:
    ris = run(env, "export", "pipeline", "--format", "ris")
    assert ris.returncode == 0, ris.stderr
    records = rispy.loads(ris.stdout)
    assert records and any(record["id"] == "jiang2024dynapipe" for record in records)
    assert all("pipelin" in (r["title"] + r.get("abstract", "")).lower() for r in records)

    jsonl = run(env, "export", "--format", "jsonl")
    papers = [Paper.from_dict(json.loads(line)) for line in jsonl.stdout.splitlines()]
    assert len(papers) == 47 and papers[0].id == "dynapipe"

    csl = run(env, "export", "--topic", "gnn", "--format", "csl-json")
    items = json.loads(csl.stdout)
    assert isinstance(items, list) and {"featgraph"} <= {i["title-short"].lower() for i in items}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("export", "--format", "xml"), "unknown export format 'xml'; choose one of: bibtex"),
        (("export", "--year", "20x4"), "--year '20x4' is not a year"),
        (("export", "--topic", "cooking"), "--topic 'cooking' is not a known value"),
    ],
)
def test_export_bad_input_is_one_line(
    env: dict[str, str], args: tuple[str, ...], message: str
) -> None:
    result = run(env, *args)
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert message in line


def test_styles_and_cite_speak_json(env: dict[str, str]) -> None:
    styles = [json.loads(line) for line in run(env, "styles", "--json").stdout.splitlines()]
    assert [s["style"] for s in styles] == [*STYLES, "hayagriva"]
    assert styles[2]["label"] == "APA 7"
    cited = json.loads(run(env, "cite", "dynapipe", "--style", "APA", "--json").stdout)
    assert cited["style"] == "apa" and cited["ids"] == ["dynapipe"] and "DynaPipe" in cited["text"]


def test_export_warns_before_replacing_and_when_it_writes_nothing(
    env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "refs.bib"
    out.write_text("mine\n", encoding="utf-8")
    refused = run(env, "export", "-o", str(out))
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert run(env, "export", "-o", str(out), "--force").returncode == 0
    empty = run(env, "export", "xqzvnothing", "-o", str(tmp_path / "none.bib"))
    assert empty.returncode == 0 and "holds no papers" in empty.stderr
