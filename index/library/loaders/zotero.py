"""Zotero's own library (`zotero.sqlite`), read directly, even while Zotero runs.

`load_zotero` copies the database and its write-ahead log (`zotero_snapshot`), reads the
copy's regular items (`zotero_db`) and turns each into a `Paper` here: Zotero item types
become BibTeX entry types, base fields fill journal / booktitle / publisher, creators keep
their parts and roles, tags become keywords, collections "Parent/Child" paths, child notes
plain text and attachments file paths. It never raises for a problem in the file: a
damaged or foreign database is one `LoadWarning`, and the rest of the corpus still loads.

Turning items into papers is most of the cost of a load (reading the tables is a fifth
of it), so the papers of the last load of each database are kept, by a digest of each
item as read: when Zotero changes a few items while the app runs, a reload converts only
those. The digest covers everything a paper is made of (fields, creators, tags,
collection paths, notes, attachments), so no timestamp has to be trusted.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from pathlib import Path, PurePosixPath

from index.library.identifiers import find_isbn, find_pmid
from index.library.loaders.html_text import html_to_text
from index.library.loaders.zotero_bbt import bbt_keys, keys_digest
from index.library.loaders.zotero_db import (
    ZoteroAttachment,
    ZoteroItem,
    read_items,
    schema_version,
)
from index.library.loaders.zotero_fingerprint import content_fingerprint
from index.library.loaders.zotero_prefs import base_attachment_dir
from index.library.loaders.zotero_snapshot import SnapshotError, connect, snapshot
from index.library.normalize import clean_text, latex_to_unicode
from index.models import LoadWarning, Name, Paper, Source, SourceRecord, json_fields

__all__ = [
    "DATABASE_NAME",
    "TESTED_SCHEMA_VERSIONS",
    "fingerprint",
    "is_zotero_database",
    "item_to_paper",
    "load_zotero",
]

DATABASE_NAME = "zotero.sqlite"
_SQLITE_MAGIC = b"SQLite format 3\x00"
# `userdata` schema versions whose tables this loader was written against: Zotero 7.0
# (123) to the schema in Zotero's repository when it was written (129).
TESTED_SCHEMA_VERSIONS = range(123, 130)

# Zotero item type -> BibTeX entry type, as Zotero's own BibTeX export maps them.
_ENTRY_TYPES = {
    "journalArticle": "article",
    "magazineArticle": "article",
    "newspaperArticle": "article",
    "conferencePaper": "inproceedings",
    "bookSection": "incollection",
    "encyclopediaArticle": "incollection",
    "dictionaryEntry": "incollection",
    "book": "book",
    "thesis": "phdthesis",
    "report": "techreport",
    "manuscript": "unpublished",
    "preprint": "misc",
    "webpage": "misc",
}
_JOURNAL_TYPES = frozenset({"article"})
_CONTAINER_TYPES = frozenset({"inproceedings", "incollection"})
# Where the publisher (university, institution, repository) is the best venue there is.
_PUBLISHER_IS_VENUE = frozenset({"phdthesis", "mastersthesis", "techreport", "misc"})
# Roles that edit the container; every other non-primary role (contributor, translator,
# reviewedAuthor, bookAuthor, seriesEditor, ...) is neither an author nor an editor.
_EDITOR_ROLES = frozenset({"editor"})
# `YYYY-MM-DD original text`: Zotero's multipart date; `00` means "not known".
_MULTIPART_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:\s|$)")
_YEAR = re.compile(r"\b(1[5-9]\d\d|2\d\d\d)\b")
_DOI_PREFIX = re.compile(r"^\s*(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_ARXIV_ID = r"(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_ARXIV = re.compile(
    rf"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*|10\.48550/arxiv\.){_ARXIV_ID}", re.IGNORECASE
)
_EXTRA_LINES = {
    label: re.compile(rf"^\s*{label}\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
    for label in ("Citation Key", "DOI", "PMID")
}
_LINKED_URL = 3

# Database -> item id -> (digest of the item as read, its paper): the last load's papers.
_converted: dict[str, dict[int, tuple[bytes, Paper | None]]] = {}
_converted_lock = threading.Lock()


def is_zotero_database(path: Path) -> bool:
    """True for a file named `*.sqlite` or starting with SQLite's header.

    By name first, so a damaged `zotero.sqlite` still comes here and gets a clear warning
    instead of "looks like a binary file".
    """
    if path.suffix.lower() == ".sqlite":
        return True
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_SQLITE_MAGIC)) == _SQLITE_MAGIC
    except OSError:
        return False


def load_zotero(
    path: Path, shown: str, *, base_dir: Path | None = None, home: Path | None = None
) -> tuple[list[Paper], list[LoadWarning]]:
    """Every regular item of a Zotero database as a paper.

    Args:
        path: the `zotero.sqlite` file; its folder is the data folder (`storage/`).
        shown: how to name it in sources and warnings.
        base_dir: Zotero's base folder for linked files (`attachments:` paths); when None
            and such a path occurs, it is looked up in the Zotero profile under `home`.
        home: the user's home folder (default `Path.home()`), where Zotero's profile is.
    """
    try:
        with snapshot(path) as copy:
            connection = connect(copy)
            try:
                version = schema_version(connection)
                data = read_items(connection)
            finally:
                connection.close()
    except SnapshotError as error:
        return [], [LoadWarning(shown, str(error))]
    except KeyError as missing:
        return [], [LoadWarning(shown, f"not a Zotero database (no table {missing.args[0]})")]
    except sqlite3.DatabaseError as error:
        return [], [LoadWarning(shown, f"cannot read as a Zotero database ({error})")]
    except (ValueError, TypeError) as error:  # a value of a type Zotero never writes
        return [], [
            LoadWarning(
                shown,
                f"cannot read as a Zotero database (unexpected "
                f"value: {clean_text(str(error))[:120]})",
            )
        ]
    keys, problem = bbt_keys(path.parent)
    for item in data.items:
        item.bbt_key = keys.get((item.library_id, item.key))
    warnings: list[LoadWarning] = [LoadWarning(shown, problem)] if problem else []
    if version is not None and version > TESTED_SCHEMA_VERSIONS[-1]:
        tested = f"{TESTED_SCHEMA_VERSIONS[0]}-{TESTED_SCHEMA_VERSIONS[-1]}"
        warnings.append(
            LoadWarning(
                shown,
                f"schema version {version} has not been tested with paperscope (tested: {tested})",
            )
        )
    if data.skipped:
        warnings.append(
            LoadWarning(
                shown,
                "could not read "
                + ", ".join(dict.fromkeys(data.skipped))
                + "; loaded the items without them",
            )
        )
    if base_dir is None and any(
        attachment.path.startswith("attachments:")
        for item in data.items
        for attachment in item.attachments
    ):
        base_dir = base_attachment_dir(home or Path.home(), data_dir=path.parent)
    papers = _papers(path, data.items, shown, base_dir)
    if not papers and not warnings:
        warnings.append(LoadWarning(shown, "no items in this Zotero library"))
    return papers, warnings


def _papers(path: Path, items: list[ZoteroItem], shown: str, base_dir: Path | None) -> list[Paper]:
    """The items as papers, reusing the last load's paper of every item that is unchanged."""
    source = Source(shown)
    memo = str(path.absolute())
    context = repr((shown, str(base_dir))).encode("utf-8", "surrogatepass")
    with _converted_lock:
        previous = _converted.get(memo, {})
    current: dict[int, tuple[bytes, Paper | None]] = {}
    papers: list[Paper] = []
    for item in items:
        digest = hashlib.blake2b(
            context + repr(item).encode("utf-8", "surrogatepass"), digest_size=16
        ).digest()
        known = previous.get(item.item_id)
        if known is not None and known[0] == digest:
            paper = known[1]
        else:
            paper = item_to_paper(item, source, path.parent, base_dir)
        current[item.item_id] = (digest, paper)
        if paper is not None:
            papers.append(paper)
    with _converted_lock:
        _converted[memo] = current
    return papers


