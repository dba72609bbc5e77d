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

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

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


_NOT_NEWLINE = re.compile(r"[^\n]")


def _blank(span: str) -> str:
    """`span` as spaces, its newlines kept (so lines still count)."""
    return _NOT_NEWLINE.sub(" ", span)


def _blank_all(text: str, pattern: re.Pattern[str], closer: str | None = None) -> str:
    """`text` with every match of `pattern` blanked.

    `closer`: the text every match ends with (`-->`), for a pattern that scans ahead for it
    (`<!--.*?-->`). Nothing past its last occurrence can match, so the search stops there:
    otherwise each of thousands of unclosed openers scans to the end of the text, which is
    quadratic.
    """
    if closer is not None:
        last = text.rfind(closer)
        if last < 0:
            return text
        end = last + len(closer)
        return pattern.sub(lambda m: _blank(m.group()), text[:end]) + text[end:]
    return pattern.sub(lambda m: _blank(m.group()), text)


def _blank_spans(text: str, span_at: Callable[[str, int], int | None]) -> str:
    """`text` with the spans a scanner finds blanked, for what one regex cannot match.

    `span_at(text, i)` is the end of a skipped span (a comment, raw text) starting at `i`,
    or None. A backslash escapes the next character, which then starts no span (`\\%`).
    """
    out: list[str] = []
    i, copied, n = 0, 0, len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n:
            i += 2
            continue
        end = span_at(text, i)
        if end is None:
            i += 1
            continue
        out += (text[copied:i], _blank(text[i:end]))
        i = copied = end
    out.append(text[copied:])
    return "".join(out)


def _line_of(text: str) -> Callable[[int], int]:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    return line


# -- LaTeX ---------------------------------------------------------------------------------


def _latex_comments(text: str) -> str:
    """Blanks `%` to the end of the line, unless the `%` is escaped (`\\%`; `\\\\%` is not)."""
    return _blank_spans(text, _latex_comment_at)


# Environments whose body LaTeX prints as written (or drops): a `\cite` there is no citation.
_VERBATIM_BEGIN = re.compile(
    r"\\begin\{(verbatim\*?|Verbatim\*?|BVerbatim|LVerbatim|lstlisting|minted|comment)\}"
)
_VERBATIM_END = re.compile(
    r"\\end\{(verbatim\*?|Verbatim\*?|BVerbatim|LVerbatim|lstlisting|minted|comment)\}"
)


def _latex_readable(text: str) -> str:
    """Blanks verbatim-like environments (a `\\cite` shown in a listing, text left out with
    the comment package's `comment`), then `%` comments. Verbatim first: a `%` inside one
    is text, and must not hide its `\\end`. An environment never closed is no block."""
    ends: dict[str, list[tuple[int, int]]] = {}
    for end in _VERBATIM_END.finditer(text):
        ends.setdefault(end.group(1), []).append((end.start(), end.end()))
    out: list[str] = []
    copied = 0
    for begin in _VERBATIM_BEGIN.finditer(text):
        if begin.start() < copied:
            continue  # inside the environment just blanked
        candidates = ends.get(begin.group(1), [])
        k = bisect.bisect_left(candidates, (begin.end(), -1))
        if k == len(candidates):
            continue
        out += (text[copied : begin.start()], _blank(text[begin.start() : candidates[k][1]]))
        copied = candidates[k][1]
    out.append(text[copied:])
    return _latex_comments("".join(out))


# Commands that read another file into the document where they stand.
_LATEX_INPUT = re.compile(
    r"\\(input|include|subfile|import|subimport|includefrom|subincludefrom)\b\s*"
    r"(?:\{([^{}]*)\}\s*)?\{([^{}]+)\}"
)


def latex_inputs(text: str) -> list[tuple[str, int]]:
    """The files a LaTeX document reads in (`\\input`, `\\include`, `\\subfile`, the import
    package's `\\import{dir}{file}`), as written and joined to their folder, with the
    offset of the command; commented-out and verbatim ones are not read."""
    found = []
    for match in _LATEX_INPUT.finditer(_latex_readable(text)):
        folder, name = (match.group(2) or "").strip(), match.group(3).strip()
        if match.group(1) in ("input", "include", "subfile") and match.group(2) is not None:
            continue  # `\input{a}{b}` is no form LaTeX knows: not a file
        found.append((f"{folder.rstrip('/')}/{name}" if folder else name, match.start()))
    return found


def _latex_comment_at(text: str, i: int) -> int | None:
    return _line_end(text, i) if text[i] == "%" else None


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


_CITE_COMMAND = re.compile(r"\\([A-Za-z]*[cC]ite[A-Za-z]*|nocite)(\*?)")
# Commands with "cite" in their name that take no keys.
_NOT_CITATIONS = frozenset(
    {
        "citestyle",
        "citetext",
        "citeindextrue",
        "citeindexfalse",
        "citeform",
        "citename",
        "citenumfont",
    }
)
_GROUP_TOKEN = re.compile(r"\\.|[{}\[\]()]", re.DOTALL)
_PAIRS = {"]": "[", ")": "("}


