"""What a paper's source records say beyond `Paper`'s own fields, for the writers.

`Paper` holds the facts every view needs (title, people, venue, year, pages...); a source
says more: the place of publication, the edition, the series, translators, the language,
the day of the date, ISBN and ISSN, the date a page was read. The writers that convert a
paper to another format (BibTeX from CSL-JSON, RIS, Hayagriva, CSL-JSON from BibTeX) read
those facts here, in one vocabulary, from whichever record has them, so no format loses a
field that another could carry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from index.models import Name, Paper, SourceRecord, json_value

__all__ = ["Facts", "bib_value", "edited_volume", "facts"]


@dataclass(frozen=True)
class Facts:
    """The extra facts, each None/empty when no record gives it."""

    place: str | None = None  # where it was published (BibLaTeX location, CSL publisher-place)
    edition: str | None = None
    series: str | None = None  # the series a book or proceedings volume is in
    language: str | None = None  # as given ("english", "en-US")
    day: int | None = None
    urldate: str | None = None  # when the web page was read, ISO
    isbn: str | None = None
    issn: str | None = None
    genre: str | None = None  # a thesis's or report's kind ("PhD thesis", "Technical report")
    translators: tuple[Name, ...] = field(default_factory=tuple)


def bib_value(record: SourceRecord, name: str) -> str | None:
    """A BibTeX field's value, macros resolved and LaTeX decoded, or None."""
    raw = record.get(name)
    if raw is None:
        return None
    from index.library.loaders.bibtex import resolve_value
    from index.library.normalize import latex_to_unicode

    strings = {macro.lower(): value.strip()[1:-1] for macro, value in record.strings}
    return latex_to_unicode(resolve_value(raw, strings), full=True) or None


_ISO_DAY = re.compile(r"^\s*\d{4}-\d{2}-(\d{2})")


def _from_bibtex(record: SourceRecord) -> dict[str, Any]:
    from index.library.loaders.bibnames import parse_names

    def value(*names: str) -> str | None:
        for name in names:
            found = bib_value(record, name)
            if found:
                return found
        for parent in record.parents:
            found = next((bib_value(parent, n) for n in names if bib_value(parent, n)), None)
            if found:
                return found
        return None

    date = value("date")
    day = _ISO_DAY.match(date) if date else None
    translators, _ = parse_names(record.get("translator") or "")
    return {
        "place": value("location", "address"),
        "edition": value("edition"),
        "series": value("series"),
        "language": value("langid", "language"),
        "day": int(day.group(1)) if day else None,
        "urldate": value("urldate"),
        "isbn": value("isbn"),
        "issn": value("issn"),
        "genre": value("type"),
        "translators": translators,
    }


def _from_csl(item: dict[str, Any]) -> dict[str, Any]:
    # The loaders' helpers, imported when a record is read: the app's start and a search on
    # a current index import this module but never decode LaTeX (~8 ms to import).
    from index.library.loaders.csl_fields import csl_names, rich_text

    def text(name: str) -> str | None:
        return rich_text(item.get(name)) or None

    parts = (
        (item.get("issued") or {}).get("date-parts")
        if isinstance(item.get("issued"), dict)
        else None
    )
    day = None
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and len(parts[0]) > 2:
        day = int(parts[0][2]) if str(parts[0][2]).isdigit() else None
    accessed = item.get("accessed")
    urldate = None
    if isinstance(accessed, dict) and accessed.get("date-parts"):
        urldate = "-".join(f"{int(p):02d}" for p in accessed["date-parts"][0] if str(p).isdigit())
    return {
        "place": text("publisher-place") or text("event-place"),
        "edition": text("edition"),
        "series": text("collection-title"),
        "language": text("language"),
        "day": day,
        "urldate": urldate,
        "isbn": text("ISBN"),
        "issn": text("ISSN"),
        "genre": text("genre"),
        "translators": csl_names(item.get("translator"))[0],
    }


def _from_ris(record: SourceRecord) -> dict[str, Any]:
    def tag(name: str) -> str | None:
        found = record.get(name)
        return found.strip() if found and found.strip() else None

    date = tag("DA") or tag("PY") or ""
    parts = date.split("/")
    serial = tag("SN")
    return {
        "place": tag("CY"),
        "edition": tag("ET"),
        "series": tag("T3"),
        "language": tag("LA"),
        "day": int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None,
        "urldate": tag("Y2"),
        "isbn": serial if serial and record.type in ("BOOK", "CHAP", "EBOOK", "EDBOOK") else None,
        "issn": serial if serial and record.type in ("JOUR", "MGZN", "NEWS") else None,
        "genre": tag("M3"),
        "translators": (),
    }


def _from_zotero(item: dict[str, Any]) -> dict[str, Any]:
    def text(name: str) -> str | None:
        value = item.get(name)
        return str(value).strip() or None if value else None

    translators = tuple(
        Name(literal=c["name"])
        if c.get("name")
        else Name(family=c.get("lastName", ""), given=c.get("firstName", ""))
        for c in item.get("creators") or []
        if isinstance(c, dict) and c.get("creatorType") == "translator"
    )
    return {
        "place": text("place"),
        "edition": text("edition"),
        "series": text("series"),
        "language": text("language"),
        "day": None,
        "urldate": text("accessDate"),
        "isbn": text("ISBN"),
        "issn": text("ISSN"),
        "genre": text("thesisType") or text("reportType") or text("type"),
        "translators": translators,
    }


def facts(paper: Paper) -> Facts:
    """The extra facts of `paper`: for each, the first record that gives it."""
    found: dict[str, Any] = {}
    for record in paper.records:
        if record.format == "bibtex":
            given = _from_bibtex(record)
        elif record.format == "csl-json":
            given = _from_csl({name: json_value(v) for name, v in record.fields})
        elif record.format == "ris":
            given = _from_ris(record)
        elif record.format == "zotero":
            given = _from_zotero({name: json_value(v) for name, v in record.fields})
        else:
            continue
        for name, value in given.items():
            if value and not found.get(name):
                found[name] = value
    return Facts(**found)


_AUTHOR_NAMES = frozenset({"author", "AU", "A1"})


def edited_volume(paper: Paper) -> bool:
    """Whether the paper's people are its editors only (an edited volume, `@collection`).

    The loaders cite such a work by its editors, so its `names` are its editors; a writer
    must then write them as editors and not again as authors. A work whose source names
    an author (the same person may also be its editor) is not one.
    """
    if not paper.editors or tuple(paper.names) != tuple(paper.editors):
        return False
    for record in paper.records:
        if any(name in _AUTHOR_NAMES or name.casefold() == "author" for name, _ in record.fields):
            return False
        if record.format == "zotero" and '"creatorType":"author"' in (record.get("creators") or ""):
            return False
    return True
