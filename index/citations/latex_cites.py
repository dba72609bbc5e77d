"""LaTeX and `.aux` citations: the keys a document cites and the files it reads in.

`\\cite`-family commands (natbib, biblatex, starred, multicite `\\cites`) with optional
`[...]` and `(...)` arguments and several keys; `%` comments (but not `\\%`), verbatim,
listings and `comment` environments skipped; `\\nocite{*}` as the key `*`. `.aux` files:
`\\citation{a,b}` (BibTeX) and `\\abx@aux@cite{0}{a}` (biber), not biblatex's own
`biblatex-control`. Part of `index.citations.manuscripts`, which reads every syntax.
"""

from __future__ import annotations

import re

from index.citations.blanking import blank_blocks, blank_spans, line_end

__all__ = ["aux_keys", "cite_command_takes_keys", "latex_inputs", "latex_keys", "latex_readable"]


def _latex_comments(text: str) -> str:
    """Blanks `%` to the end of the line, unless the `%` is escaped (`\\%`; `\\\\%` is not)."""
    return blank_spans(text, _latex_comment_at)


# Environments whose body LaTeX prints as written (or drops): a `\cite` there is no citation.
_VERBATIM_BEGIN = re.compile(
    r"\\begin\{(verbatim\*?|Verbatim\*?|BVerbatim|LVerbatim|lstlisting|minted|comment)\}"
)
_VERBATIM_END = re.compile(
    r"\\end\{(verbatim\*?|Verbatim\*?|BVerbatim|LVerbatim|lstlisting|minted|comment)\}"
)


def latex_readable(text: str) -> str:
    """Blanks verbatim-like environments (a `\\cite` shown in a listing, text left out with
    the comment package's `comment`), then `%` comments. Verbatim first: a `%` inside one
    is text, and must not hide its `\\end`. An environment never closed is no block."""
    return _latex_comments(blank_blocks(text, _VERBATIM_BEGIN, _VERBATIM_END, str))


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
    for match in _LATEX_INPUT.finditer(latex_readable(text)):
        folder, name = (match.group(2) or "").strip(), match.group(3).strip()
        if match.group(1) in ("input", "include", "subfile") and match.group(2) is not None:
            continue  # `\input{a}{b}` is no form LaTeX knows: not a file
        found.append((f"{folder.rstrip('/')}/{name}" if folder else name, match.start()))
    return found


def _latex_comment_at(text: str, i: int) -> int | None:
    return line_end(text, i) if text[i] == "%" else None


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


def latex_keys(text: str) -> list[tuple[str, int]]:
    text = latex_readable(text)
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


_AUX = re.compile(r"\\citation\{([^}]*)\}|\\abx@aux@cite(?:\{\d+\})?\{([^}]*)\}")


def aux_keys(text: str) -> list[tuple[str, int]]:
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


def cite_command_takes_keys(name: str) -> bool:
    """Whether `\\name` is a citation command whose braces hold keys (`citep`, `autocite`,
    `nocite`), as `cited_keys` reads LaTeX; `citestyle` and its kind are not."""
    match = _CITE_COMMAND.fullmatch("\\" + name)
    return match is not None and not match.group(2) and name not in _NOT_CITATIONS