def _group_ends(text: str) -> dict[int, int]:
    """The end (exclusive) of every balanced `{...}`, `[...]` and `(...)` group, by its start.

    One pass over the text, so a draft with thousands of unclosed `\\cite{` costs no more
    than a closed one: scanning forward from each command for its closer made `cited`
    quadratic (issue 46: 20,000 of them took 401 s). Braces nest as TeX nests them; square
    brackets and parentheses pair only at the same brace depth (`[see {\\em all]} of]`),
    and one not closed before its enclosing `}` is not closed at all. A backslash escapes
    the next character.
    """
    ends: dict[int, int] = {}
    # One frame per open brace: where it opened, its open `[` and its open `(`.
    frames: list[tuple[int, dict[str, list[int]]]] = [(-1, {"[": [], "(": []})]
    for token in _GROUP_TOKEN.finditer(text):
        char, at = token.group(), token.start()
        if char == "{":
            frames.append((at, {"[": [], "(": []}))
        elif char == "}":
            if len(frames) > 1:  # a stray `}` at the top closes nothing
                ends[frames.pop()[0]] = at + 1
        elif char in "[(":
            frames[-1][1][char].append(at)
        elif char in _PAIRS:
            open_ = frames[-1][1][_PAIRS[char]]
            if open_:
                ends[open_.pop()] = at + 1
    return ends


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _latex_keys(text: str) -> list[tuple[str, int]]:
    text = _latex_readable(text)
    ends = _group_ends(text)
    found: list[tuple[str, int]] = []
    for match in _CITE_COMMAND.finditer(text):
        name = match.group(1)
        if name in _NOT_CITATIONS:
            continue
        multi = name.endswith("s") and name not in ("citeurls",)  # \cites, \parencites
        i = match.end()
        while True:
            j = _skip_space(text, i)
            while j < len(text) and text[j] in "[(" and j in ends:
                j = _skip_space(text, ends[j])
            if j >= len(text) or text[j] != "{" or j not in ends:
                break
            end = ends[j]
            offset = j + 1
            for part in text[j + 1 : end - 1].split(","):
                key = part.strip()
                # `\nocite{*}` is every entry of the bibliography: the key `*` says so.
                if key and (key != "*" or name == "nocite"):
                    found.append((key, offset + part.find(key)))
                offset += len(part) + 1
            i = end
            if not multi:
                break
    return found


# -- .aux ----------------------------------------------------------------------------------

_AUX = re.compile(r"\\citation\{([^}]*)\}|\\abx@aux@cite(?:\{\d+\})?\{([^}]*)\}")


def _aux_keys(text: str) -> list[tuple[str, int]]:
    found = []
    for match in _AUX.finditer(text):
        group = 1 if match.group(1) is not None else 2
        offset = match.start(group)
        for part in match.group(group).split(","):
            key = part.strip()
            # `*`: `\nocite{*}` (BibTeX's `\citation{*}`). biblatex's BibTeX backend writes
            # `\citation{biblatex-control}` for its own control entry: no work of the user's.
            if key and key != "biblatex-control":
                found.append((key, offset + part.find(key)))
            offset += len(part) + 1
    return found


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
    text = _blank_all(text, _HTML_COMMENT, "-->")
    for pattern in (_INLINE_CODE, _URL):
        text = _blank_all(text, pattern)
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
    return _blank_spans(text, _typst_skipped_at)


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
        return _line_end(text, i)  # not the `//` of an address (`https://`)
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
    return _blank_all(_typst_skipped(text), _URL)


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
    is no block). The ends are listed once and each begin finds its own by bisection, so
    thousands of unclosed begins do not each search the rest of the file."""
    ends: dict[str, list[tuple[int, int]]] = {}
    for end in _ORG_END.finditer(text):
        ends.setdefault(end.group(1).lower(), []).append((end.start(), end.end()))
    out: list[str] = []
    copied = 0
    for begin in _ORG_BEGIN.finditer(text):
        if begin.start() < copied:
            continue  # inside the block just blanked
        candidates = ends.get(begin.group(1).lower(), [])
        k = bisect.bisect_left(candidates, (begin.end(), -1))
        if k == len(candidates):
            continue
        out += (text[copied : begin.start()], _blank(text[begin.start() : candidates[k][1]]))
        copied = candidates[k][1]
    out.append(text[copied:])
    return "".join(out)


def _org_readable(text: str) -> str:
    """Blanks source, example, export and comment blocks, and comment lines."""
    return _blank_all(_org_blocks(text), _ORG_COMMENT)


def _org_keys(text: str) -> list[tuple[str, int]]:
    text = _org_readable(text)
    found = []
    last = text.rfind("]")  # past the last `]` no `[cite:...]` closes: see _blank_all
    for cite in _ORG_CITE.finditer(text, 0, last + 1):
        for match in _ORG_KEY.finditer(cite.group(1)):
            found.append((match.group(1), cite.start(1) + match.start(1)))
    return found


_READERS: dict[str, Callable[[str], list[tuple[str, int]]]] = {
    "latex": _latex_keys,
    "aux": _aux_keys,
    "markdown": _markdown_keys,
    "typst": _typst_keys,
    "org": _org_keys,
}


_READABLE: dict[str, Callable[[str], str]] = {
    "latex": _latex_readable,
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


def cite_command_takes_keys(name: str) -> bool:
    """Whether `\\name` is a citation command whose braces hold keys (`citep`, `autocite`,
    `nocite`), as `cited_keys` reads LaTeX; `citestyle` and its kind are not."""
    match = _CITE_COMMAND.fullmatch("\\" + name)
    return match is not None and not match.group(2) and name not in _NOT_CITATIONS


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
    line = _line_of(text)
    return [CitedKey(key, line(offset)) for key, offset in _READERS[syntax](text)]
