"""JSON records -> papers: arXiv metadata, CSL-JSON and paperscope's own field names.

Three shapes are common in the wild: the arXiv metadata dump (`authors` as one string plus
`authors_parsed`, `journal-ref`, `versions`), CSL-JSON from Zotero / Better BibTeX
(`author: [{family, given}]`, `issued: {date-parts}`, `container-title`, `DOI`) and a plain
record with paperscope's own `Paper` field names. Each is recognised by its keys, so a
file may even mix them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from index.library.attachments import parse_file_field
from index.library.identifiers import bare_doi, find_arxiv, find_isbn, find_pmid
from index.library.loaders.csl_fields import csl_date, csl_names, rich_text
from index.library.loaders.untitled import untitled_title
from index.library.loaders.zotero_items import is_zotero_item, zotero_item
from index.library.normalize import clean_text, latex_to_unicode
from index.models import Name, Paper, Source, SourceRecord, json_fields, replace

__all__ = ["as_strings", "record_to_paper"]

_CSL_TYPES = {
    "article-journal": "article",
    "article": "article",
    "paper-conference": "inproceedings",
    "chapter": "incollection",
    "book": "book",
    "thesis": "phdthesis",
    "report": "techreport",
    "webpage": "misc",
    "manuscript": "unpublished",
    "speech": "misc",
    "dataset": "misc",
}


# CSL 1.0.2's item types, so an item is known as CSL by its type alone.
CSL_TYPES = frozenset(
    {
        "article",
        "article-journal",
        "article-magazine",
        "article-newspaper",
        "bill",
        "book",
        "broadcast",
        "chapter",
        "classic",
        "collection",
        "dataset",
        "document",
        "entry",
        "entry-dictionary",
        "entry-encyclopedia",
        "event",
        "figure",
        "graphic",
        "hearing",
        "interview",
        "legal_case",
        "legislation",
        "manuscript",
        "map",
        "motion_picture",
        "musical_score",
        "pamphlet",
        "paper-conference",
        "patent",
        "performance",
        "periodical",
        "personal_communication",
        "post",
        "post-weblog",
        "regulation",
        "report",
        "review",
        "review-book",
        "software",
        "song",
        "speech",
        "standard",
        "thesis",
        "treaty",
        "webpage",
    }
)


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


def _arxiv_names(record: Mapping[str, Any]) -> tuple[tuple[Name, ...], bool]:
    """`authors_parsed` ([family, given, suffix] each) -> names; else the `authors` string."""
    parsed = record.get("authors_parsed")
    names: list[Name] = []
    if isinstance(parsed, list) and parsed:
        for part in parsed:
            if isinstance(part, list) and part:
                family, given, suffix = (latex_to_unicode(str(p)) for p in (*part, "", "")[:3])
                names.append(
                    Name(family=family, given=given, suffix=suffix)
                    if given
                    else Name(literal=family)
                )
    else:
        raw = latex_to_unicode(str(record.get("authors") or ""))
        for author in (a.strip() for a in re.split(r",\s*|\s+and\s+", raw) if a.strip()):
            words = author.split()
            names.append(
                Name(family=words[-1], given=" ".join(words[:-1]))
                if len(words) > 1
                else Name(literal=author)
            )
    complete = not any(str(n).lower() in ("others", "et al.", "et al") for n in names)
    return tuple(n for n in names if str(n).lower() not in ("others", "et al.", "et al")), complete


def _arxiv(record: Mapping[str, Any], source: Source) -> Paper:
    names, complete = _arxiv_names(record)
    versions = record.get("versions")
    first_version = (
        versions[0].get("created")
        if isinstance(versions, list) and versions and isinstance(versions[0], dict)
        else None
    )
    year = _year(first_version) or _year(record.get("update_date"))
    journal_ref = _text(record.get("journal-ref"))
    arxiv_id = clean_text(str(record.get("id") or "")) or None
    return Paper(
        id=arxiv_id or "",
        title=_text(record.get("title")) or "(untitled)",
        title_inferred=not record.get("title"),
        authors=tuple(str(name) for name in names),
        names=names,
        authors_complete=complete,
        year=year,
        venue=journal_ref or "arXiv preprint",  # journal-ref is free text: kept, not split
        entry_type="misc",
        doi=bare_doi(_text(record.get("doi"))),
        arxiv=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None,
        # Decoded like the title: `$\\XQM$`, `\\emph{}` and quotes become readable text.
        abstract=latex_to_unicode(str(record.get("abstract") or "")),
        categories=as_strings(str(record.get("categories") or "").replace(" ", ",")),
        sources=(source,),
    )


def _csl(record: Mapping[str, Any], source: Source) -> Paper:
    names, complete = csl_names(record.get("author"))
    editors, _ = csl_names(record.get("editor") or record.get("container-author"))
    year, month = csl_date(record.get("issued"))
    entry_type = _CSL_TYPES.get(str(record.get("type") or ""), "misc")
    container = rich_text(record.get("container-title")) or None
    title = rich_text(record.get("title"))
    url = _text(record.get("URL") or record.get("url"))
    if not title:  # a legal case, a personal communication: shown by what it says
        title = (
            untitled_title(
                names or editors,
                container,
                year,
                str(record.get("type") or "") or None,
                rich_text(record.get("authority")) or None,
            )
            # Else the work's other titles say what it is (a volume, a part, an event).
            or next(
                (
                    rich_text(record.get(name))
                    for name in _other_titles(record)
                    if rich_text(record.get(name))
                ),
                "",
            )
        )
        inferred = True
    else:
        inferred = False
    return Paper(
        id=clean_text(str(record.get("citation-key") or record.get("id") or "")),
        title=title or "(untitled)",
        title_inferred=inferred,
        authors=tuple(str(name) for name in names),
        names=names,
        editors=editors,
        authors_complete=complete,
        year=year,
        month=month,
        venue=container or rich_text(record.get("event") or record.get("event-title")) or None,
        entry_type=entry_type,
        booktitle=container if entry_type in ("inproceedings", "incollection") else None,
        journal=container if entry_type == "article" else None,
        volume=_text(record.get("volume")),
        number=_text(record.get("issue") or record.get("number")),
        pages=_text(record.get("page")),
        publisher=_text(record.get("publisher")),
        doi=bare_doi(_text(record.get("DOI") or record.get("doi"))),
        isbn=find_isbn(_text(record.get("ISBN") or record.get("isbn"))),
        pmid=find_pmid(_text(record.get("PMID") or record.get("pmid"))),
        arxiv=find_arxiv(
            eprint=_text(record.get("archive_location")),
            archive=_text(record.get("archive")) or "",
            journal=container,
            number=_text(record.get("number")),
            url=url,
        ),
        url=url,
        abstract=rich_text(record.get("abstract")),
        keywords=as_strings(record.get("keyword") or record.get("keywords")),
        # Not in the CSL spec; some exporters add JabRef's `file` form.
        attachments=parse_file_field(record["file"], Path(source.path).parent)
        if isinstance(record.get("file"), str)
        else (),
        sources=(source,),
        citation_key=clean_text(str(record.get("citation-key") or "")) or None,
    )


def _plain(record: Mapping[str, Any], source: Source) -> Paper:
    """A record using `Paper`'s own field names (what `paperscope list --json` prints)."""
    authors = record.get("authors")
    names = as_strings(
        authors if isinstance(authors, list) else re.split(r"\s+and\s+|,\s*", str(authors or ""))
    )
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
        doi=bare_doi(_text(record.get("doi"))),
        arxiv=_text(record.get("arxiv")),
        url=_text(record.get("url")),
        abstract=latex_to_unicode(str(record.get("abstract") or "")),
        keywords=tuple(dict.fromkeys(keywords)),
        sources=(source,),
        citation_key=_text(record.get("citation_key")),
        note=_text(record.get("note")),
    )


