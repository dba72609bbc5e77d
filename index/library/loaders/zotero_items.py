"""Zotero items as Better BibTeX's native JSON export writes them (`{"config", "items"}`).

An item is recognised by its `itemType`. Its field names are Zotero's own, not CSL's:
`creators` with `firstName`/`lastName` (or one `name` for an institution) and a
`creatorType`, `date` as the user typed it, `publicationTitle`/`proceedingsTitle`/
`bookTitle`, `abstractNote`, `tags`, `citationKey`, notes as HTML and attachments with
paths. Read as CSL, every author and date was silently dropped; this reads them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from index.library.identifiers import (
    bare_doi,
    find_arxiv,
    find_isbn,
    find_month,
    find_pmid,
    find_year,
)
from index.library.loaders.csl_fields import rich_text
from index.library.normalize import clean_text
from index.models import Name, Paper, Source

__all__ = ["is_zotero_item", "zotero_item"]

_TYPES = {
    "journalArticle": "article",
    "magazineArticle": "article",
    "newspaperArticle": "article",
    "conferencePaper": "inproceedings",
    "bookSection": "incollection",
    "book": "book",
    "thesis": "phdthesis",
    "report": "techreport",
    "preprint": "misc",
    "webpage": "misc",
    "manuscript": "unpublished",
    "presentation": "misc",
    "dataset": "misc",
}
_CONTAINERS = (
    "publicationTitle",
    "proceedingsTitle",
    "bookTitle",
    "websiteTitle",
    "conferenceName",
    "university",
    "institution",
)


def is_zotero_item(record: Mapping[str, Any]) -> bool:
    """True for a Zotero item (it has an `itemType`), never for CSL or arXiv records."""
    return isinstance(record.get("itemType"), str)


def _creators(record: Mapping[str, Any], kinds: tuple[str, ...]) -> tuple[Name, ...]:
    names = []
    for creator in record.get("creators") or []:
        if not isinstance(creator, Mapping) or creator.get("creatorType", "author") not in kinds:
            continue
        if creator.get("name"):  # a one-field creator: an institution
            names.append(Name(literal=rich_text(creator["name"])))
        elif creator.get("lastName") or creator.get("firstName"):
            names.append(
                Name(
                    family=rich_text(creator.get("lastName")),
                    given=rich_text(creator.get("firstName")),
                )
            )
    return tuple(name for name in names if str(name))


def _text(record: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = rich_text(record.get(key))
        if value:
            return value
    return None


def _tags(record: Mapping[str, Any]) -> tuple[str, ...]:
    tags = []
    for tag in record.get("tags") or []:
        value = tag.get("tag") if isinstance(tag, Mapping) else tag
        if isinstance(value, str) and clean_text(value):
            tags.append(clean_text(value))
    return tuple(dict.fromkeys(tags))


def _notes(record: Mapping[str, Any]) -> tuple[str, ...]:
    notes = []
    for note in record.get("notes") or []:
        value = note.get("note") if isinstance(note, Mapping) else note
        text = rich_text(value)
        if text:
            notes.append(text)
    return tuple(notes)


def _attachments(record: Mapping[str, Any]) -> tuple[str, ...]:
    paths = []
    for attachment in record.get("attachments") or []:
        if isinstance(attachment, Mapping):
            path = attachment.get("localPath") or attachment.get("path")
            if isinstance(path, str) and clean_text(path):
                paths.append(clean_text(path))
    return tuple(paths)


def zotero_item(record: Mapping[str, Any], source: Source) -> Paper:
    """One Zotero item as a paper; unknown item types are `misc`."""
    names = _creators(record, ("author", "inventor", "presenter", "programmer", "artist"))
    editors = _creators(record, ("editor", "seriesEditor"))
    if not names and editors:
        names = editors
    entry_type = _TYPES.get(str(record.get("itemType")), "misc")
    container = _text(record, *_CONTAINERS)
    date = _text(record, "date")
    extra = str(record.get("extra") or "")
    key = clean_text(str(record.get("citationKey") or record.get("citekey") or "")) or None
    url = _text(record, "url")
    title = _text(record, "title")
    return Paper(
        id=key or clean_text(str(record.get("key") or record.get("itemKey") or "")),
        title=title or "(untitled)",
        title_inferred=not title,
        authors=tuple(str(name) for name in names),
        names=names,
        editors=editors,
        year=find_year(date),
        month=find_month(date) if date and not date.isdigit() else None,
        venue=container,
        entry_type=entry_type,
        booktitle=container if entry_type in ("inproceedings", "incollection") else None,
        journal=container if entry_type == "article" else None,
        volume=_text(record, "volume"),
        number=_text(record, "issue", "number", "reportNumber"),
        pages=_text(record, "pages"),
        publisher=_text(record, "publisher"),
        doi=bare_doi(_text(record, "DOI") or _extra(extra, "DOI")),
        isbn=find_isbn(_text(record, "ISBN")),
        pmid=find_pmid(_extra(extra, "PMID")),
        arxiv=find_arxiv(
            eprint=_text(record, "archiveID") or _extra(extra, "arXiv"),
            archive="arXiv" if (record.get("archiveID") or _extra(extra, "arXiv")) else None,
            journal=container,
            url=url,
        ),
        url=url,
        abstract=_text(record, "abstractNote") or "",
        keywords=_tags(record),
        attachments=_attachments(record),
        source_notes=_notes(record),
        sources=(source,),
        citation_key=key,
    )


def _extra(extra: str, field: str) -> str | None:
    """A `Field: value` line of Zotero's `extra` (where arXiv ids and DOIs often live)."""
    found = re.search(rf"^\s*{re.escape(field)}\s*:\s*(\S+)", extra, re.IGNORECASE | re.MULTILINE)
    return found.group(1) if found else None
