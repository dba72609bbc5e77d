"""The format a file name asks for, and the text each format writes (app and CLI share both)."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser
import pytest
import rispy
import yaml

from index.citations import citation_keys, format_citation
from index.citations.custom import CslStyle
from index.citations.export import (
    export_label,
    export_only_format,
    export_text,
    extension_for,
    format_for_path,
)
from index.models import Paper
from tests.index.citations.citation_papers import bids_apps, dynapipe


@pytest.mark.parametrize(
    ("name", "style", "expected"),
    [
        ("refs.bib", "apa", "bibtex"),
        ("refs.BIB", "apa", "bibtex"),
        ("refs.bib", "biblatex", "biblatex"),  # .bib keeps the BibLaTeX the user chose
        ("refs.ris", "apa", "ris"),
        ("refs.json", "ieee", "csl-json"),
        ("refs.yml", "apa", "hayagriva"),
        ("refs.yaml", "bibtex", "hayagriva"),
        ("refs.jsonl", "apa", "jsonl"),
        ("notes.md", "apa", "markdown"),
        ("refs.txt", "ieee", "ieee"),  # any other name: the current style
        ("refs", "mla", "mla"),
        ("cites.tex", "latex:citep", "latex:citep"),
        ("keys.txt", "key", "key"),
    ],
)
def test_the_file_name_decides_the_format(name: str, style: str, expected: str) -> None:
    assert format_for_path(Path("/some/folder") / name, style) == expected


def test_a_users_csl_style_is_kept_for_a_text_file() -> None:
    style = CslStyle("nature", Path("nature.csl"), "Nature")
    assert format_for_path("refs.txt", style) is style
    assert extension_for(style) == "txt"


@pytest.mark.parametrize(
    ("fmt", "extension"),
    [
        ("bibtex", "bib"),
        ("biblatex", "bib"),
        ("hayagriva", "yml"),
        ("csl-json", "json"),
        ("latex:citep", "tex"),
        ("typst", "typ"),
        ("org", "org"),
        ("pandoc", "txt"),
        ("apa", "txt"),
    ],
)
def test_each_format_has_the_extension_that_asks_for_it_back(fmt: str, extension: str) -> None:
    assert extension_for(fmt) == extension
    assert format_for_path(f"x.{extension}", fmt) == fmt  # ctrl+t's path keeps its format


def test_names_of_the_export_only_formats() -> None:
    assert [export_only_format(n) for n in ("Hayagriva", "yaml", "JSONL", "bibtex")] == [
        "hayagriva",
        "hayagriva",
        "jsonl",
        None,
    ]
    assert export_label("hayagriva") == "Hayagriva (Typst)"
    assert export_label("latex:citep") == "LaTeX \\citep"
    assert export_label("bibtex") == "BibTeX"


PAPERS = [dynapipe(), bids_apps()]
KEYS = citation_keys(PAPERS)


def test_every_file_format_parses_back() -> None:
    header = ["Exported by test", "papers: 2"]
    bib = export_text(PAPERS, "bibtex", KEYS, header)
    assert bib.startswith("% Exported by test\n% papers: 2\n\n@")
    assert [e.key for e in bibtexparser.parse_string(bib).entries] == [KEYS[p.id] for p in PAPERS]
    assert len(rispy.loads(export_text(PAPERS, "ris", KEYS, header))) == 2
    assert len(json.loads(export_text(PAPERS, "csl-json", KEYS, header))) == 2
    yml = export_text(PAPERS, "hayagriva", KEYS, header)
    assert yml.startswith("# Exported by test\n") and set(yaml.safe_load(yml)) == set(KEYS.values())
    lines = export_text(PAPERS, "jsonl", KEYS, header).splitlines()
    assert [Paper.from_dict(json.loads(line)).id for line in lines] == [p.id for p in PAPERS]


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("key", "{0}\n{1}\n"),
        ("latex", "\\cite{{{0},{1}}}\n"),
        ("latex:citep", "\\citep{{{0},{1}}}\n"),
        ("pandoc", "[@{0}; @{1}]\n"),
        ("typst", "@{0} @{1}\n"),
        ("org", "[cite:@{0};@{1}]\n"),
    ],
)
def test_a_key_format_writes_the_exported_papers_keys(fmt: str, expected: str) -> None:
    keys = [KEYS[p.id] for p in PAPERS]
    assert export_text(PAPERS, fmt, KEYS, ["no comment in a key file"]) == expected.format(*keys)


def test_a_citation_style_is_the_bibliography_and_names_are_folded() -> None:
    assert export_text(PAPERS, "APA", KEYS) == format_citation(PAPERS, "apa", keys=KEYS) + "\n"


@pytest.mark.parametrize(
    ("fmt", "expected"), [("csl-json", "[]\n"), ("hayagriva", "{}\n"), ("bibtex", ""), ("key", "")]
)
def test_an_empty_export_still_parses_as_its_format(fmt: str, expected: str) -> None:
    assert export_text([], fmt, {}) == expected
