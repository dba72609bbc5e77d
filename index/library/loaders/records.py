"""JSON records -> papers: arXiv metadata, CSL-JSON and paperscope's own field names.

Three shapes are common in the wild: the arXiv metadata dump (`authors` as one string plus
`authors_parsed`, `journal-ref`, `versions`), CSL-JSON from Zotero / Better BibTeX
(`author: [{family, given}]`, `issued: {date-parts}`, `container-title`, `DOI`) and a plain
record with paperscope's own `Paper` field names. Each is recognised by its keys, so a
file may even mix them.
"""

from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from index.library.attachments import parse_file_field
from index.models import Paper, Source, replace
from index.library.normalize import clean_text, latex_to_unicode

__all__ = ["record_to_paper", "as_strings"]

_CSL_TYPES = {
    "article-journal": "article", "article": "article", "paper-conference": "inproceedings",
    "chapter": "incollection", "book": "book", "thesis": "phdthesis", "report": "techreport",
    "webpage": "misc", "manuscript": "unpublished", "speech": "misc", "dataset": "misc",
}


def as_strings(value: Any) -> tuple[str, ...]:
    """A list or `;`/`,`-separated string of labels -> clean strings."""
    if value is None:
        return ()
    items = re.split(r"[;,]", value) if isinstance(value, str) else list(value)
    if isinstance(value, Mapping):
        items = list(value.values())
    return tuple(t for t in (clean_text(str(item)) for item in items) if t)


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return latex_to_unicode(str(value)) or None


def _year(value: Any) -> int | None:
    match = re.search(r"\b(1[89]\d\d|2\d\d\d)\b", str(value or ""))
    return int(match.group(1)) if match else None


def _arxiv(record: Mapping[str, Any], source: Source) -> Paper:
    parsed = record.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        authors = tuple(
            latex_to_unicode(" ".join(str(p) for p in (*part[1:2], part[0], *part[2:3]) if p))
            for part in parsed if isinstance(part, list) and part
        )
    else:
        raw = latex_to_unicode(str(record.get("authors") or ""))
        authors = tuple(a.strip() for a in re.split(r",\s*|\s+and\s+", raw) if a.strip())
    complete = not any(a.lower() in ("others", "et al.", "et al") for a in authors)
    authors = tuple(a for a in authors if a.lower() not in ("others", "et al.", "et al"))
    versions = record.get("versions")
    first_version = versions[0].get("created") if isinstance(versions, list) and versions \
        and isinstance(versions[0], dict) else None
    year = _year(first_version) or _year(record.get("update_date"))
    journal_ref = _text(record.get("journal-ref"))
    arxiv_id = clean_text(str(record.get("id") or "")) or None
    return Paper(
        id=arxiv_id or "",
        title=_text(record.get("title")) or "(untitled)",
        title_inferred=not record.get("title"),
        authors=authors,
        authors_complete=complete,
        year=year,
        venue=journal_ref or "arXiv preprint",  # journal-ref is free text: kept, not split
        entry_type="misc",
        doi=_text(record.get("doi")),
        arxiv=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None,
        abstract=latex_to_unicode(str(record.get("abstract") or "")),
        keywords=as_strings(str(record.get("categories") or "").replace(" ", ",")),
        sources=(source,),
    )