def fingerprint(path: Path) -> tuple[object, ...] | None:
    """What changes when the library's items do, ignoring Zotero's bookkeeping writes.

    For a live reload: `zotero_snapshot.stat_fingerprint` (no copy) says whether Zotero
    wrote anything; this (one copy, a few aggregate queries) says whether it was an item,
    a trash state, a tag or a collection. None when the database cannot be read.
    """
    try:
        with snapshot(path) as copy:
            connection = connect(copy)
            try:
                content = content_fingerprint(connection)
            finally:
                connection.close()
    except (SnapshotError, sqlite3.Error):
        return None
    keys, problem = bbt_keys(path.parent)  # Better BibTeX's keys change no Zotero table
    return (*content, keys_digest(keys), problem)


def _text(item: ZoteroItem, *names: str) -> str | None:
    """The first of the fields that has a value, as one clean line."""
    for name in names:
        value = clean_text(item.fields.get(name))
        if value:
            return value
    return None


def _date(value: str | None) -> tuple[int | None, int | None]:
    """Year and month of a Zotero date (`2019-03-00 March 2019`, or older free text)."""
    if not value:
        return None, None
    match = _MULTIPART_DATE.match(value)
    if match:
        year, month = int(match.group(1)), int(match.group(2))
        return (year or None), (month if 1 <= month <= 12 else None)
    found = _YEAR.search(value)
    return (int(found.group(1)) if found else None), None


