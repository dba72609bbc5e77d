"""The plain-text loader and the text normalisation it relies on."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.library.loaders.infer import infer_short_name, infer_title
from index.library.loaders.text import load_text, parse_author_line, split_paragraphs
from index.library.normalize import clean_text, latex_to_unicode

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"


@pytest.fixture(scope="module")
def messy() -> tuple[list, list]:
    return load_text((FIXTURES / "messy.txt").read_text("utf-8"), "messy.txt")


def test_header_name_is_not_a_paper_and_author_lines_attach(messy) -> None:
    papers, _ = messy
    assert len(papers) == 3
    first, second, third = papers
    assert first.authors == ("Grace Hopper", "Jörg Müller", "Anna-Lena O'Brien")
    assert first.authors_complete is False  # "et al." cut the list
    assert second.authors == ("Alan Turing",) and second.authors_complete
    assert third.authors == ()  # "Short heading" is not a person


def test_sources_record_line_and_paragraph(messy) -> None:
    papers, warnings = messy
    assert [(s.line, s.paragraph) for p in papers for s in p.sources] == [(5, 2), (11, 4), (16, 6)]
    assert [str(w) for w in warnings] == [
        "messy.txt:14: paragraph too short to be an abstract; skipped"
    ]


def test_latex_math_becomes_readable(messy) -> None:
    abstract = messy[0][0].abstract
    assert "1.45× speedup" in abstract
    assert "by 49% compared" in abstract
    assert "SAMᴹᵉᵈ baselines" in abstract
    assert "$" not in abstract and "\\" not in abstract
    assert "  " not in abstract and "\n" not in abstract


def test_untrusted_text_is_cleaned_but_markup_stays_literal(messy) -> None:
    abstract = messy[0][1].abstract
    assert "\x1b" not in abstract and "\x07" not in abstract and "[31m" not in abstract
    assert "discuss nine objections [bold]at length[/bold]." in abstract


def test_plain_tilde_and_percent_survive() -> None:
    assert latex_to_unicode("at 1.00x~1.46x the cost, 50% less") == (
        "at 1.00x~1.46x the cost, 50% less"
    )
    assert latex_to_unicode(r"M{\"u}ller and St\"{a}rk \& co") == "Müller and Stärk & co"


def test_clean_text_keeps_unicode_and_collapses_space() -> None:
    assert clean_text("  Capotă\t×  ®\r\n™ \u200b ok ") == "Capotă × ® ™ ok"


def test_inferred_title_uses_the_system_name(messy) -> None:
    paper = messy[0][0]
    assert paper.title_inferred and paper.short_name == "WarpDrive"
    assert paper.title.startswith("WarpDrive: scheduler for training large models")
    assert messy[0][1].title.startswith("Computing machinery can imitate a human")
    assert messy[0][1].title.endswith("…")


def test_field_acronyms_are_not_system_names() -> None:
    text = "We present GPU kernels for LLM serving on TPU pods with much better use of memory."
    assert infer_short_name(text) is None
    assert infer_title(text) == "We present GPU kernels for LLM serving on TPU pods with much…"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Genghan Zhang, Shaowei Zhu, Anjiang Wei et al. · stanford",
            (("Genghan Zhang", "Shaowei Zhu", "Anjiang Wei"), False, "stanford"),
        ),
        (
            "Michael J. Anderson, Mihai Capotă",
            (("Michael J. Anderson", "Mihai Capotă"), True, None),
        ),
        ("Piet van der Berg", (("Piet van der Berg",), True, None)),
        ("Results, Methods", None),
        ("We propose a thing.", None),
        ("Deep learning is great, and so on", None),
    ],
)
def test_author_line_detection(line: str, expected) -> None:
    assert parse_author_line(line) == expected


def test_paragraphs_split_on_whitespace_only_lines() -> None:
    paragraphs = split_paragraphs("one\ntwo\n \t\nthree\n\n\n\nfour")
    assert [(p.text, p.index, p.line) for p in paragraphs] == [
        ("one\ntwo", 0, 1),
        ("three", 1, 4),
        ("four", 2, 8),
    ]


def test_invisible_and_disguising_characters_are_removed() -> None:
    text = "safe\u202etxt.exe\u200b name\x00 \x1b]8;;http://x\x07link\x1b]8;;\x07 \ufeffend\u00ad"
    assert clean_text(text) == "safetxt.exe name link end"
