"""Citations of papers in every style paperscope offers, from one entry point.

`format_citation(papers, style)` is what the app's preview, the copy action and the
`cite` command call. Formatted styles (APA, IEEE, ACM, Chicago, MLA) come from the CSL
engine (`engine/`: pandoc's citeproc) and the CSL files vendored in
`index/citations/styles/`; the interchange formats (BibTeX, BibLaTeX, RIS, CSL-JSON) and
the two short forms (Markdown, plain) are written directly. The key formats
(`key`, `latex`, `pandoc`, `typst`, `org`) print only citation keys, in the syntax a writer
types (`keyformats.py`), and a user's own CSL file is a style too (a `CslStyle`, `custom.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from index.citations.bibtex import bib_entries
from index.citations.csljson import csl_json
from index.citations.custom import CslStyle, StyleFileError
from index.citations.engine import EngineError, EngineUnavailable
from index.citations.keyformats import KEY_STYLES, KeyFormatError, format_keys, split_key_style
from index.citations.keys import citation_keys
from index.citations.plain import markdown_link, plain_line, ris_records
from index.models import Paper
from index.text_safety import strip_controls

__all__ = [
    "KEY_STYLES",
    "STYLES",
    "CslStyle",
    "EngineUnavailable",
    "KeyFormatError",
    "StyleFileError",
    "UnknownStyleError",
    "citation_keys",
    "format_citation",
    "resolve_style",
    "style_label",
]

STYLES: tuple[str, ...] = (
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
    *KEY_STYLES,
)

_LABELS = {
    "bibtex": "BibTeX",
    "biblatex": "BibLaTeX",
    "apa": "APA 7",
    "ieee": "IEEE",
    "acm": "ACM",
    "chicago": "Chicago (author-date)",
    "mla": "MLA 9",
    "ris": "RIS",
    "csl-json": "CSL-JSON",
    "markdown": "Markdown link",
    "plain": "plain text",
    "key": "citation key",
    "latex": "LaTeX \\cite",
    "pandoc": "pandoc [@key]",
    "typst": "Typst @key",
    "org": "Org [cite:@key]",
}


# Names people type for a style, folded (lower case, no spaces or underscores), beyond the
# style ids themselves: `--style APA`, `style = "apa7"`, `chicago-author-date`.
_ALIASES = {
    "apa7": "apa",
    "apa-7": "apa",
    "ieeetran": "ieee",
    "chicago-author-date": "chicago",
    "chicagoauthordate": "chicago",
    "chicago-authordate": "chicago",
    "mla9": "mla",
    "mla-9": "mla",
    "bib": "bibtex",
    "csljson": "csl-json",
    "csl": "csl-json",
    "json": "csl-json",
    "md": "markdown",
    "text": "plain",
    "txt": "plain",
}


def resolve_style(name: str) -> str | None:
    """The style id a user means (`APA`, `apa7`, `Chicago Author-Date`), or None for none."""
    folded = "-".join(name.strip().casefold().replace("_", " ").split())
    if folded in _LABELS:
        return folded
    return _ALIASES.get(folded, _ALIASES.get(folded.replace("-", "")))


class UnknownStyleError(ValueError):
    """A style name that is not one of `STYLES`; the message lists the valid ones."""

    def __init__(self, style: str) -> None:
        super().__init__(f"unknown citation style {style!r}; choose one of: {', '.join(STYLES)}")
        self.style = style


def _check(style: str) -> str:
    if isinstance(style, CslStyle):
        return style
    base, command = split_key_style(style)
    if base in _LABELS and command != "":
        return style
    resolved = resolve_style(style)
    if resolved is None:
        raise UnknownStyleError(style)
    return resolved


def _formatted(papers: tuple[Paper, ...], style: str) -> tuple[str, ...]:
    """CSL rendering (cached by the engine); a user's style pandoc rejects is named."""
    from index.citations.csl import format_csl

    try:
        return tuple(format_csl(papers, style))
    except EngineError as error:
        if isinstance(style, CslStyle):
            raise StyleFileError(style.path, f"pandoc cannot render this style ({error})") from None
        raise


def style_label(style: str) -> str:
    """The name to show the user ("APA 7", "IEEE"), e.g. in "Copied APA 7 citation"."""
    if isinstance(style, CslStyle):
        return style.csl_title
    base, command = split_key_style(_check(style))
    if base == "latex" and command:
        return f"LaTeX \\{command}"
    return _LABELS[base]


def format_citation(
    papers: Sequence[Paper], style: str, *, keys: Mapping[str, str] | None = None
) -> str:
    """One paper's citation, or a bibliography of several, in `style`.

    Args:
        papers: the papers to cite; a bibliography is ordered as the style requires
            (alphabetical for APA, Chicago and MLA; in the given order for IEEE and ACM,
            which number their references; in the given order for the file formats).
        style: one of `STYLES`, `latex:COMMAND`, or a user's `CslStyle`.
        keys: citation keys by paper id, normally `citation_keys(library.papers)` so a key
            is unique in the whole library; computed from `papers` alone when omitted.

    Raises:
        UnknownStyleError: for a style name not in `STYLES`.
        KeyFormatError: a key format that cannot hold one of the keys.
        StyleFileError: a user's CSL style that the engine cannot render.
        EngineUnavailable: pandoc (the CSL engine) is missing or cannot run.
    """
    # Control characters (ESC above all) from an untrusted corpus must not reach a terminal
    # or a clipboard through a citation: "\x1b]52;..." in a title would rewrite the clipboard.
    return strip_controls(_format(list(papers), style, keys))


def _format(papers: list[Paper], style: str, keys: Mapping[str, str] | None) -> str:
    style = _check(style)
    if not papers:
        return ""
    resolved = dict(citation_keys(papers))
    if keys:
        resolved.update({k: v for k, v in keys.items() if k in resolved})
    if split_key_style(style)[0] in KEY_STYLES and not isinstance(style, CslStyle):
        return format_keys([resolved[paper.id] for paper in papers], style)
    if style in ("bibtex", "biblatex"):
        return bib_entries(papers, resolved, style)
    if style == "ris":
        return ris_records(papers, resolved)
    if style == "csl-json":
        return csl_json(papers, resolved)
    if style == "markdown":
        return "\n".join(markdown_link(paper) for paper in papers)
    if style == "plain":
        return "\n".join(plain_line(paper) for paper in papers)
    entries = _formatted(tuple(papers), style)
    if len(papers) == 1 and (style in ("ieee", "acm") or isinstance(style, CslStyle)):
        # A single reference is not a numbered list: "[1] " would be pasted as noise.
        return re.sub(r"^\[\d+\]\s*", "", entries[0])
    return "\n".join(entries)
