"""Papers as CSL-JSON, the input every CSL processor (pandoc, citeproc-js, Zotero) reads.

The same records feed the `csl-json` export and the formatted styles, so APA and the
exported file can never disagree about a paper's type, container or identifiers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from index.citations.fields import (
    arxiv_url,
    cited_title,
    container,
    how_published,
    kind,
    notes,
    page_range,
    paper_names,
    venue_name,
)
from index.models import Name, Paper

# CSL 1.0.2 types; "article" is CSL's type for a preprint.
_CSL_TYPES = {
    "conference": "paper-conference",
    "journal": "article-journal",
    "preprint": "article",
    "tutorial": "speech",
    "book": "book",
    "chapter": "chapter",
    "thesis": "thesis",
    "report": "report",
    "misc": "document",
}


# What BibTeX's `number` is, by kind of work: a journal's issue; a book's, chapter's or
# proceedings paper's number in a series; any other work's own number (a report's, a
# database record's). As an `issue` everywhere, APA printed a book as "(K. P. Bland, Ed.;
# Issue 7)" and a report as "(Issue TR-42)".
_NUMBER_AS = {
    "journal": "issue",
    "book": "collection-number",
    "chapter": "collection-number",
    "conference": "collection-number",
}


# An article number: "e1005209", "S0140673620301835", "104728a"; not "doi.org/10.1609/x"
# (a link in a pages field) nor a plain page number.
_ELOCATOR = re.compile(r"(?=.*\d)(?!\d+$)[A-Za-z]{0,3}\d+[A-Za-z]?")

# A thesis's kind, as pandoc (and Better BibTeX) map BibTeX's entry types to CSL `genre`.
_GENRES = {"phdthesis": "PhD thesis", "mastersthesis": "Master\u2019s thesis"}


def csl_name(name: Name) -> dict[str, str]:
    """One CSL name object: a literal stays whole, a particle is non-dropping.

    "van der Berg" and "de Vries" keep their particle in front of the family name in
    every style (APA sorts "van der Berg" under V), which is CSL's non-dropping particle.
    """
    if name.literal or not (name.given or name.particle):
        return {"literal": name.literal or name.family}
    record = {"family": name.family, "given": name.given}
    if name.particle:
        record["non-dropping-particle"] = name.particle
    if name.suffix:
        record["suffix"] = name.suffix
    return {key: value for key, value in record.items() if value}


def csl_names(paper: Paper) -> list[dict[str, str]]:
    """Authors as CSL name objects, from their parts (`fields.paper_names`)."""
    return [csl_name(name) for name in paper_names(paper)]


def csl_item(paper: Paper, key: str) -> dict[str, Any]:
    """One CSL-JSON item. Unknown facts are left out, never filled with a guess.

    A preprint gets `publisher: arXiv` and `number: arXiv:ID`, which is how the APA and
    Chicago styles name a preprint server and its identifier; its URL is the arXiv page.
    """
    paper_kind = kind(paper)
    item: dict[str, Any] = {
        "id": key,
        "citation-key": key,
        "type": _CSL_TYPES[paper_kind],
        "title": cited_title(paper),
    }
    if paper.authors:
        item["author"] = csl_names(paper)
    if paper.editors and paper_kind in ("conference", "chapter", "book"):
        item["editor"] = [csl_name(name) for name in paper.editors]
    if paper.year is not None:
        parts = [paper.year] + ([paper.month] if paper.month else [])
        item["issued"] = {"date-parts": [parts]}
    venue = container(paper)
    if venue:
        item["container-title"] = venue
    presented = how_published(paper)
    if presented:
        item["event"] = presented  # CSL 1.0.1's name; 1.0.2 also reads it as event-title
        if paper_kind == "tutorial":
            item["genre"] = "Tutorial"
    first, last = page_range(paper)
    if paper_kind == "journal" and first and not last and _ELOCATOR.fullmatch(first):
        # "e1005209" is an article number (an eLocator), not a page: CSL calls it `number`,
        # and the styles print "Article e1005209" (APA) or "Art. no. e1005209" (IEEE).
        item["number"] = first
    elif first:
        item["page"] = f"{first}-{last}" if last else first
    if paper.volume:
        item["volume"] = paper.volume
    if paper.number:
        item[_NUMBER_AS.get(paper_kind, "number")] = paper.number
    if paper.publisher:
        item["publisher"] = paper.publisher
    elif paper_kind in ("thesis", "report") and paper.venue:
        # A thesis's school and a report's institution are who published it (CSL has no
        # field of their own for them); as a venue nothing printed them.
        item["publisher"] = venue_name(paper.venue)
    genre = _GENRES.get(paper.entry_type.casefold())
    if genre and paper_kind == "thesis":
        item["genre"] = genre
    if paper.doi:
        item["DOI"] = paper.doi
    if paper_kind == "preprint" and paper.arxiv:
        item.setdefault("publisher", "arXiv")
        item["number"] = f"arXiv:{paper.arxiv}"
        item["URL"] = arxiv_url(paper.arxiv)
    elif paper.url:
        item["URL"] = paper.url
    elif paper.arxiv and not paper.doi:
        # The arXiv page is the one public link to a paper with no DOI and no URL.
        item["URL"] = arxiv_url(paper.arxiv)
    if paper.arxiv:
        item["archive"] = "arXiv"
        item["archive_location"] = paper.arxiv
    if paper.short_name:
        item["title-short"] = paper.short_name
    remarks = notes(paper)
    if remarks:
        item["note"] = "; ".join(remarks)
    if paper.abstract:
        item["abstract"] = paper.abstract
    return item


def csl_json(papers: Sequence[Paper], keys: dict[str, str]) -> str:
    """A CSL-JSON array (the format is always an array, even for one paper)."""
    items = [csl_item(paper, keys[paper.id]) for paper in papers]
    return json.dumps(items, ensure_ascii=False, indent=2)
