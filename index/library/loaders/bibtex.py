"""BibTeX and BibLaTeX files, parsed by bibtexparser v2 and decoded to clean Unicode.

bibtexparser does the block splitting and error recovery (a malformed entry becomes a
`ParsingFailedBlock` with its line, a repeated key a `DuplicateBlockKeyBlock` that still
carries the entry). Values are resolved here rather than by its middlewares because
paperscope must *warn* about a `@string` macro that is used but never defined (the
middleware keeps it silently) and must handle `#` concatenation; LaTeX is decoded with
pylatexenc through `normalize.latex_to_unicode`.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

from index.library.attachments import parse_file_field
from index.models import LoadWarning, Paper, Source
from index.library.normalize import clean_text, latex_to_unicode

if TYPE_CHECKING:
    from bibtexparser import model

__all__ = ["load_bibtex", "split_names", "person_name"]

_MONTHS = {name: number for number, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.IGNORECASE)


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """Split on `separator` only outside braces (`{Barnes and Noble}` is one name)."""
    if separator.search(text) is None:  # most values (every abstract without `#`): one part
        return [text.strip()]
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        char = text[i]
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            match = separator.match(text, i)
            if match:
                parts.append(text[start:i])
                start = i = match.end()
                continue
        i += 1
    parts.append(text[start:])
    return [part.strip() for part in parts]


def split_names(value: str) -> tuple[tuple[str, ...], bool]:
    """A BibTeX author field -> (`First Last` names, complete); `and others` = incomplete."""
    names, complete = [], True
    for raw in _split_top(value, re.compile(r"\s+and\s+", re.IGNORECASE)):
        if raw.lower() in ("others", "{others}", "et al.", "et al"):
            complete = False
        elif raw:
            names.append(person_name(raw))
    return tuple(name for name in names if name), complete


def person_name(raw: str) -> str:
    """`Last, First` / `von Last, Jr, First` / `First Last` -> `First von Last Jr`."""
    parts = _split_top(raw, re.compile(r","))
    if len(parts) == 2:
        raw = f"{parts[1]} {parts[0]}"
    elif len(parts) >= 3:
        raw = f"{parts[2]} {parts[0]} {parts[1]}"
    return latex_to_unicode(raw, full=True)


def _resolve(raw: str, strings: dict[str, str], undefined: set[str]) -> str:
    """A raw field value with `#` concatenation, quotes, braces and macros resolved."""
    pieces = []
    for piece in _split_top(raw.strip(), re.compile(r"\s*#\s*")):
        if len(piece) >= 2 and piece[0] == "{" and piece[-1] == "}":
            pieces.append(piece[1:-1])
        elif len(piece) >= 2 and piece[0] == '"' and piece[-1] == '"':
            pieces.append(piece[1:-1])
        elif piece.isdigit():
            pieces.append(piece)
        elif piece.lower() in strings:
            pieces.append(strings[piece.lower()])
        elif piece.lower()[:3] in _MONTHS and piece.isalpha():
            pieces.append(piece.lower())
        else:
            undefined.add(piece)
            pieces.append(piece)  # keep the literal: better than losing the value
    return "".join(pieces)


def _month(value: str) -> int | None:
    value = value.strip().lower()
    if value.isdigit() and 1 <= int(value) <= 12:
        return int(value)
    return _MONTHS.get(value[:3])


def _entry_to_paper(entry: model.Entry, values: dict[str, str], shown: str) -> Paper:
    def text(*names: str) -> str | None:
        for name in names:
            if values.get(name):
                decoded = latex_to_unicode(values[name], full=True)
                if decoded:
                    return decoded
        return None

    authors, complete = split_names(values.get("author") or values.get("editor") or "")
    year_text = text("year") or (text("date") or "")[:4]
    year = int(year_text[:4]) if year_text[:4].isdigit() else None
    eprint = text("eprint", "arxiv", "arxivid")
    arxiv_match = _ARXIV.fullmatch(eprint or "") if eprint else None
    if arxiv_match is None and (text("journal") or "").lower().startswith("arxiv"):
        arxiv_match = _ARXIV.search(text("journal") or "")
    keywords = tuple(k.strip() for k in re.split(r"[;,]", text("keywords") or "") if k.strip())
    container = text("booktitle")
    journal = text("journal", "journaltitle")
    doi = text("doi")
    if doi:
        doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", doi, flags=re.IGNORECASE)
    return Paper(
        id=entry.key,
        title=text("title") or "(untitled)",
        title_inferred=not text("title"),
        authors=authors,
        authors_complete=complete,
        year=year,
        month=_month(values.get("month", "")),
        venue=container or journal or text("howpublished", "institution", "school"),
        entry_type=entry.entry_type.lower(),
        booktitle=container,
        journal=journal,
        volume=text("volume"),
        number=text("number", "issue"),
        pages=(text("pages") or "").replace("--", "-").replace("–", "-") or None,
        publisher=text("publisher", "organization"),
        doi=doi,
        arxiv=arxiv_match.group(1) if arxiv_match else None,
        url=text("url"),
        abstract=latex_to_unicode(values.get("abstract", ""), full=True),
        keywords=keywords,
        # Raw, not LaTeX-decoded: backslashes in paths are the path's own.
        attachments=parse_file_field(values["file"], Path(shown).parent) if values.get("file")
        else (),
        sources=(Source(shown, (entry.start_line or 0) + 1),),
        citation_key=clean_text(entry.key) or None,
    )


def load_bibtex(text: str, shown: str) -> tuple[list[Paper], list[LoadWarning]]:
    """Every entry that parses; each problem becomes a warning with its line.

    Args:
        text: the decoded file.
        shown: the file as the user named it.
    """
    # Imported here: a warm start reads the library cache and never parses BibTeX.
    import bibtexparser
    from bibtexparser import model

    warnings: list[LoadWarning] = []
    splitter_log = logging.getLogger("bibtexparser")
    previous_level = splitter_log.level
    # The splitter logs each error itself; we report them as warnings, once.
    splitter_log.setLevel(logging.CRITICAL)
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
    except Exception as error:  # the splitter is robust, but never let it take the app down
        return [], [LoadWarning(shown, f"cannot parse BibTeX: {error}")]
    finally:
        splitter_log.setLevel(previous_level)
    strings: dict[str, str] = {}
    undefined: set[str] = set()
    for block in library.strings:
        strings[block.key.lower()] = _resolve(str(block.value), strings, undefined)
    entries: list[model.Entry] = list(library.entries)
    for failed in library.failed_blocks:
        line = (failed.start_line or 0) + 1
        if isinstance(failed, model.DuplicateBlockKeyBlock):
            duplicate = failed.ignore_error_block
            if isinstance(duplicate, model.Entry):
                entries.append(duplicate)
                warnings.append(LoadWarning(shown, f"duplicate BibTeX key {failed.key!r}; "
                                            "both entries kept under different ids", line))
            continue
        if isinstance(failed, model.DuplicateFieldKeyBlock):
            duplicate = failed.ignore_error_block
            if isinstance(duplicate, model.Entry):
                entries.append(duplicate)
                warnings.append(LoadWarning(shown, "a field appears twice in entry "
                                            f"{duplicate.key!r}; the last value kept", line))
                continue
        first_line = (failed.raw or "").strip().splitlines()[0][:60] if failed.raw else ""
        warnings.append(LoadWarning(
            shown, f"malformed BibTeX entry skipped: {clean_text(first_line)!r}", line))
    entries.sort(key=lambda e: e.start_line or 0)
    papers = []
    for entry in entries:
        entry_undefined: set[str] = set()
        values = {
            field.key.lower(): _resolve(str(field.value), strings, entry_undefined)
            for field in entry.fields
        }
        for macro in sorted(entry_undefined):
            warnings.append(LoadWarning(
                shown, f"entry {entry.key!r} uses undefined @string macro {macro!r}; "
                "kept as written", (entry.start_line or 0) + 1))
        papers.append(_entry_to_paper(entry, values, shown))
    if not papers and not warnings:
        warnings.append(LoadWarning(shown, "no BibTeX entries found"))
    return papers, warnings
