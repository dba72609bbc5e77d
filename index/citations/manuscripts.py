"""The citation keys a manuscript cites, in order, with the line of each citation.

`paperscope cited paper.tex` turns these into the bibliography of exactly the cited papers.
Each syntax is read the way its own tool reads it, closely enough that what it treats as
code, comments or addresses is never taken for a citation:

* LaTeX: `\\cite`-family commands (natbib, biblatex, starred, multicite `\\cites`), optional
  `[...]` and `(...)` arguments, several keys; `%` comments (but not `\\%`), verbatim,
  listings and `comment` environments skipped; `latex_inputs` names the files it reads in;
* `.aux`: `\\citation{a,b}` (BibTeX) and `\\abx@aux@cite{0}{a}` (biber), not biblatex's
  `biblatex-control`;
* pandoc Markdown: `@key`, `@{key}`, `[@a, p. 3; -@b]`; fenced and inline code, HTML
  comments, URLs and e-mail addresses are skipped;
* Typst: `@key`, `#cite(<key>)`, `#cite(label("key"))`; raw text and comments are skipped;
* Org: `[cite:@a]`, `[cite/t:@a;@b]`; source and example blocks and comment lines skipped.

Pure functions of the text: no file is read here. Skipped regions are blanked (newlines
kept), so a match's offset still gives its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from index.citations.blanking import blank_all, blank_blocks, blank_spans, line_end, line_of
from index.citations.latex_cites import (
    aux_keys,
    cite_command_takes_keys,
    latex_inputs,
    latex_keys,
    latex_readable,
)

__all__ = [
    "SYNTAXES",
    "CitedKey",
    "cite_command_takes_keys",
    "cited_keys",
    "key_offsets",
    "latex_inputs",
    "readable_text",
    "syntax_for",
]


@dataclass(frozen=True)
class CitedKey:
    """One key as cited: `key` exactly as written, `line` 1-based."""

    key: str
    line: int


_EXTENSIONS = {
    ".tex": "latex",
    ".ltx": "latex",
    ".latex": "latex",
    ".sty": "latex",
    ".cls": "latex",
    ".aux": "aux",
    ".md": "markdown",
    ".markdown": "markdown",
    ".qmd": "markdown",
    ".rmd": "markdown",
    ".pmd": "markdown",
    ".typ": "typst",
    ".org": "org",
}
SYNTAXES: tuple[str, ...] = ("latex", "aux", "markdown", "typst", "org")


def syntax_for(name: str) -> str | None:
    """The syntax a file's extension says it is written in, or None for one we do not read."""
    return _EXTENSIONS.get(PurePath(name).suffix.lower())


# -- pandoc Markdown -----------------------------------------------------------------------

_INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s<>\"')\]]*|\bmailto:[^\s<>)\]]*")
# An e-mail address: the `@` has a word character (or `.`, `+`, `-`) right before it.
_PANDOC_KEY = re.compile(
    r"(?<![\w.+\-@\\])-?@(?:\{([^{}\n]+)\}|([\w][\w:.#$%&\-+?<>~/]*))", re.UNICODE
)
_PANDOC_TRAILING = ":.#$%&-+?<>~/"


def _markdown_fences(text: str) -> str:
    """Blanks fenced code blocks (``` or ~~~, closed by a fence as long; unclosed: to the end)."""
    lines = text.split("\n")
    out = []
    fence: str | None = None
    for line in lines:
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if fence is None:
            match = re.match(r"(`{3,}|~{3,})", stripped) if indent <= 3 else None
            if match and not (match.group(1)[0] == "`" and "`" in stripped[len(match.group(1)) :]):
                fence = match.group(1)
                out.append(" " * len(line))
                continue
            out.append(line)
        else:
            if indent <= 3 and re.fullmatch(
                re.escape(fence[0]) + f"{{{len(fence)},}}[ \t]*", stripped
            ):
                fence = None
            out.append(" " * len(line))
    return "\n".join(out)


def _markdown_readable(text: str) -> str:
    """Blanks fenced and inline code, HTML comments, URLs (and `mailto:` addresses)."""
    text = _markdown_fences(text)
    text = blank_all(text, _HTML_COMMENT, "-->")
    for pattern in (_INLINE_CODE, _URL):
        text = blank_all(text, pattern)
    return text


def _markdown_keys(text: str) -> list[tuple[str, int]]:
    text = _markdown_readable(text)
    found = []
    for match in _PANDOC_KEY.finditer(text):
        if match.group(1) is not None:
            found.append((match.group(1).strip(), match.start(1)))
            continue
        key = match.group(2).rstrip(_PANDOC_TRAILING)
        if key:
            found.append((key, match.start(2)))
    return found


# -- Typst ---------------------------------------------------------------------------------


def _typst_skipped(text: str) -> str:
    """Blanks raw text (backtick runs), `//` line comments and `/* */` block comments."""
    return blank_spans(text, _typst_skipped_at)


_BACKTICKS = re.compile("`+")


def _typst_skipped_at(text: str, i: int) -> int | None:
    n = len(text)
    if text[i] == "`":
        ticks = _BACKTICKS.match(text, i)
        run = ticks.end() - i if ticks else 1
        if run == 2:  # `` is an empty raw text
            return i + 2
        end = text.find("`" * run, i + run)
        return n if end < 0 else end + run
    if text.startswith("//", i) and not (i > 0 and text[i - 1] == ":"):
        return line_end(text, i)  # not the `//` of an address (`https://`)
    if text.startswith("/*", i):  # block comments nest
        depth, j = 0, i
        while j < n:
            if text.startswith("/*", j):
                depth += 1
                j += 2
            elif text.startswith("*/", j):
                depth -= 1
                j += 2
                if depth == 0:
                    break
            else:
                j += 1
        return j
    return None


