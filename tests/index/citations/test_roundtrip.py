"""Every bundled paper's BibTeX and RIS parse back, with real parsers, to the paper's facts."""

from __future__ import annotations

from functools import lru_cache

import bibtexparser
import pytest
import rispy
from bibtexparser import middlewares

from index.citations import citation_keys, format_citation
from index.citations.fields import (
    cited_title,
    container,
    how_published,
    page_range,
    split_name,
)
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.models import Paper


@lru_cache(maxsize=1)
def bundled() -> tuple[Paper, ...]:
    return load_library(None, load_taxonomy()).papers


@lru_cache(maxsize=1)
def keys() -> dict[str, str]:
    return citation_keys(bundled())


def test_the_bundled_library_is_all_there() -> None:
    assert len(bundled()) == 47


def test_keys_are_unique_and_bibtex_safe() -> None:
    values = list(keys().values())
    assert len(set(values)) == len(values) == 47
    assert all(value.isascii() and value.replace("-", "").isalnum() for value in values)
    assert keys()["dynapipe"] == "jiang2024dynapipe"


def _decoded(text: str) -> bibtexparser.Library:
    return bibtexparser.parse_string(
        text,
        append_middleware=[
            middlewares.LatexDecodingMiddleware(),
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
        ],
    )


def _text(value: str) -> str:
    # pylatexenc decodes \textasciicircum to U+02C6, the spacing circumflex LaTeX prints.
    return " ".join(value.replace("\u02c6", "^").split())


@pytest.mark.parametrize("dialect", ["bibtex", "biblatex"])
@pytest.mark.parametrize("paper", bundled(), ids=lambda paper: paper.id)
def test_bib_parses_back_to_the_same_fields(paper: Paper, dialect: str) -> None:
    text = format_citation([paper], dialect, keys=keys())
    raw = bibtexparser.parse_string(text)
    assert not raw.failed_blocks
    (entry,) = _decoded(text).entries
    (raw_entry,) = raw.entries
    fields = entry.fields_dict
    assert entry.key == keys()[paper.id]
    assert _text(fields["title"].value) == cited_title(paper)
    names = (
        [" ".join(n.first + n.von + n.last + n.jr) for n in fields["author"].value]
        if "author" in fields
        else []
    )
    expected = [
        " ".join(
            filter(None, (split_name(a).given, split_name(a).family_full, split_name(a).suffix))
        )
        for a in paper.authors
    ]
    assert names == expected + (["others"] if paper.authors and not paper.authors_complete else [])
    year = fields["year" if dialect == "bibtex" else "date"].value if paper.year else None
    assert year == (str(paper.year) if paper.year else None)
    venue = fields.get("booktitle") or fields.get("journal") or fields.get("journaltitle")
    assert (_text(venue.value) if venue else None) == container(paper)
    raw_fields = raw_entry.fields_dict
    for name, value in (
        ("doi", paper.doi),
        ("eprint", paper.arxiv),
        ("url", paper.url),
        ("volume", paper.volume),
        ("number", paper.number),
    ):
        assert (raw_fields[name].value if name in raw_fields else None) == value
    first, last = page_range(paper)
    pages = f"{first}--{last}" if last else first
    assert (raw_fields["pages"].value if "pages" in raw_fields else None) == pages
    assert all(field.value.strip() for field in raw_entry.fields)  # never an empty field


def test_whole_library_bibtex_parses_as_47_entries() -> None:
    text = format_citation(bundled(), "bibtex", keys=keys())
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    assert [entry.key for entry in library.entries] == [keys()[p.id] for p in bundled()]


@pytest.mark.parametrize("paper", bundled(), ids=lambda paper: paper.id)
def test_ris_parses_back_to_the_same_fields(paper: Paper) -> None:
    (record,) = rispy.loads(format_citation([paper], "ris", keys=keys()))
    assert record["id"] == keys()[paper.id]
    assert record["title"] == cited_title(paper)
    assert record.get("authors", []) == [
        ", ".join(
            filter(None, (split_name(a).family_full, split_name(a).given, split_name(a).suffix))
        )
        for a in paper.authors
    ]
    assert record.get("year") == (str(paper.year) if paper.year else None)
    assert record.get("doi") == paper.doi
    assert record.get("secondary_title") == (container(paper) or how_published(paper))
    first, last = page_range(paper)
    assert (record.get("start_page"), record.get("end_page")) == (first, last)
    assert record.get("abstract") == (" ".join(paper.abstract.split()) or None)
    if paper.url:
        assert record["urls"] == [paper.url]
    notes = record.get("notes", [])
    assert ("Author list incomplete" in notes) == (
        bool(paper.authors) and not paper.authors_complete
    )
    assert any("inferred" in note for note in notes) == paper.title_inferred


def test_whole_library_ris_parses_as_47_records() -> None:
    records = rispy.loads(format_citation(bundled(), "ris", keys=keys()))
    assert [record["id"] for record in records] == [keys()[p.id] for p in bundled()]