# Members that identify a work without a title: a legal case (court, reporter, date), a
# personal communication (a person, a day), an interview, a patent.
_IDENTIFYING = (
    "author",
    "editor",
    "authority",
    "container-title",
    "issued",
    "DOI",
    "URL",
    "recipient",
    "interviewer",
    "composer",
    "director",
    "creators",
    "authors",
    "number",
)


def _describes_a_work(record: Mapping[str, Any]) -> bool:
    """A title, an abstract, or something else that names a work (see `_IDENTIFYING`):
    CSL's other titles too (a volume's, a part's, the original's, a reviewed work's)."""
    if record.get("title") or record.get("abstract") or record.get("abstractNote"):
        return True
    if any(record.get(name) for name in _IDENTIFYING):
        return True
    return any(name.endswith("-title") and record.get(name) for name in _other_titles(record))


def _other_titles(record: Mapping[str, Any]) -> list[str]:
    """The record's CSL title variables but `title` (`volume-title`, `event-title`...)."""
    return [name for name in record if isinstance(name, str) and name.endswith("-title")]


_PAPER_FIELDS = frozenset(Paper.__dataclass_fields__)


def _kept(paper: Paper, record: Mapping[str, Any], fmt: str, kind: str, key: str) -> Paper:
    """`paper` with the record it was read from, every member in order.

    A record in paperscope's own field names (`list --json`, `export --format jsonl`)
    keeps only the members `Paper` has no field for, and is not kept when there are none:
    the others are the paper itself, and a second copy of every abstract would double a
    big JSONL library's memory and cache.
    """
    earlier: tuple[SourceRecord, ...] = ()
    if fmt == "json":
        # A paperscope export carries the records its papers were read from: kept, so a
        # .bib entry exported to JSON Lines and read back is still copied as written.
        given = record.get("records")
        if isinstance(given, list):
            earlier = tuple(SourceRecord.from_dict(r) for r in given if isinstance(r, Mapping))
        record = {name: value for name, value in record.items() if name not in _PAPER_FIELDS}
        if not record:  # nothing but the paper itself: no record (no cost on a big JSONL)
            return replace(paper, records=earlier) if earlier else paper
    kept = SourceRecord.of(
        fmt, kind, key, json_fields(record), paper.sources[0] if paper.sources else None
    )
    return replace(paper, records=(*earlier, kept))


