"""RIS files (`.ris`, or RIS content in a file the user named), parsed by rispy.

RIS is what publishers serve behind "Export citation" and what EndNote, Mendeley and
Zotero exchange. rispy reads the tags; this module maps them to a `Paper` the way the
tags are used in the wild rather than only by the spec: the DOI may sit in `DO`, in `L3`
or in a `dx.doi.org` URL, the journal in any of `T2`/`JO`/`JF`/`JA`/`J2`, the year in
`PY`/`Y1`/`DA` as `2010/08/01/online`. Attached files come from `L1` (file attachments:
Zotero and EndNote write one line per file, or several paths joined by `;`) and `L4`
(figures and other files), as paths (relative ones against the .ris file's folder) or
`file://` URLs; a web link there (a publisher's PDF or figure URL) is no file on this
machine and serves as the paper's link when `UR` gives none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from index.library.attachments import parse_ris_links
from index.library.identifiers import (
    bare_doi,
    find_arxiv,
    find_isbn,
    find_month,
    find_pmid,
    find_year,
)
from index.library.loaders.untitled import untitled_title
from index.library.normalize import clean_text, latex_to_unicode
from index.models import LoadWarning, Name, Paper, Source, SourceRecord, replace

__all__ = ["load_ris", "looks_like_ris"]

_TAG_LINE = re.compile(r"^[A-Z][A-Z0-9]  - ?", re.MULTILINE)
_START = re.compile(r"^TY  - ", re.MULTILINE)
_TYPES = {
    "JOUR": "article",
    "JFULL": "article",
    "MGZN": "article",
    "NEWS": "article",
    "EJOUR": "article",
    "CONF": "inproceedings",
    "CPAPER": "inproceedings",
    "BOOK": "book",
    "EBOOK": "book",
    "EDBOOK": "book",
    "CHAP": "incollection",
    "ECHAP": "incollection",
    "THES": "phdthesis",
    "RPRT": "techreport",
    "UNPB": "unpublished",
}
# rispy's keys for L1 and L4, read as lists (rispy keeps only one value of other tags).
_LINK_KEYS = ("file_attachments1", "figure")
_WEB = re.compile(r"^https?://", re.IGNORECASE)
_CONTAINER_KEYS = (
    "secondary_title",
    "journal_name",
    "alternate_title3",
    "alternate_title2",
    "alternate_title1",
)


def looks_like_ris(text: str) -> bool:
    """True when the text opens with a `TY  - ` tag line, as every RIS record must."""
    return text.lstrip("\ufeff \t\r\n").startswith("TY  -")


def _first(record: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = record.get(key)
        if isinstance(value, list):
            value = next((v for v in value if clean_text(str(v))), None)
        text = latex_to_unicode(str(value)) if value else ""
        if text:
            return text
    return None


def _name(raw: str) -> Name:
    """`Last, First[, Suffix]` -> parts; a name with no comma is kept whole (institutions)."""
    parts = [clean_text(p) for p in raw.split(",")]
    if len(parts) == 1:
        return Name(literal=parts[0])
    return Name(
        family=parts[0],
        given=parts[1] if len(parts) > 1 else "",
        suffix=parts[2] if len(parts) > 2 else "",
    )


def _names(record: Mapping[str, Any], *keys: str) -> tuple[Name, ...]:
    names: list[Name] = []
    for key in keys:
        for raw in record.get(key) or []:
            if isinstance(raw, str) and clean_text(raw):
                names.append(_name(latex_to_unicode(raw)))
    return tuple(dict.fromkeys(names))


def _doi(record: Mapping[str, Any]) -> str | None:
    candidates = [
        record.get("doi"),
        *(record.get("unknown_tag") or {}).get("L3", []),
        *(record.get("urls") or []),
    ]
    for candidate in candidates:
        if isinstance(candidate, str) and re.search(r"(?:^|doi\.org/|doi:)\s*10\.", candidate):
            return bare_doi(candidate)
    return None


# `PMID: 123`, `PMID 123`: how a note (N1, M1) or an accession number (AN) gives one.
_PMID = re.compile(r"\bPMID:?\s*(\d{1,9})\b", re.IGNORECASE)
# The database a record was exported from (DB, DP) when its accession number is a PMID.
_PUBMED = re.compile(r"pubmed|medline|\bnlm\b", re.IGNORECASE)


def _pmid(record: Mapping[str, Any]) -> str | None:
    """The PubMed id where real exports put it: `PMID: 123` in AN, M1 or a note (Zotero
    writes Extra's `PMID:` line as a note), or AN alone when DB or DP names PubMed or
    MEDLINE (EndNote's and Ovid's PubMed records; another database's accession number,
    Embase's digits or `WOS:...`, is no PMID)."""
    accession = record.get("accession_number")
    texts = [accession, record.get("note"), *(record.get("notes") or [])]
    for text in texts:
        found = _PMID.search(text) if isinstance(text, str) else None
        if found:
            return found.group(1)
    source = f"{record.get('name_of_database') or ''} {record.get('database_provider') or ''}"
    if isinstance(accession, str) and _PUBMED.search(source):
        return find_pmid(accession)
    return None


def _links(record: Mapping[str, Any]) -> list[str]:
    """The `L1` and `L4` values, in order."""
    values: list[str] = []
    for key in _LINK_KEYS:
        found = record.get(key) or []
        values += [v for v in (found if isinstance(found, list) else [found]) if isinstance(v, str)]
    return values


_SLASHED = re.compile(r"^\s*\d{4}/(\d{1,2})(?:/|$)")


def _slashed_month(*dates: str | None) -> int | None:
    """The month of RIS's own date form, `2010/08/01/online` (`find_month` reads ISO)."""
    for date in dates:
        match = _SLASHED.match(date or "")
        if match and 1 <= int(match.group(1)) <= 12:
            return int(match.group(1))
    return None


def _paper(record: Mapping[str, Any], source: Source) -> Paper:
    names = _names(record, "authors", "first_authors")
    # A2 is the secondary author: an editor in every type paperscope reads as a paper.
    editors = _names(record, "secondary_authors")
    entry_type = _TYPES.get(str(record.get("type_of_reference") or ""), "misc")
    title = _first(record, "title", "primary_title")
    container = _first(record, *_CONTAINER_KEYS)
    date = _first(record, "year", "publication_year", "date")
    first, last = _first(record, "start_page"), _first(record, "end_page")
    urls = [u for u in record.get("urls") or [] if isinstance(u, str) and clean_text(u)]
    links = _links(record)
    urls += [part.strip() for link in links for part in link.split(";") if _WEB.match(part.strip())]
    return Paper(
        id=clean_text(str(record.get("id") or "")),
        title=title or "(untitled)",
        title_inferred=not title,
        authors=tuple(str(n) for n in names),
        names=names,
        editors=editors,
        year=find_year(date, _first(record, "date")),
        month=_slashed_month(_first(record, "date"), date) or find_month(_first(record, "date")),
        venue=container,
        entry_type=entry_type,
        booktitle=container if entry_type in ("inproceedings", "incollection") else None,
        journal=container if entry_type == "article" else None,
        volume=_first(record, "volume"),
        number=_first(record, "number"),
        pages=f"{first}-{last}" if first and last else first,
        publisher=_first(record, "publisher"),
        doi=_doi(record),
        # SN is an ISSN for a journal's article, an ISBN for a book: only a valid ISBN is one.
        isbn=find_isbn(_first(record, "issn")),
        pmid=_pmid(record),
        arxiv=find_arxiv(journal=container, url=urls[0] if urls else None),
        url=clean_text(urls[0]) if urls else None,
        abstract=_first(record, "abstract", "notes_abstract") or "",
        keywords=tuple(
            dict.fromkeys(clean_text(k) for k in record.get("keywords") or [] if clean_text(str(k)))
        ),
        attachments=parse_ris_links(links, Path(source.path).parent),
        sources=(source,),
        citation_key=clean_text(str(record.get("id") or "")) or None,
    )


_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*)|$)")


