"""The style registry, keys, escaping and the non-CSL formats, on small made-up papers."""

from __future__ import annotations

import json
import re
from typing import Any

import bibtexparser
import pytest
from bibtexparser import middlewares

from index.citations import (
    KEY_STYLES,
    STYLES,
    UnknownStyleError,
    citation_keys,
    format_citation,
    style_label,
)
from index.citations.bibtex import latex_escape, protect_title
from index.library.loaders.ris import load_ris
from index.models import Name, Paper
from tests.index.citations.test_hayagriva import CHAPTER, EDITED

NASTY = Paper(
    id="nasty",
    title="50% Faster C# & F_2 Kernels for {GPUs} at $0 ~ Cost",
    authors=("Ludwig van Beethoven", "Ada Lovelace", "Martin Luther King Jr."),
    year=2022,
    month=3,
    entry_type="article",
    journal="Journal of R&D_Things",
    volume="7",
    number="2",
    pages="10--20",
    doi="10.1000/a_b%c",
    url="https://example.org/x?a=1&b=2#frag",
    abstract="An   abstract\nover lines.",
)
UNDATED = Paper(id="undated", title="Notes on Things", authors=("Ann Bee",))


def test_styles_and_labels() -> None:
    assert STYLES == (
        "bibtex",
        "biblatex",
        "apa",
        "ieee",
        "acm",
        "chicago",
        "mla",
        "ris",
        "csl-json",
        "markdown",
        "plain",
        "key",
        "latex",
        "pandoc",
        "typst",
        "org",
    )
    assert style_label("apa") == "APA 7" and style_label("ieee") == "IEEE"
    assert style_label("mla") == "MLA 9"


def test_unknown_style_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownStyleError) as caught:
        format_citation([UNDATED], "harvard")
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == (
        "unknown citation style 'harvard'; choose one of: " + ", ".join(STYLES)
    )
    with pytest.raises(UnknownStyleError):
        style_label("")


def test_no_papers_give_empty_text() -> None:
    assert format_citation([], "apa") == ""