def _csl(record: Mapping[str, Any], source: Source) -> Paper:
    authors: list[str] = []
    complete = True
    for person in record.get("author") or []:
        if not isinstance(person, Mapping):
            continue
        name = " ".join(str(person[k]) for k in ("given", "non-dropping-particle", "family")
                        if person.get(k)) or str(person.get("literal") or "")
        if name.lower() in ("others", "et al."):
            complete = False
        elif clean_text(name):
            authors.append(latex_to_unicode(name))
    issued = record.get("issued") or {}
    parts = issued.get("date-parts") if isinstance(issued, Mapping) else None
    first = parts[0] if isinstance(parts, list) and parts and isinstance(parts[0], list) else []
    year = _year(first[0]) if first else _year(issued.get("raw") if isinstance(issued, Mapping) else None)
    month = first[1] if len(first) > 1 and isinstance(first[1], int) and 1 <= first[1] <= 12 else None
    entry_type = _CSL_TYPES.get(str(record.get("type") or ""), "misc")
    container = _text(record.get("container-title"))
    return Paper(
        id=clean_text(str(record.get("citation-key") or record.get("id") or "")),
        title=_text(record.get("title")) or "(untitled)",
        title_inferred=not record.get("title"),
        authors=tuple(authors),
        authors_complete=complete,
        year=year,
        month=month,
        venue=container or _text(record.get("event")),
        entry_type=entry_type,
        booktitle=container if entry_type in ("inproceedings", "incollection") else None,
        journal=container if entry_type == "article" else None,
        volume=_text(record.get("volume")),
        number=_text(record.get("issue") or record.get("number")),
        pages=_text(record.get("page")),
        publisher=_text(record.get("publisher")),
        doi=_text(record.get("DOI") or record.get("doi")),
        url=_text(record.get("URL") or record.get("url")),
        abstract=latex_to_unicode(str(record.get("abstract") or "")),
        keywords=as_strings(record.get("keyword") or record.get("keywords")),
        # Not in the CSL spec; some exporters add JabRef's `file` form.
        attachments=parse_file_field(record["file"], Path(source.path).parent)
        if isinstance(record.get("file"), str) else (),
        sources=(source,),
        citation_key=clean_text(str(record.get("citation-key") or "")) or None,
    )


def _plain(record: Mapping[str, Any], source: Source) -> Paper:
    """A record using `Paper`'s own field names (what `paperscope list --json` prints)."""
    authors = record.get("authors")
    names = as_strings(authors if isinstance(authors, list) else
                       re.split(r"\s+and\s+|,\s*", str(authors or "")))
    keywords = sum((as_strings(record.get(k)) for k in ("keywords", "topics", "hardware")), ())
    return Paper(
        id=clean_text(str(record.get("id") or record.get("citation_key") or "")),
        title=_text(record.get("title")) or "(untitled)",
        title_inferred=bool(record.get("title_inferred")) or not record.get("title"),
        short_name=_text(record.get("short_name")),
        authors=names,
        authors_complete=record.get("authors_complete", True) is not False,
        year=_year(record.get("year")),
        venue=_text(record.get("venue")),
        entry_type=clean_text(str(record.get("entry_type") or "misc")).lower() or "misc",
        booktitle=_text(record.get("booktitle")),
        journal=_text(record.get("journal")),
        volume=_text(record.get("volume")),
        number=_text(record.get("number")),
        pages=_text(record.get("pages")),
        publisher=_text(record.get("publisher")),
        doi=_text(record.get("doi")),
        arxiv=_text(record.get("arxiv")),
        url=_text(record.get("url")),
        abstract=latex_to_unicode(str(record.get("abstract") or "")),
        keywords=tuple(dict.fromkeys(keywords)),
        sources=(source,),
        citation_key=_text(record.get("citation_key")),
        note=_text(record.get("note")),
    )


def record_to_paper(record: Mapping[str, Any], source: Source) -> Paper | None:
    """The paper a JSON object describes, or None when it describes none (no title/abstract)."""
    if not (record.get("title") or record.get("abstract")):
        return None
    if "authors_parsed" in record or "journal-ref" in record or "categories" in record:
        paper = _arxiv(record, source)
    elif "container-title" in record or "issued" in record or isinstance(record.get("author"), list):
        paper = _csl(record, source)
    else:
        paper = _plain(record, source)
    extra = sum((as_strings(record.get(k)) for k in ("topics", "hardware")), ())
    if extra:
        paper = replace(paper, keywords=tuple(dict.fromkeys(paper.keywords + extra)))
    return paper
