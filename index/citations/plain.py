"""RIS, a Markdown link and a plain-text line: the formats that are not CSL styles.

RIS is a tagged interchange format (reference managers import it), and the Markdown and
plain lines are for notes and chat, where a full reference would be noise. None of them is
a citation style with rules to get right, so they are written directly.
"""

from __future__ import annotations

from collections.abc import Sequence

from index.author_lists import author_list
from index.citations.bibtex import bib_pages
from index.citations.fields import (
    arxiv_url,
    best_link,
    cited_title,
    container,
    how_published,
    kind,
    notes,
    page_range,
    paper_names,
    venue_name,
)
from index.citations.record_facts import facts
from index.models import Name, Paper

_RIS_TYPES = {
    "conference": "CPAPER",
    "journal": "JOUR",
    "preprint": "UNPB",
    "tutorial": "GEN",
    "book": "BOOK",
    "chapter": "CHAP",
    "thesis": "THES",
    "report": "RPRT",
    "misc": "GEN",
}


def _ris_name(name: Name) -> str:
    """`Family, Given, Suffix`, or an institution's name whole."""
    return name.literal or ", ".join(p for p in (name.family_full, name.given, name.suffix) if p)


def ris_record(paper: Paper, key: str) -> str:
    """One RIS record, `TY` first and `ER` last, as the format requires.

    RIS cannot say "and others", so a cut author list is stated in a note (`N1`).
    """
    copied = next((record for record in paper.records if record.format == "ris"), None)
    if copied is not None:  # read from RIS: every tag line as the file has it
        lines = [
            f"TY  - {copied.type}",
            *(f"{tag}  - {value}" for tag, value in copied.fields if tag != "TY"),
        ]
        return "\n".join(line.rstrip() for line in lines) + "\nER  - "
    first, last = page_range(paper)
    if paper.pages and "," in paper.pages:  # "431-456, 791-823": every part, in SP
        first, last = (bib_pages(paper) or "").replace("--", "-"), None
    extra = facts(paper)
    paper_kind = kind(paper)
    url = paper.url or (arxiv_url(paper.arxiv) if paper.arxiv else None)
    tags: list[tuple[str, str | None]] = [("TY", _RIS_TYPES[paper_kind]), ("ID", key)]
    tags += [("AU", _ris_name(name)) for name in paper_names(paper)]
    # The book's or proceedings' editors, as Zotero writes them and our RIS reader reads.
    tags += [("A2", _ris_name(name)) for name in paper.editors]
    tags += [("A4", _ris_name(name)) for name in extra.translators]  # Zotero's translator
    tags += [
        ("TI", cited_title(paper)),
        ("T2", container(paper) or how_published(paper)),
        ("PY", str(paper.year) if paper.year is not None else None),
        ("DA", _ris_date(paper.year, paper.month, extra.day)),
        ("VL", paper.volume),
        ("IS", paper.number),
        ("SP", first),
        ("EP", last),
        ("PB", paper.publisher or ("arXiv" if paper_kind == "preprint" else None)),
        ("CY", extra.place),
        ("ET", extra.edition),
        ("T3", extra.series),
        ("M3", extra.genre),
        ("LA", extra.language),
        ("SN", extra.isbn or extra.issn),
        ("Y2", extra.urldate),
        ("DO", paper.doi),
        ("UR", url),
        ("AN", f"arXiv:{paper.arxiv}" if paper.arxiv else None),
        ("AB", " ".join(paper.abstract.split()) or None),
    ]
    tags += [("KW", keyword) for keyword in paper.keywords]
    tags += [("L1", path) for path in paper.attachments]
    tags += [("N1", remark) for remark in notes(paper)]
    tags.append(("ER", ""))
    return "\n".join(
        f"{tag}  - {value}".rstrip() + ("" if tag != "ER" else " ")
        for tag, value in tags
        if value is not None
    )


def _ris_date(year: int | None, month: int | None, day: int | None) -> str | None:
    """RIS's `DA` (`YYYY/MM/DD`), as far as the date is known; None for a year alone."""
    if year is None or not month:
        return None
    return f"{year}/{month:02d}/{day:02d}" if day else f"{year}/{month:02d}"


def ris_records(papers: Sequence[Paper], keys: dict[str, str]) -> str:
    return "\n\n".join(ris_record(paper, keys[paper.id]) for paper in papers)


def _author_line(paper: Paper) -> str:
    return author_list(paper, 3, et_al=" et al.", last=" and ", unknown="Unknown authors")


def _venue_year(paper: Paper) -> str:
    venue = venue_name(paper.venue or "") or container(paper) or ""
    if not venue and kind(paper) == "preprint":
        venue = "arXiv preprint"
    year = str(paper.year) if paper.year is not None else "n.d."
    if venue and paper.year is not None and year in venue:
        return venue
    return f"{venue}, {year}" if venue else year


def markdown_link(paper: Paper) -> str:
    """`[Title](link) - Authors, Venue Year`; the title is plain text when there is no link."""
    title = cited_title(paper).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    link = best_link(paper)
    head = f"[{title}]({link})" if link else title
    return f"{head} - {_author_line(paper)}, {_venue_year(paper)}"


def plain_line(paper: Paper) -> str:
    """Authors, title, venue and year, and the link: one readable line."""
    authors = _author_line(paper)
    parts = [
        authors if authors.endswith(".") else authors + ".",
        cited_title(paper).rstrip(".") + ".",
        _venue_year(paper).rstrip(".") + ".",
    ]
    link = best_link(paper)
    if link:
        parts.append(link)
    return " ".join(parts)
