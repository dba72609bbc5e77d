"""Where a citation is being typed, what is typed in it, and what a key is written as."""

from __future__ import annotations

import pytest

from index.citations import KeyFormatError
from tui.lsp.cursor import citation_at, key_at, key_text, offset_of


def _spot(syntax: str, text: str) -> tuple[str, str, str] | None:
    """(query, replaced text, form) at the `|` in `text`."""
    before, after = text.split("|")
    spot = citation_at(before + after, len(before), syntax)
    if spot is None:
        return None
    return spot.query, (before + after)[spot.start : spot.end], spot.form


@pytest.mark.parametrize(
    ("syntax", "text", "expected"),
    [
        ("latex", r"see \citep[p.~3]{a, olsh|", ("olsh", "olsh", "latex")),
        ("latex", r"\textcite{olshausen 1996|}", ("olshausen 1996", "olshausen 1996", "latex")),
        ("latex", r"\cite{|", ("", "", "latex")),
        ("latex", r"\autocite*[see][]{a,|b}", ("", "", "latex")),
        ("latex", r"\cites[a]{x}[b]{y|", ("y", "y", "latex")),
        ("latex", r"\nocite{k|", ("k", "k", "latex")),
        ("markdown", "As [@a, p. 3; @olshausen 19|", ("olshausen 19", "olshausen 19", "pandoc")),
        ("markdown", "As @olsh|", ("olsh", "olsh", "pandoc")),
        ("markdown", "As [-@olsh|", ("olsh", "olsh", "pandoc")),
        ("markdown", "As @{olsh|", ("olsh", "olsh", "pandoc-braced")),
        ("typst", "see @olsh|", ("olsh", "olsh", "typst")),
        ("typst", "see #cite(<olsh|", ("olsh", "olsh", "typst-label")),
        ("org", "see [cite:@olsh|", ("olsh", "olsh", "org")),
        ("org", "see [cite/t:@a;@field 96|", ("field 96", "field 96", "org")),
    ],
)
def test_a_citation_being_typed(syntax: str, text: str, expected: tuple[str, str, str]) -> None:
    assert _spot(syntax, text) == expected


@pytest.mark.parametrize(
    ("syntax", "text"),
    [
        ("latex", r"% \cite{x|"),
        ("latex", r"\citestyle{x|"),
        ("latex", r"\section{x|"),
        ("latex", r"\cite{a} and x|"),
        ("markdown", "mail me at bob@exa|"),
        ("markdown", "```\n@code|\n```"),
        ("markdown", "`@inline|` and"),
        ("markdown", "As [@a] and|"),
        ("markdown", "<!-- @x| -->"),
        ("markdown", "see https://example.org/@user|"),
        ("markdown", "As @olsh and|"),
        ("typst", "// @x|"),
        ("typst", "`@raw|`"),
        ("org", "# [cite:@x|"),
        ("org", "[cite:@a] @x|"),
        ("org", "#+begin_example\n[cite:@x|\n#+end_example"),
        ("aux", r"\citation{a|"),
    ],
)
def test_nothing_outside_citations(syntax: str, text: str) -> None:
    assert _spot(syntax, text) is None


def test_each_syntax_gets_the_key_written_as_it_needs() -> None:
    typed = "x @olsh"
    spot = citation_at(typed, len(typed), "markdown")
    assert spot is not None
    assert key_text("olshausen1996", spot) == ("olshausen1996", 3)
    # pandoc's short form cannot end in `.`: the braced form replaces the `@` too.
    assert key_text("smith.", spot) == ("@{smith.}", 2)
    typst = citation_at(typed, len(typed), "typst")
    assert typst is not None
    assert key_text("a.b.", typst) == ('#cite(label("a.b."))', 2)
    latex = citation_at(r"\cite{x", 7, "latex")
    assert latex is not None
    with pytest.raises(KeyFormatError):
        key_text("a,b", latex)  # a LaTeX key cannot hold a comma: never offered


def test_the_key_under_the_cursor() -> None:
    text = "See \\citep[p.~3]{alpha, beta} and %\\cite{gamma}\n"
    assert key_at(text, text.index("alpha") + 2, "latex").key == "alpha"  # type: ignore[union-attr]
    spot = key_at(text, text.index("beta") + 4, "latex")  # just after the key
    assert spot is not None and (spot.key, text[spot.start : spot.end]) == ("beta", "beta")
    assert key_at(text, text.index("gamma"), "latex") is None  # a comment
    assert key_at(text, 1, "latex") is None


def test_positions_count_characters_on_their_line() -> None:
    text = "ab\ncdé\n"
    assert offset_of(text, 1, 2) == 5
    assert offset_of(text, 1, 99) == 6  # past the end of the line: its end
    assert offset_of(text, 9, 0) == len(text)