def _tag_pairs(text: str) -> list[tuple[tuple[str, str], ...]]:
    """Each record's (tag, value) lines in order, repeated tags repeated; a line that is no
    tag line continues the value before it (RIS wraps long abstracts so)."""
    records: list[tuple[tuple[str, str], ...]] = []
    pairs: list[list[str]] = []
    for line in text.lstrip("\ufeff").splitlines():
        match = _TAG.match(line)
        if match is None:
            if pairs and line.strip():
                pairs[-1][1] += "\n" + line.rstrip()
            continue
        tag, value = match.group(1), (match.group(2) or "").rstrip()
        if tag == "TY":
            pairs = []
        pairs.append([tag, value])
        if tag == "ER":
            records.append(tuple((t, v) for t, v in pairs[:-1]))
            pairs = []
    return records


def load_ris(text: str, shown: str) -> tuple[list[Paper], list[LoadWarning]]:
    """Every RIS record in the text; a file rispy cannot read is one warning."""
    import rispy  # imported here: a warm start never parses RIS

    starts = [text.count("\n", 0, m.start()) + 1 for m in _START.finditer(text)]
    try:
        records = rispy.loads(text, list_tags=[*rispy.LIST_TYPE_TAGS, "L1", "L4"])
    except Exception as error:  # rispy raises on a file it cannot read: one warning, no crash
        line = starts[0] if starts else None
        return [], [LoadWarning(shown, f"cannot read RIS: {clean_text(str(error))[:120]}", line)]
    papers: list[Paper] = []
    warnings: list[LoadWarning] = []
    tagged = _tag_pairs(text)
    if len(tagged) != len(records):  # records rispy split otherwise: kept without tags
        tagged = []
    for number, record in enumerate(records):
        line = starts[number] if number < len(starts) else None
        paper = _paper(record, Source(shown, line))
        if tagged:
            pairs = tagged[number]
            kind = pairs[0][1] if pairs and pairs[0][0] == "TY" else ""
            key = next((value for tag, value in pairs if tag == "ID"), "")
            kept = SourceRecord.of("ris", kind, key, pairs, paper.sources[0])
            paper = replace(paper, records=(kept,))
        if paper.title_inferred and (paper.names or paper.venue or paper.year):
            shown_title = untitled_title(
                paper.names,
                paper.venue,
                paper.year,
                str(record.get("type_of_reference") or "").lower(),
            )
            paper = replace(paper, title=shown_title or paper.title)
        elif paper.title_inferred and not paper.abstract:
            warnings.append(
                LoadWarning(shown, "RIS record has neither title nor abstract; skipped", line)
            )
            continue
        papers.append(paper)
    if not papers and not warnings:
        warnings.append(LoadWarning(shown, "no RIS records found"))
    return papers, warnings
