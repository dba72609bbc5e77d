"""Key formats: what a writer pastes into LaTeX, pandoc, Typst and Org, for one key and several."""

from __future__ import annotations

import pytest

from index.citations import KEY_STYLES, KeyFormatError, citation_keys, format_citation, style_label
from index.citations.keyformats import format_keys, is_key_style, split_key_style
from index.models import Paper

ODD = ["smith:2020-deep_learning", "doe_2021", "lee-2022"]


@pytest.mark.parametrize(
    ("style", "one", "several"),
    [
        ("key", "a", "a\nb:c-d_e"),
        ("latex", r"\cite{a}", r"\cite{a,b:c-d_e}"),
        ("latex:citep", r"\citep{a}", r"\citep{a,b:c-d_e}"),
        ("latex:autocite", r"\autocite{a}", r"\autocite{a,b:c-d_e}"),
        ("latex:parencite*", r"\parencite*{a}", r"\parencite*{a,b:c-d_e}"),
        ("pandoc", "[@a]", "[@a; @b:c-d_e]"),
        ("typst", "@a", "@a @b:c-d_e"),
        ("org", "[cite:@a]", "[cite:@a;@b:c-d_e]"),
    ],
)
def test_each_key_format_for_one_key_and_several(style: str, one: str, several: str) -> None:
    assert format_keys(["a"], style) == one
    assert format_keys(["a", "b:c-d_e"], style) == several


def test_keys_with_colons_dashes_and_underscores_stay_short_where_the_syntax_allows() -> None:
    assert format_keys(ODD, "pandoc") == "[@smith:2020-deep_learning; @doe_2021; @lee-2022]"
    assert format_keys(ODD, "typst") == "@smith:2020-deep_learning @doe_2021 @lee-2022"
    assert format_keys(ODD, "org") == "[cite:@smith:2020-deep_learning;@doe_2021;@lee-2022]"


@pytest.mark.parametrize(
    ("key", "typst"),
    [
        ("smith2020.", '#cite(label("smith2020."))'),  # "@smith2020." would cite smith2020
        ("smith2020:", '#cite(label("smith2020:"))'),
        ("a/b", '#cite(label("a/b"))'),  # "/" is not a label character
        ('o"neil', '#cite(label("o\\"neil"))'),
        ("müller2020", "@müller2020"),  # Unicode letters are XID_Continue
        ("2020smith", "@2020smith"),
    ],
)
def test_typst_falls_back_to_a_label_string_for_keys_its_reference_syntax_cannot_hold(
    key: str, typst: str
) -> None:
    assert format_keys([key], "typst") == typst


def test_pandoc_braces_keys_with_trailing_punctuation_or_other_characters() -> None:
    assert format_keys(["smith2020."], "pandoc") == "[@{smith2020.}]"
    assert format_keys(["a(b)"], "pandoc") == "[@{a(b)}]"


@pytest.mark.parametrize(
    ("style", "key"),
    [("org", "a;b"), ("org", "a]b"), ("latex", "a,b"), ("latex", "a%b"), ("pandoc", "a{b")],
)
def test_a_key_a_syntax_cannot_hold_is_an_error_not_a_wrong_citation(style: str, key: str) -> None:
    with pytest.raises(KeyFormatError, match="cannot be written"):
        format_keys([key], style)


def test_a_latex_command_must_be_a_command_name() -> None:
    with pytest.raises(KeyFormatError, match="not a LaTeX command name"):
        format_keys(["a"], "latex:ci te")
    assert split_key_style("latex:citep") == ("latex", "citep")
    assert split_key_style("pandoc") == ("pandoc", None)
    assert is_key_style("latex:textcite") and not is_key_style("apa")


def test_key_formats_are_styles_using_the_users_own_key_else_the_generated_one() -> None:
    own = Paper(
        id="p1",
        title="Deep Things",
        authors=("Ann Bee",),
        year=2020,
        citation_key="Bee:2020_deep-things",
    )
    generated = Paper(id="p2", title="Shallow Things", authors=("Cy Dee",), year=2021)
    keys = citation_keys([own, generated])
    assert keys == {"p1": "Bee:2020_deep-things", "p2": "dee2021shallow"}
    assert format_citation([own, generated], "pandoc") == "[@Bee:2020_deep-things; @dee2021shallow]"
    assert format_citation([own], "latex:citet") == r"\citet{Bee:2020_deep-things}"
    assert set(KEY_STYLES) == {"key", "latex", "pandoc", "typst", "org"}
    assert style_label("latex:citep") == r"LaTeX \citep" and style_label("typst") == "Typst @key"


def test_a_source_key_is_kept_exactly_as_written_unless_a_bib_file_could_not_hold_it() -> None:
    kept = Paper(id="p", title="T", citation_key="2020Müller/x")
    dropped = Paper(
        id="q", title="Things", authors=("Ann Bee",), year=2020, citation_key="has space"
    )
    assert citation_keys([kept]) == {"p": "2020Müller/x"}
    assert citation_keys([dropped]) == {"q": "bee2020things"}


def test_generated_keys_are_stable_across_runs_and_input_order() -> None:
    papers = [
        Paper(id=f"id{i}", title="Same Title", authors=("Ann Bee",), year=2020) for i in range(3)
    ]
    assert citation_keys(papers) == citation_keys(list(reversed(papers)))
    assert sorted(citation_keys(papers).values()) == [
        "bee2020samea",
        "bee2020sameb",
        "bee2020samec",
    ]