def _typst_label_char(char: str) -> bool:
    return char in "_-:." or ("a" + char).isidentifier()


_TYPST_REF = re.compile(r"(?<![\w.+\-@\\])@([^\s@]+)")
_TYPST_CITE_LABEL = re.compile(r"#?cite\(\s*<([^<>\s]+)>")
_TYPST_CITE_STRING = re.compile(r'#?cite\(\s*label\(\s*"((?:[^"\\\n]|\\.)*)"\s*\)')


def _typst_readable(text: str) -> str:
    """Blanks raw text, comments and URLs."""
    return blank_all(_typst_skipped(text), _URL)


def _typst_keys(text: str) -> list[tuple[str, int]]:
    text = _typst_readable(text)
    found = []
    for match in _TYPST_REF.finditer(text):
        word = match.group(1)
        length = 0
        while length < len(word) and _typst_label_char(word[length]):
            length += 1
        key = word[:length].rstrip(".:")  # "see @a." cites `a`, as Typst reads it
        if key:
            found.append((key, match.start(1)))
    for match in _TYPST_CITE_LABEL.finditer(text):
        found.append((match.group(1), match.start(1)))
    for match in _TYPST_CITE_STRING.finditer(text):
        key = re.sub(r"\\(.)", r"\1", match.group(1))
        found.append((key, match.start(1)))
    return sorted(found, key=lambda item: item[1])


# -- Org -----------------------------------------------------------------------------------

_ORG_BEGIN = re.compile(
    r"^[ \t]*#\+begin_(src|example|export|comment)\b", re.IGNORECASE | re.MULTILINE
)
_ORG_END = re.compile(
    r"^[ \t]*#\+end_(src|example|export|comment)\b[^\n]*", re.IGNORECASE | re.MULTILINE
)
_ORG_COMMENT = re.compile(r"^[ \t]*#(?:[ \t][^\n]*)?$", re.MULTILINE)
_ORG_CITE = re.compile(r"\[cite(?:/[^:\]\s]*)?:([^\]]*)\]", re.IGNORECASE)
_ORG_KEY = re.compile(r"(?<![\w])@([\w\-.:?!`'/*+|(){}<>&^$#%~]+)", re.UNICODE)


def _org_blocks(text: str) -> str:
    """Blanks each `#+begin_KIND` line through the next `#+end_KIND` line (an unclosed one
    is no block)."""
    return blank_blocks(text, _ORG_BEGIN, _ORG_END, str.lower)


def _org_readable(text: str) -> str:
    """Blanks source, example, export and comment blocks, and comment lines."""
    return blank_all(_org_blocks(text), _ORG_COMMENT)


def _org_keys(text: str) -> list[tuple[str, int]]:
    text = _org_readable(text)
    found = []
    last = text.rfind("]")  # past the last `]` no `[cite:...]` closes: see blank_all
    for cite in _ORG_CITE.finditer(text, 0, last + 1):
        for match in _ORG_KEY.finditer(cite.group(1)):
            found.append((match.group(1), cite.start(1) + match.start(1)))
    return found


_READERS: dict[str, Callable[[str], list[tuple[str, int]]]] = {
    "latex": latex_keys,
    "aux": aux_keys,
    "markdown": _markdown_keys,
    "typst": _typst_keys,
    "org": _org_keys,
}


_READABLE: dict[str, Callable[[str], str]] = {
    "latex": latex_readable,
    "aux": lambda text: text,
    "markdown": _markdown_readable,
    "typst": _typst_readable,
    "org": _org_readable,
}


def _check_syntax(syntax: str) -> None:
    if syntax not in _READERS:
        raise ValueError(f"unknown manuscript syntax {syntax!r}; one of {', '.join(SYNTAXES)}")


def readable_text(text: str, syntax: str) -> str:
    """`text` with what its syntax never reads a citation in (code, comments, addresses,
    raw text) blanked to spaces, newlines kept: same length, same offsets.

    The language server (tui.lsp) asks it whether the cursor is in a citation at all, so
    completion is offered exactly where `cited_keys` would read a key.

    Raises:
        ValueError: for a syntax that is not one of `SYNTAXES`.
    """
    _check_syntax(syntax)
    return _READABLE[syntax](text)


def key_offsets(text: str, syntax: str) -> list[tuple[str, int]]:
    """Every cited key with the offset of its first character in `text`, in order.

    What `cited_keys` reads, with columns: the language server marks unknown keys and
    finds the key under the cursor with it.

    Raises:
        ValueError: for a syntax that is not one of `SYNTAXES`.
    """
    _check_syntax(syntax)
    return sorted(_READERS[syntax](text), key=lambda item: item[1])


def cited_keys(text: str, syntax: str) -> list[CitedKey]:
    """Every citation of a key in `text`, in the order they appear (repeats included).

    Args:
        text: the manuscript's text.
        syntax: one of `SYNTAXES` (see `syntax_for`).

    Raises:
        ValueError: for a syntax that is not one of `SYNTAXES`.
    """
    _check_syntax(syntax)
    line = line_of(text)
    return [CitedKey(key, line(offset)) for key, offset in _READERS[syntax](text)]