def _name(first: str, last: str, single_field: bool) -> Name | None:
    """A creator's name in parts; a one-field name (an institution) stays whole.

    Zotero keeps a particle in the last name ("van der Berg"); it is split off as BibTeX
    does, by its lowercase words, so sorting and citation keys use "Berg".
    """
    first, last = clean_text(first), clean_text(last)
    if single_field:
        return Name(literal=last or first) if (last or first) else None
    if not last:
        return Name(literal=first) if first else None
    words = last.split(" ")
    lower = 0
    while lower < len(words) - 1 and words[lower][:1].islower():
        lower += 1
    return Name(family=" ".join(words[lower:]), given=first, particle=" ".join(words[:lower]))


def _arxiv(item: ZoteroItem) -> str | None:
    """The arXiv id the item's archive id, URL, DOI or extra field gives."""
    for name in ("archiveID", "number", "url", "DOI", "extra", "publicationTitle"):
        match = _ARXIV.search(item.fields.get(name) or "")
        if match:
            return match.group(1)
    return None


def _extra_line(item: ZoteroItem, label: str) -> str | None:
    """A `Label: value` line of the Extra field, where Zotero and Better BibTeX keep
    values the item type has no field for (`Citation Key: ...`, `DOI: ...`)."""
    extra = item.fields.get("extra")
    match = _EXTRA_LINES[label].search(extra) if extra else None
    return (clean_text(match.group(1)) or None) if match else None


def _citation_key(item: ZoteroItem) -> str | None:
    """Zotero 7's `citationKey` field, else Better BibTeX's `Citation Key:` line in Extra
    (a pinned key), else the key Better BibTeX keeps in its own database."""
    return _text(item, "citationKey") or _extra_line(item, "Citation Key") or item.bbt_key


def _attachment_path(
    attachment: ZoteroAttachment, data_dir: Path, base_dir: Path | None
) -> str | None:
    """Where the file is, as Zotero's `getFilePath` resolves it; None for a linked URL."""
    stored = attachment.path
    if attachment.link_mode == _LINKED_URL:
        return None
    if stored.startswith("storage:"):
        name = stored[len("storage:") :]
        relative = PurePosixPath(name.replace("\\", "/"))
        parts = relative.parts
        if (
            not parts
            or relative.is_absolute()
            or ".." in parts
            or name.startswith(".zotero")
            or not attachment.key.isalnum()
        ):
            return None  # Zotero's own bookkeeping, or a path that would leave storage/
        return str(data_dir / "storage" / attachment.key / Path(*parts))
    if stored.startswith("attachments:") and base_dir is not None:
        return str(base_dir / stored[len("attachments:") :].replace("\\", "/"))
    return stored  # a linked file's absolute path, or `attachments:` with no base folder


