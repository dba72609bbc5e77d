"""The document's bibliography file, and the cited papers written into it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index.models import Paper
from tui.lsp.bibliography import BibliographyError, bibliography_file, write_bibliography

DOC = Path("/work/paper/doc.tex")


@pytest.mark.parametrize(
    ("syntax", "text", "expected"),
    [
        ("latex", "\\bibliography{refs,other}\n", "/work/paper/refs.bib"),
        ("latex", "\\addbibresource[location=local]{lib/refs.bib}\n", "/work/paper/lib/refs.bib"),
        ("latex", "% \\bibliography{old}\n\\bibliography{new}\n", "/work/paper/new.bib"),
        ("markdown", "---\ntitle: X\nbibliography: refs.json\n---\n@a\n", "/work/paper/refs.json"),
        ("markdown", "---\nbibliography:\n  - a.bib\n  - b.bib\n---\n", "/work/paper/a.bib"),
        ("typst", '#bibliography("refs.yml", style: "apa")\n', "/work/paper/refs.yml"),
        ("typst", '#bibliography(("a.bib", "b.yml"))\n', "/work/paper/a.bib"),
        ("org", "#+bibliography: refs.bib\n", "/work/paper/refs.bib"),
    ],
)
def test_the_file_the_document_names(syntax: str, text: str, expected: str) -> None:
    assert bibliography_file(text, syntax, DOC) == Path(expected)


@pytest.mark.parametrize(
    ("syntax", "text"),
    [
        ("latex", "% \\bibliography{refs}\n"),
        ("markdown", "bibliography: refs.bib\n"),  # not front matter
        ("typst", '// #bibliography("refs.yml")\n'),
    ],
)
def test_no_file_named(syntax: str, text: str) -> None:
    assert bibliography_file(text, syntax, DOC) is None


PAPERS = {
    "a": Paper(id="a", title="Alpha", authors=("Ann Alpha",), year=2001, citation_key="a"),
    "b": Paper(id="b", title="Beta", authors=("Bob Beta",), year=2002, citation_key="b"),
}


def test_bib_entries_replaced_in_place_and_the_rest_kept(tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    mine = '@string{n = "Nature"}\n\n@misc{a,\n  title = {Old Alpha},\n}\n\n@misc{mine,\n  title = {Mine},\n}\n'
    out.write_text(mine, encoding="utf-8")
    count, unknown = write_bibliography(out, "\\cite{a,b,zz}", "latex", PAPERS.get, {})
    assert (count, unknown) == (2, ["zz"])
    written = out.read_text(encoding="utf-8")
    assert written.startswith('@string{n = "Nature"}')
    assert "Old Alpha" not in written and written.count("{a,") == 1
    assert written.index("{a,") < written.index("@misc{mine,") < written.index("{b,")


def test_csl_json_records_merged_by_id(tmp_path: Path) -> None:
    out = tmp_path / "refs.json"
    out.write_text(json.dumps([{"id": "mine", "title": "Mine"}]), encoding="utf-8")
    write_bibliography(out, "[@b]", "markdown", PAPERS.get, {})
    assert [r["id"] for r in json.loads(out.read_text())] == ["mine", "b"]
    out.write_text("[{", encoding="utf-8")
    with pytest.raises(BibliographyError, match=r"refs\.json:1: not valid CSL-JSON"):
        write_bibliography(out, "[@b]", "markdown", PAPERS.get, {})
    assert out.read_text() == "[{"  # left as it was


def test_hayagriva_entries_merged_by_key(tmp_path: Path) -> None:
    out = tmp_path / "refs.yml"
    out.write_text("mine:\n  type: misc\n  title: Mine\n", encoding="utf-8")
    write_bibliography(out, "@a @b", "typst", PAPERS.get, {})
    import yaml

    assert list(yaml.safe_load(out.read_text())) == ["mine", "a", "b"]


def test_a_yaml_file_for_pandoc_is_refused_not_written_as_hayagriva(tmp_path: Path) -> None:
    out = tmp_path / "refs.yaml"
    with pytest.raises(BibliographyError, match=r"for pandoc name a \.bib or \.json"):
        write_bibliography(out, "[@a]", "markdown", PAPERS.get, {})
    assert not out.exists()


def test_nocite_star_writes_the_whole_library_after_the_cited(tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    everything = [PAPERS["a"], PAPERS["b"]]
    count, unknown = write_bibliography(
        out, "\\cite{b}\\nocite{*}", "latex", PAPERS.get, {}, lambda: everything
    )
    assert (count, unknown) == (2, [])  # `*` is no unknown key
    written = out.read_text(encoding="utf-8")
    assert written.index("{b,") < written.index("{a,")  # the cited paper first
