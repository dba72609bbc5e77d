"""Where the cursor is, in citation terms: inside a citation being typed, or on a cited key.

Pure functions of a document's text. Whether a place can hold a citation at all is asked
of `index.citations.manuscripts` (the scanner behind `paperscope cited`): its
`readable_text` blanks code, comments, raw text and addresses, so completion is offered
exactly where `cited` would read a key, and nowhere else.

What is typed after the trigger (`\\cite{`, `[@`, `@`, `#cite(<`, `[cite:@`) is a query,
not a key prefix: `\\cite{olshausen 1996` asks for Olshausen's 1996 papers. The query
ends at the syntax's separator (`,` in LaTeX, `;` in pandoc brackets and Org); a bare `@`
outside brackets takes one word, as pandoc and Typst read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index.citations.keyformats import KeyFormatError, format_keys
from index.citations.manuscripts import (
    cite_command_takes_keys,
    key_offsets,
    readable_text,
)

__all__ = ["CitationSpot", "KeySpot", "citation_at", "key_at", "key_text", "offset_of"]


@dataclass(frozen=True)
class CitationSpot:
    """A citation being typed at the cursor.

    Attributes:
        query: the words typed since the trigger (maybe none).
        start: offset where the replaced text starts (the query, or the `@` of a bare
            reference whose key needs the long form).
        end: the cursor's offset.
        form: what the key is written as: `latex`, `pandoc`, `pandoc-braced`, `typst`,
            `typst-label`, `org`.
        at: offset of the `@` the query follows, for the forms that have one; else -1.
    """

    query: str
    start: int
    end: int
    form: str
    at: int = -1


@dataclass(frozen=True)
class KeySpot:
    """A cited key under the cursor: the key and its span in the text."""

    key: str
    start: int
    end: int


def offset_of(text: str, line: int, character: int) -> int:
    """The offset of an LSP position (0-based line; UTF-16 units counted as characters,
    which differ only for characters outside the Basic Multilingual Plane)."""
    start = 0
    for _ in range(line):
        found = text.find("\n", start)
        if found < 0:
            return len(text)
        start = found + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return min(start + character, end)


# `\cite`-family command, its optional arguments and groups of a multicite, then the open
# brace the cursor is in.
_LATEX_OPEN = re.compile(
    r"\\([A-Za-z]*[cC]ite[A-Za-z]*|nocite)\*?"
    r"(?:\s*(?:\[[^\]]*\]|\([^)]*\)|\{[^{}]*\}))*\s*\{([^{}\\]*)\Z"
)
_PANDOC_AT = re.compile(r"(?<![\w.+\-@\\])-?@(\{?)([^\s;\[\]{}@]*)\Z")
_PANDOC_BRACKET = re.compile(r"\[[^\[\]]*?(?<![\w.+\-@\\])-?@(\{?)([^;\[\]{}@]*)\Z")
_TYPST_AT = re.compile(r"(?<![\w.+\-@\\])@([^\s@]*)\Z")
_TYPST_LABEL = re.compile(r"#?cite\(\s*<([^<>\s]*)\Z")
_ORG_OPEN = re.compile(r"\[cite(?:/[^:\]\s]*)?:[^\]]*?(?<![\w])@([^;\]@]*)\Z", re.IGNORECASE)
# How far back a citation being typed can start: a citation spans a line or two.
_LOOK_BACK = 400


def citation_at(text: str, offset: int, syntax: str) -> CitationSpot | None:
    """The citation being typed at `offset`, or None when the cursor is in no citation
    (prose, code, comments, an e-mail address, a closed citation)."""
    if syntax not in ("latex", "markdown", "typst", "org"):
        return None
    # The whole text: a block is code only when it is closed, maybe below the cursor.
    head = readable_text(text, syntax)
    before = head[max(0, offset - _LOOK_BACK) : offset]
    base = offset - len(before)
    if syntax == "latex":
        match = _LATEX_OPEN.search(before)
        if match is None or not cite_command_takes_keys(match.group(1)):
            return None
        typed = match.group(2).rsplit(",", 1)[-1]
        query = typed.lstrip()
        return CitationSpot(query.rstrip(), offset - len(query), offset, "latex")
    if syntax == "markdown":
        match = _PANDOC_BRACKET.search(before) or _PANDOC_AT.search(before)
        if match is None:
            return None
        braced = bool(match.group(1))
        query = match.group(2)
        at = base + match.start(2) - (2 if braced else 1)
        form = "pandoc-braced" if braced else "pandoc"
        return CitationSpot(query.strip(), offset - len(query), offset, form, at)
    if syntax == "typst":
        match = _TYPST_LABEL.search(before)
        if match is not None:
            query = match.group(1)
            return CitationSpot(query, offset - len(query), offset, "typst-label")
        match = _TYPST_AT.search(before)
        if match is None:
            return None
        query = match.group(1)
        return CitationSpot(query, offset - len(query), offset, "typst", base + match.start())
    match = _ORG_OPEN.search(before)
    if match is None:
        return None
    query = match.group(1)
    return CitationSpot(query.strip(), offset - len(query), offset, "org")


def key_text(key: str, spot: CitationSpot) -> tuple[str, int]:
    """What to insert for `key` at `spot` and where the replaced text starts.

    Only the key, as the syntax needs it: a pandoc key that its short form cannot hold
    becomes `@{key}`, a Typst one `#cite(label("key"))` (both replace the `@` too).

    Raises:
        KeyFormatError: a key the syntax cannot hold at all (a LaTeX key with a comma).
    """
    if spot.form == "latex":
        format_keys([key], "latex")  # raises for a key LaTeX cannot hold
        return key, spot.start
    if spot.form == "pandoc":
        written = format_keys([key], "pandoc")[1:-1]  # `[@key]` -> `@key` or `@{key}`
        if written == f"@{key}":
            return key, spot.start
        return written, spot.at
    if spot.form == "pandoc-braced":
        return key, spot.start
    if spot.form == "typst":
        written = format_keys([key], "typst")
        return (key, spot.start) if written == f"@{key}" else (written, spot.at)
    if spot.form == "typst-label":
        if not key or any(char in key for char in "<> \t\n"):
            raise KeyFormatError(f"key {key!r} cannot be written as a Typst label")
        return key, spot.start
    format_keys([key], "org")  # raises for a key Org cannot hold
    return key, spot.start


def key_at(text: str, offset: int, syntax: str) -> KeySpot | None:
    """The cited key whose characters the cursor is on (or just after), else None."""
    for key, start in key_offsets(text, syntax):
        if start <= offset <= start + len(key):
            return KeySpot(key, start, start + len(key))
        if start > offset:
            break
    return None