def item_to_paper(
    item: ZoteroItem, source: Source, data_dir: Path, base_dir: Path | None = None
) -> Paper | None:
    """One Zotero item as a paper; None when it has neither title nor abstract."""
    title = latex_to_unicode(item.fields.get("title")) or None
    abstract = latex_to_unicode(item.fields.get("abstractNote"))
    if not (title or abstract):
        return None
    entry_type = _ENTRY_TYPES.get(item.item_type, "misc")
    if entry_type == "phdthesis" and "master" in (_text(item, "type") or "").lower():
        entry_type = "mastersthesis"
    names, editors = [], []
    for creator in item.creators:
        name = _name(creator.first, creator.last, creator.single_field)
        if name is None:
            continue
        if creator.role == item.primary_role:
            names.append(name)
        elif creator.role in _EDITOR_ROLES:
            editors.append(name)
    container = _text(item, "publicationTitle")
    year, month = _date(item.fields.get("date"))
    doi = _text(item, "DOI") or _extra_line(item, "DOI")
    pages = _text(item, "pages")
    number = _text(item, "issue", "number")
    if number and _ARXIV.search(number):
        number = None  # a preprint's archive id ("arXiv:2101.00001") is its `arxiv`
    notes = tuple(text for text in (html_to_text(note) for note in item.notes) if text)
    attachments = (_attachment_path(a, data_dir, base_dir) for a in item.attachments)
    key = _citation_key(item)
    return Paper(
        id=key or "",
        title=title or "(untitled)",
        title_inferred=not title,
        authors=tuple(str(name) for name in names),
        names=tuple(names),
        editors=tuple(editors),
        year=year,
        month=month,
        venue=container
        or _text(item, "conferenceName")
        or (_text(item, "publisher") if entry_type in _PUBLISHER_IS_VENUE else None),
        entry_type=entry_type,
        booktitle=container if entry_type in _CONTAINER_TYPES else None,
        journal=container if entry_type in _JOURNAL_TYPES else None,
        volume=_text(item, "volume"),
        number=number,
        pages=pages.replace("–", "-").replace("--", "-") if pages else None,
        publisher=_text(item, "publisher"),
        doi=(_DOI_PREFIX.sub("", doi) or None) if doi else None,
        isbn=find_isbn(_text(item, "ISBN")),
        # Zotero's PubMed translator writes the id as Extra's `PMID: 123` line.
        pmid=find_pmid(_extra_line(item, "PMID")),
        arxiv=_arxiv(item),
        url=_text(item, "url"),
        abstract=abstract,
        keywords=tuple(dict.fromkeys(t for t in (clean_text(tag) for tag in item.tags) if t)),
        collections=tuple(clean_text(path) for path in item.collections),
        attachments=tuple(dict.fromkeys(path for path in attachments if path)),
        source_notes=notes,
        sources=(source,),
        citation_key=key,
        records=(_record(item, source, abstract),),
    )


def _record(item: ZoteroItem, source: Source, abstract: str) -> SourceRecord:
    """The item as Zotero holds it: every field, creators with their roles, tags,
    collections, attachments' stored paths (the abstract shares the paper's string)."""
    data: dict[str, object] = {"itemType": item.item_type, **item.fields}
    if item.fields.get("abstractNote") == abstract:
        data["abstractNote"] = abstract
    data["creators"] = [
        {"creatorType": c.role, "name": c.last}
        if c.single_field
        else {"creatorType": c.role, "firstName": c.first, "lastName": c.last}
        for c in item.creators
    ]
    if item.tags:
        data["tags"] = list(item.tags)
    if item.collections:
        data["collections"] = list(item.collections)
    if item.attachments:
        data["attachments"] = [a.path for a in item.attachments]
    if item.bbt_key:
        data["citationKey"] = item.bbt_key
    if item.group_id is not None:  # `zotero://select/groups/<groupID>/items/<key>`
        data["groupID"] = item.group_id
    return SourceRecord.of("zotero", item.item_type, item.key, json_fields(data), source)