def test_latex_escaping_and_capital_protection() -> None:
    assert latex_escape("R&D 50% #1 a_b $x$ {y} ~ ^ \\") == (
        r"R\&D 50\% \#1 a\_b \$x\$ \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )
    assert protect_title("GeoDrive: 3D Long-Context LLMs (MoE) in Multi-task") == (
        "{GeoDrive}: {3D} Long-Context {LLMs} ({MoE}) in Multi-task"
    )


def test_nasty_entry_parses_back_to_the_same_text() -> None:
    text = format_citation([NASTY], "bibtex")
    assert "@article{beethoven2022faster," in text
    assert re.search(r"journal +\= \{Journal of R\\&D\\_Things\}", text)
    assert re.search(r"month +\= \{3\}", text)
    library = bibtexparser.parse_string(
        text,
        append_middleware=[
            middlewares.LatexDecodingMiddleware(),
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
        ],
    )
    (entry,) = library.entries
    fields = entry.fields_dict
    assert fields["title"].value == NASTY.title
    assert [(n.von, n.last, n.jr) for n in fields["author"].value] == [
        (["van"], ["Beethoven"], []),
        ([], ["Lovelace"], []),
        ([], ["King"], ["Jr."]),
    ]
    raw = bibtexparser.parse_string(text).entries[0].fields_dict
    assert raw["doi"].value == "10.1000/a_b%c"  # verbatim fields stay as typed
    assert raw["url"].value == NASTY.url


def test_biblatex_uses_its_own_field_names() -> None:
    text = format_citation([NASTY], "biblatex")
    assert "journaltitle = {Journal of R\\&D\\_Things}" in text
    assert "date         = {2022-03}" in text
    assert "year " not in text and "journal " not in text
    preprint = Paper(
        id="p", title="A Preprint", authors=("Ann Bee",), year=2024, arxiv="2401.00001"
    )
    entry = format_citation([preprint], "biblatex")
    assert entry.startswith("@online{bee2024preprint,")
    assert "eprinttype = {arxiv}" in entry and "eprint     = {2401.00001}" in entry


def test_keys_are_stable_and_disambiguated() -> None:
    a = Paper(id="a", title="The Pipe", short_name="Pipe", authors=("Chenyu Jiang",), year=2024)
    b = Paper(id="b", title="Pipe Again", short_name="Pipe", authors=("Chenyu Jiang",), year=2024)
    c = Paper(id="c", title="Another", authors=("Jörg Kübler",), year=None)
    keys = citation_keys([b, c, a])
    assert keys == {"a": "jiang2024pipea", "b": "jiang2024pipeb", "c": "kublerndanother"}
    assert citation_keys([a, b, c]) == keys  # the input order does not matter
    sourced = Paper(id="d", title="X", citation_key="Smith:2020x")
    assert citation_keys([sourced]) == {"d": "Smith:2020x"}


def test_keys_given_by_the_caller_are_used() -> None:
    text = format_citation([UNDATED], "bibtex", keys={"undated": "bee-notes"})
    assert text.startswith("@misc{bee-notes,")


@pytest.mark.parametrize("style", ["apa", "chicago"])
def test_missing_year_gives_nd_where_the_style_has_the_term(style: str) -> None:
    assert "n.d." in format_citation([UNDATED], style)


@pytest.mark.parametrize("style", ["ieee", "acm", "mla"])
def test_missing_year_is_left_out_where_the_style_has_no_term(style: str) -> None:
    """IEEE, ACM and MLA print no date at all, as pandoc and citeproc-js do: none invented."""
    text = format_citation([UNDATED], style)
    assert "Notes on Things" in text and "n.d." not in text


@pytest.mark.parametrize("style", ["apa", "ieee", "acm", "chicago", "mla"])
def test_incomplete_authors_say_et_al_in_every_formatted_style(style: str) -> None:
    """A cut list ends as BibTeX's "and others" does in pandoc: "et al." (ACM: "and others")."""
    cut = Paper(
        id="cut", title="Cut", authors=("Ann Bee", "Cy Dee"), authors_complete=False, year=2020
    )
    whole = Paper(id="whole", title="Whole", authors=("Ann Bee", "Cy Dee"), year=2020)
    marker = "and others" if style == "acm" else "et al."
    assert marker in format_citation([cut], style)
    assert marker not in format_citation([whole], style)


@pytest.mark.parametrize(
    "style",
    ["apa", "ieee", "acm", "chicago", "mla", "markdown", "plain", "ris", "csl-json", "bibtex"],
)
def test_inferred_title_is_marked_and_never_empty(style: str) -> None:
    paper = Paper(id="x", title="Guessed title of a thing", title_inferred=True)
    text = format_citation([paper], style).replace("\\[", "[").replace("\\]", "]")
    assert "[guessed title of a thing]" in text.lower()
    # A title moved to the author position is not repeated further on.
    assert text.lower().count("guessed title of a thing") == 1


def test_ris_record_shape() -> None:
    lines = format_citation([NASTY], "ris").splitlines()
    assert lines[0] == "TY  - JOUR" and lines[-1] == "ER  - "
    assert "AU  - van Beethoven, Ludwig" in lines and "AU  - King, Martin Luther, Jr." in lines
    assert "SP  - 10" in lines and "EP  - 20" in lines and "DA  - 2022/03" in lines
    assert "AB  - An abstract over lines." in lines


def test_csl_json_is_an_array_of_items() -> None:
    items = json.loads(format_citation([NASTY, UNDATED], "csl-json"))
    assert [item["type"] for item in items] == ["article-journal", "document"]
    assert items[0]["author"][0] == {
        "family": "Beethoven",
        "given": "Ludwig",
        "non-dropping-particle": "van",
    }
    assert items[0]["issued"] == {"date-parts": [[2022, 3]]}
    assert items[0]["page"] == "10-20" and items[0]["issue"] == "2"
    assert "issued" not in items[1]


@pytest.mark.parametrize(
    ("entry_type", "field"),
    [
        ("article", "issue"),
        ("techreport", "number"),
        ("misc", "number"),  # a database record (APA 7, example 84): "(TC022704)"
        ("book", "collection-number"),
        ("incollection", "collection-number"),
        ("inproceedings", "collection-number"),
    ],
)
def test_bibtex_number_is_what_the_kind_of_work_makes_it(entry_type: str, field: str) -> None:
    # A book's number is its number in a series (biblatex-examples.bib, averroes/bland):
    # as an issue, APA printed "(K. P. Bland, Ed.; Issue 7)".
    paper = Paper(
        id="n", title="Epistle", authors=("Averroes",), year=1982, entry_type=entry_type, number="7"
    )
    (item,) = json.loads(format_citation([paper], "csl-json"))
    assert item[field] == "7"
    assert [name for name in ("issue", "number", "collection-number") if name in item] == [field]


def test_a_series_number_is_no_issue_and_a_report_number_is_its_own() -> None:
    book = Paper(
        id="b",
        title="The Epistle",
        authors=("Averroes",),
        editors=(Name(family="Bland", given="Kalman P."),),
        year=1982,
        entry_type="book",
        number="7",
        publisher="Jewish Theological Seminary of America",
    )
    assert format_citation([book], "apa") == (
        "Averroes. (1982). The Epistle (K. P. Bland, Ed.). Jewish Theological Seminary of America."
    )
    report = Paper(
        id="r",
        title="A Study",
        authors=("Ann Bee",),
        year=2001,
        entry_type="techreport",
        number="TR-42",
        publisher="MIT",
    )
    assert format_citation([report], "apa") == "Bee, A. (2001). A Study (TR-42). MIT."
    assert format_citation([report], "ieee") == "A. Bee, “A Study,” MIT, TR-42, 2001."


def test_markdown_and_plain() -> None:
    paper = Paper(
        id="m",
        title="Bracket [v2] Paper",
        authors=("Ann Bee", "Cy Dee", "Ed Fay", "Gus Hu"),
        year=2021,
        venue="MLSys 2021",
        doi="10.1/x",
    )
    assert format_citation([paper], "markdown") == (
        "[Bracket \\[v2\\] Paper](https://doi.org/10.1/x) - Ann Bee, Cy Dee, Ed Fay et al., "
        "MLSys 2021"
    )
    assert format_citation([UNDATED], "markdown") == "Notes on Things - Ann Bee, n.d."
    assert format_citation([paper], "plain") == (
        "Ann Bee, Cy Dee, Ed Fay et al. Bracket [v2] Paper. MLSys 2021. https://doi.org/10.1/x"
    )
    conference = Paper(
        id="e", title="Pipes", authors=("Ann Bee",), year=2024, venue="EuroSys '24, pp. 1-9"
    )
    assert (
        format_citation([conference], "markdown") == "Pipes - Ann Bee, EuroSys '24, pp. 1-9, 2024"
    )
    assert format_citation([conference], "plain") == "Ann Bee. Pipes. EuroSys '24, pp. 1-9, 2024."
    assert format_citation([UNDATED], "plain").endswith(" n.d.")


def test_moving_the_cursor_back_does_not_render_a_citation_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The preview follows every cursor move: a paper seen before comes from memory.

    (How fast a first rendering is, is measured by the benchmarks, not asserted here.)
    """
    import index.citations.engine as engine
    from index.citations.engine import wire

    papers = [
        Paper(
            id=f"p{i}",
            title=f"Paper number {i}",
            authors=("Ann Bee",),
            year=2000 + i,
            entry_type="inproceedings",
            booktitle="Proc. of Things",
            pages="1-9",
        )
        for i in range(20)
    ]
    rendered: list[str] = []
    real = wire.request

    def counting(references: Any, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        rendered.extend(reference["title"] for reference in references)
        return real(references, *args, **kwargs)

    monkeypatch.setattr(wire, "request", counting)
    engine._cache.clear()
    first = [format_citation([paper], "chicago") for paper in papers]
    again = [format_citation([paper], "chicago") for paper in papers]
    assert again == first
    assert all(str(paper.year) in text for paper, text in zip(papers, first, strict=True))
    assert sorted(rendered) == sorted(paper.title for paper in papers)  # once each


@pytest.mark.parametrize("style", STYLES)
def test_terminal_escapes_in_untrusted_text_never_reach_the_output(style: str) -> None:
    evil = Paper(
        id="evil",
        title="Red\x1b[31m Title\x1b]52;c;aGk=\x07",
        authors=("Ann\x1b[2J Bee",),
        year=2020,
        abstract="a\x9bb",
    )
    text = format_citation([evil], style)
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    if style in KEY_STYLES:  # keys only: the generated key is made of the same words
        assert "bee2020red" in text
    else:
        assert "Red" in text and "Bee" in text


def test_ris_names_a_chapters_editors_as_a2_and_reads_them_back() -> None:
    # They were left out; Zotero writes a chapter's editors as A2, and our reader reads A2.
    text = format_citation([CHAPTER, EDITED], "ris")
    assert "A2  - Squire, L\nA2  - Albright, T\n" in text
    papers, warnings = load_ris(text, "refs.ris")
    assert warnings == []
    assert [paper.editors for paper in papers] == [CHAPTER.editors, EDITED.editors]
    assert "A2" not in format_citation([NASTY], "ris")  # a journal article has no editors