def record_to_paper(record: Mapping[str, Any], source: Source) -> Paper | None:
    """The paper a JSON object describes, or None when it describes none: no title, no
    abstract, nothing else that identifies a work (a legal case without a title is one)."""
    if not _describes_a_work(record):
        return None
    if is_zotero_item(record):
        paper = zotero_item(record, source)
        fmt, kind = "zotero", str(record.get("itemType"))
        key = str(record.get("citationKey") or record.get("key") or "")
    elif (
        "authors_parsed" in record
        or "journal-ref" in record
        # arXiv's categories are one string; paperscope's own records have a list
        or isinstance(record.get("categories"), str)
    ):
        paper = _arxiv(record, source)
        fmt, kind, key = "arxiv", "", str(record.get("id") or "")
    elif (
        "container-title" in record
        or "issued" in record
        or isinstance(record.get("author"), list)
        # CSL's own upper-case variables: a web page or an undated item has no other mark
        or "DOI" in record
        or "URL" in record
        or "authority" in record
        or str(record.get("type") or "") in CSL_TYPES
    ):
        paper = _csl(record, source)
        fmt, kind, key = "csl-json", str(record.get("type") or ""), str(record.get("id") or "")
    else:
        paper = _plain(record, source)
        fmt, kind = "json", str(record.get("entry_type") or "")
        key = str(record.get("id") or record.get("citation_key") or "")
    paper = _kept(paper, record, fmt, kind, key)
    extra = sum((as_strings(record.get(k)) for k in ("topics", "hardware")), ())
    if extra:
        paper = replace(paper, keywords=tuple(dict.fromkeys(paper.keywords + extra)))
    return paper
