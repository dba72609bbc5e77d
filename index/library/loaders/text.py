"""Plain-text abstract lists: blank-line-separated paragraphs, optional author lines.

The bundled format, and what people get when they copy abstracts out of a publication
page: an author line (`A. Author, B. Author et al. · affiliation`) precedes the abstract it
belongs to; a lone name at the very top names whose list it is and is not a paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index.library.loaders.infer import infer_short_name, infer_title
from index.library.normalize import clean_text, latex_to_unicode
from index.models import LoadWarning, Paper, Source

__all__ = ["Paragraph", "load_text", "parse_author_line", "split_paragraphs"]

_NAME_WORD = r"(?:[^\W\d_][\w'’.-]*|[^\W\d_]\.)"
_NAME = re.compile(rf"^{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,4}}$")
_ET_AL = re.compile(r",?\s*(?:et\.?\s*al\.?|and others)$", re.IGNORECASE)
_MIN_ABSTRACT_WORDS = 8


@dataclass(frozen=True)
class Paragraph:
    """One blank-line-separated block: its text, 0-based index and 1-based first line."""

    text: str
    index: int
    line: int


def split_paragraphs(text: str) -> list[Paragraph]:
    """Blocks separated by one or more blank (or whitespace-only) lines."""
    paragraphs: list[Paragraph] = []
    current: list[str] = []
    start = 1
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            if not current:
                start = number
            current.append(raw)
        elif current:
            paragraphs.append(Paragraph("\n".join(current), len(paragraphs), start))
            current = []
    if current:
        paragraphs.append(Paragraph("\n".join(current), len(paragraphs), start))
    return paragraphs


_PARTICLES = {
    "van",
    "von",
    "der",
    "den",
    "de",
    "del",
    "della",
    "da",
    "di",
    "du",
    "le",
    "la",
    "bin",
    "ibn",
    "al",
    "dos",
    "das",
    "y",
    "ten",
    "ter",
}


def _capitalised(name: str) -> bool:
    """Every word of a name is capitalised, except particles (`Piet van der Berg`)."""
    words = name.split()
    return words[0][0].isupper() and all(
        word[0].isupper() or word.lower() in _PARTICLES for word in words
    )


def parse_author_line(text: str) -> tuple[tuple[str, ...], bool, str | None] | None:
    """`(names, complete, affiliation)` when the text is an author line, else None.

    An author line is one short line of comma-separated names, each one to five
    capitalised words or initials, optionally ending in `et al.` and ` · affiliation`.
    """
    line = clean_text(text)
    if not line or len(line) > 400 or "\n" in text.strip():
        return None
    affiliation = None
    if "·" in line:
        line, _, affiliation = (part.strip() for part in line.partition("·"))
        affiliation = affiliation or None
    complete = True
    cut = _ET_AL.search(line)
    if cut:
        complete, line = False, line[: cut.start()].strip()
    parts = [part.strip() for part in re.split(r",|\band\b|&", line) if part.strip()]
    if not parts or not all(_NAME.match(part) and _capitalised(part) for part in parts):
        return None
    if any(len(part.split()) == 1 for part in parts) and len(parts) > 1:
        return None  # "Results, Methods" is a heading list, not people
    return tuple(parts), complete, affiliation


def load_text(text: str, shown: str) -> tuple[list[Paper], list[LoadWarning]]:
    """Papers from an abstract list; each records `Source(shown, line, paragraph)`.

    Args:
        text: the decoded file.
        shown: the file as the user named it, for sources and warnings.
    """
    papers: list[Paper] = []
    warnings: list[LoadWarning] = []
    paragraphs = split_paragraphs(text)
    pending: tuple[tuple[str, ...], bool, Paragraph] | None = None
    for paragraph in paragraphs:
        authors = parse_author_line(paragraph.text)
        if authors is not None:
            names, complete, _affiliation = authors
            if paragraph.index == 0 and len(names) == 1 and complete:
                continue  # a lone name at the top: whose publication list this is
            if pending is not None:
                warnings.append(
                    LoadWarning(shown, "author line with no abstract after it", pending[2].line)
                )
            pending = (names, complete, paragraph)
            continue
        abstract = latex_to_unicode(paragraph.text)
        if len(abstract.split()) < _MIN_ABSTRACT_WORDS:
            if paragraph.index > 0:
                warnings.append(
                    LoadWarning(
                        shown, "paragraph too short to be an abstract; skipped", paragraph.line
                    )
                )
            continue
        names, complete = (pending[0], pending[1]) if pending else ((), True)
        pending = None
        short_name = infer_short_name(abstract)
        papers.append(
            Paper(
                id=short_name or "",
                title=infer_title(abstract, short_name),
                title_inferred=True,
                short_name=short_name,
                authors=names,
                authors_complete=complete,
                abstract=abstract,
                sources=(Source(shown, paragraph.line, paragraph.index),),
            )
        )
    if pending is not None:
        warnings.append(
            LoadWarning(shown, "author line with no abstract after it", pending[2].line)
        )
    return papers, warnings
