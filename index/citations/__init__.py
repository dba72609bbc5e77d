"""Citations of papers in every style paperscope offers, from one entry point.

`format_citation(papers, style)` is what the app's preview, the copy action and the
`cite` command call. Formatted styles (APA, IEEE, ACM, Chicago, MLA) come from citeproc-py
and the CSL files vendored in `index/citations/styles/`; the interchange formats (BibTeX, BibLaTeX, RIS,
CSL-JSON) and the two short forms (Markdown, plain) are written directly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from index.citations.bibtex import bib_entries
from index.citations.csljson import csl_json
from index.citations.keys import citation_keys
from index.citations.plain import markdown_link, plain_line, ris_records
from index.models import Paper

__all__ = [
    "STYLES",
    "EXPORT_FORMATS",
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
)
# Styles whose output is a file format, fit for `paperscope export`.
EXPORT_FORMATS: tuple[str, ...] = ("bibtex", "biblatex", "ris", "csl-json")

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
}


# Names people type for a style, folded (lower case, no spaces or underscores), beyond the
# style ids themselves: `--style APA`, `style = "apa7"`, `chicago-author-date`.
_ALIASES = {
    "apa7": "apa", "apa-7": "apa", "ieeetran": "ieee", "chicago-author-date": "chicago",
    "chicagoauthordate": "chicago", "chicago-authordate": "chicago", "mla9": "mla", "mla-9": "mla",
    "bib": "bibtex", "csljson": "csl-json", "csl": "csl-json", "json": "csl-json", "md": "markdown",
    "text": "plain", "txt": "plain",
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
    resolved = resolve_style(style)
    if resolved is None:
        raise UnknownStyleError(style)
    return resolved


@lru_cache(maxsize=1024)
def _formatted(papers: tuple[Paper, ...], style: str) -> tuple[str, ...]:
    """CSL rendering, remembered: moving the cursor back to a paper must not re-render it.

    Formatted styles print no citation key, so the keys are not part of the cache key.
    """
    # citeproc and lxml take ~30 ms to import; the first screen shows no formatted style.
    from index.citations.csl import format_csl

    return tuple(format_csl(papers, style))


def style_label(style: str) -> str:
    """The name to show the user ("APA 7", "IEEE"), e.g. in "Copied APA 7 citation"."""
    return _LABELS[_check(style)]


def format_citation(
    papers: Sequence[Paper], style: str, *, keys: Mapping[str, str] | None = None
) -> str:
    """One paper's citation, or a bibliography of several, in `style`.

    Args:
        papers: the papers to cite; a bibliography is ordered as the style requires
            (alphabetical for APA, Chicago and MLA; in the given order for IEEE and ACM,
            which number their references; in the given order for the file formats).
        style: one of `STYLES`.
        keys: citation keys by paper id, normally `citation_keys(library.papers)` so a key
            is unique in the whole library; computed from `papers` alone when omitted.

    Raises:
        UnknownStyleError: for a style name not in `STYLES`.
    """
    return _CONTROL.sub("", _format(list(papers), style, keys))


# Control characters (ESC above all) from an untrusted corpus must not reach a terminal or
# a clipboard through a citation: "\x1b]52;..." in a title would rewrite the clipboard.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _format(papers: list[Paper], style: str, keys: Mapping[str, str] | None) -> str:
    style = _check(style)
    if not papers:
        return ""
    resolved = dict(citation_keys(papers))
    if keys:
        resolved.update({k: v for k, v in keys.items() if k in resolved})
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
    if len(papers) == 1 and style in ("ieee", "acm"):
        # A single reference is not a numbered list: "[1] " would be pasted as noise.
        return re.sub(r"^\[\d+\]\s*", "", entries[0])
    return "\n".join(entries)


