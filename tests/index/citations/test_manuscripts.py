"""Citation keys read from manuscripts: every syntax, and everything that must not be a key."""

from __future__ import annotations

import pytest

from index.citations.manuscripts import CitedKey, cited_keys, syntax_for


def keys(text: str, syntax: str) -> list[str]:
    return [cited.key for cited in cited_keys(text, syntax)]


# -- LaTeX -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\cite{a}", ["a"]),
        (r"\cite{a,b, c}", ["a", "b", "c"]),
        (r"\citep[p.~3]{a}", ["a"]),
        (r"\citet{a}", ["a"]),
        (r"\citet*{a}", ["a"]),
        (r"\autocite{a}", ["a"]),
        (r"\parencite[see][p.~3]{a,b}", ["a", "b"]),
        (r"\textcite{smith:2020-deep_learning}", ["smith:2020-deep_learning"]),
        (r"\nocite{a} \nocite{*}", ["a", "*"]),  # `*`: every entry
        (r"\cite[see {\em all} of][]{a}", ["a"]),
        (r"\Citep{a}", ["a"]),
        (r"\cites[p.~1]{a}[p.~2]{b}", ["a", "b"]),
        ("\\cite{a,\n  b}", ["a", "b"]),
        (r"\citestyle{plain} \bibliographystyle{x}", []),
    ],
)
def test_latex_citation_commands(text: str, expected: list[str]) -> None:
    assert keys(text, "latex") == expected


def test_latex_comments_are_ignored_but_an_escaped_percent_is_text() -> None:
    text = "50\\% of \\cite{a} % \\cite{commented}\n% \\cite{whole-line}\nline break\\\\% \\cite{gone}\n\\cite{b}"
    assert cited_keys(text, "latex") == [CitedKey("a", 1), CitedKey("b", 4)]


def test_aux_files_from_bibtex_and_biber() -> None:
    text = "\\relax\n\\citation{a,b}\n\\abx@aux@cite{0}{c}\n\\abx@aux@cite{d}\n\\citation{*}\n"
    assert cited_keys(text, "aux") == [
        CitedKey("a", 2),
        CitedKey("b", 2),
        CitedKey("c", 3),
        CitedKey("d", 4),
        CitedKey("*", 5),  # \nocite{*}: the caller puts in every entry
    ]


# -- pandoc Markdown -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@a says", ["a"]),
        ("as shown [@a]", ["a"]),
        ("[@a, p. 3; -@b]", ["a", "b"]),
        ("[see @a, pp. 33-35; also @b:c-d_e, chap. 1]", ["a", "b:c-d_e"]),
        ("@a. And @b, then @c:", ["a", "b", "c"]),
        ("@{weird.key.} and @{a b}", ["weird.key.", "a b"]),
        ("(@a)", ["a"]),
    ],
)
def test_pandoc_citations(text: str, expected: list[str]) -> None:
    assert keys(text, "markdown") == expected


def test_markdown_code_addresses_and_urls_are_not_citations() -> None:
    text = """Write to jane.doe@example.org or @a.
```python
@property
def area(self): ...
```
~~~~java
@Override
~~~~
Inline `@decorator` and ``@also `code` `` here; \\@escaped.
<!-- @commented -->
See https://twitter.com/@someone and <https://example.org/@x>, [@b].
    @Override  <- not fenced, so pandoc would cite it too
"""
    assert cited_keys(text, "markdown") == [
        CitedKey("a", 1),
        CitedKey("b", 11),
        CitedKey("Override", 12),
    ]


def test_an_unclosed_fence_runs_to_the_end() -> None:
    assert keys("[@a]\n```\n@property\n", "markdown") == ["a"]


# -- Typst -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see @a.", ["a"]),
        ("@a @b:c-d_e", ["a", "b:c-d_e"]),
        ("@a[p. 3]", ["a"]),
        ("#cite(<a>)", ["a"]),
        ("#cite(<a>, supplement: [p. 3])", ["a"]),
        ('#cite(label("a/b"))', ["a/b"]),
        ('#cite(label("o\\"neil"))', ['o"neil']),
        ("@smith2020:", ["smith2020"]),
    ],
)
def test_typst_references_and_cite_calls(text: str, expected: list[str]) -> None:
    assert keys(text, "typst") == expected


def test_typst_raw_text_comments_and_addresses_are_not_citations() -> None:
    text = """= Intro <intro>
Mail jane@example.org, see @a. // @comment
```python
@property
```
`@inline` /* @block
@comment */ #link("https://example.org/@x")[x] @b
"""
    assert cited_keys(text, "typst") == [CitedKey("a", 2), CitedKey("b", 7)]


# -- Org -------------------------------------------------------------------------------------


def test_org_citations_and_what_org_does_not_export() -> None:
    text = """As [cite:@a] and [cite/t:@b;@c] and [cite/t/f:see @d p. 3; @e:f-g_h].
# [cite:@commented]
#+begin_src python
@property  [cite:@in-src]
#+end_src
Mail jane@example.org [cite:@i]
"""
    assert keys(text, "org") == ["a", "b", "c", "d", "e:f-g_h", "i"]
    assert cited_keys(text, "org")[-1] == CitedKey("i", 6)


def test_the_syntax_comes_from_the_extension() -> None:
    assert [
        syntax_for(name) for name in ("p.tex", "p.aux", "p.md", "p.qmd", "p.typ", "p.org", "p.txt")
    ] == ["latex", "aux", "markdown", "markdown", "typst", "org", None]
    with pytest.raises(ValueError, match="unknown manuscript syntax"):
        cited_keys("", "rst")
