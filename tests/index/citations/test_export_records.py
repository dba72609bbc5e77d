"""Exports copy what they can and carry every field the target holds; round trips keep them.

Fixtures reproduce the real patterns: biblatex-examples.bib's `knuth:ct:a` (maintitle,
location, langid) and `angenendt` (a two-part page range), an edited `@collection`, a
thesis with school and type, Better BibTeX's `file` fields, a CSL-JSON legal case.
"""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser
import pytest

from index.citations import citation_keys
from index.citations.export import export_text
from index.citations.record_facts import facts
from index.library.loaders.bibtex import parse_bibtex
from index.library.loaders.json_files import load_json
from index.library.loaders.ris import load_ris
from index.models import Paper, replace
from tests.index.library.test_records import BIB, LEGAL_CASE

ANGENENDT = r"""@article{angenendt,
  author = {Angenendt, Arnold},
  title = {In Honore Salvatoris~-- Vom Sinn und Unsinn der Patrozinienkunde},
  journaltitle = {Revue d'Histoire Eccl{\'e}siastique},
  date = 2002,
  volume = 97,
  pages = {431--456, 791--823},
  langid = {german},
}
"""

# A Better BibTeX export of a Papers3 library: a thesis with its school and type, files.
THESIS = r"""@phdthesis{Ekst04,
  author = {Ekstrom, Arne D.},
  title = {The cellular networks underlying human spatial navigation},
  school = {Brandeis University},
  type = {PhD thesis},
  year = {2004},
  month = may,
  abstract = {Place cells.},
  keywords = {navigation, hippocampus},
  file = {:/papers/ekstrom.pdf:PDF;:/papers/ekstrom-supp.pdf:PDF},
}
"""

# Converted (not copied), so every writer's mapping is exercised: a CSL-JSON book with
# everything a conversion must carry.
BOOK = {
    "id": "book1",
    "type": "book",
    "title": "Pattern-directed inference systems",
    "editor": [{"family": "Waterman", "given": "D. A."}, {"family": "Hayes-Roth", "given": "F."}],
    "issued": {"date-parts": [[1978, 5, 17]]},
    "publisher": "Academic Press",
    "publisher-place": "New York",
    "edition": "2",
    "collection-title": "Cognition and perception",
    "language": "en",
    "page": "431-456, 791-823",
    "abstract": "Rules.",
    "keyword": "inference, rules",
    "ISBN": "978-0-12-737550-2",
    "file": ":/papers/waterman.pdf:PDF",
}


def _bib(text: str) -> list[Paper]:
    return parse_bibtex(text, "lib.bib").papers


def _export(papers: list[Paper], fmt: str) -> str:
    return export_text(papers, fmt, citation_keys(papers))


def test_a_bib_entry_is_copied_with_its_strings_and_parents() -> None:
    papers = _bib(BIB)  # the @collection is a parent, not a paper of its own
    text = _export(papers, "biblatex")
    assert text.splitlines()[0] == "@string{aw = {Addison-Wesley}}"
    assert "  maintitle = {Computers \\& Typesetting},\n" in text
    assert "  location = {Reading, Mass.},\n  langid = {english}\n}" in text
    assert "  publisher = aw # { Inc.}," in text
    parsed = bibtexparser.parse_string(text)
    assert [e.key for e in parsed.entries] == ["knuth:ct:a", "chap", "coll"]
    assert parsed.entries[2].entry_type == "collection"  # the parent, after its child
    # Read back, every paper has the same record fields as it had.
    again = _bib(text)
    assert [p.records[0].fields for p in again] == [p.records[0].fields for p in papers]


def test_a_multi_part_page_range_keeps_every_part_in_every_format() -> None:
    (paper,) = _bib(ANGENENDT)
    assert "pages = {431--456, 791--823}" in _export([paper], "bibtex")
    converted = replace(paper, records=())  # as if it came from a source with no .bib text
    assert "pages        = {431--456, 791--823}" in _export([converted], "biblatex")
    assert "SP  - 431-456, 791-823" in _export([converted], "ris")
    assert json.loads(_export([converted], "csl-json"))[0]["page"] == "431-456, 791-823"
    assert "page-range: 431-456, 791-823" in _export([converted], "hayagriva")


def test_a_csl_collection_exports_as_a_collection_with_editors_only() -> None:
    item = {**BOOK, "type": "collection", "id": "coll"}
    (paper,), _, _ = load_json(json.dumps([item]), "c.json")
    text = _export([paper], "biblatex")
    (entry,) = bibtexparser.parse_string(text).entries
    assert entry.entry_type == "collection"
    assert "author" not in entry.fields_dict
    assert entry.fields_dict["editor"].value == "Waterman, D. A. and Hayes-Roth, F."


def test_a_thesis_and_its_files_reach_ris_and_csl_json() -> None:
    (paper,) = _bib(THESIS)
    ris = _export([paper], "ris")
    for line in (
        "M3  - PhD thesis",
        "L1  - /papers/ekstrom.pdf",
        "KW  - hippocampus",
        "DA  - 2004/05",
    ):
        assert line in ris.splitlines()
    (back,), _ = load_ris(ris, "x.ris")
    assert back.attachments == paper.attachments and back.month == 5
    item = json.loads(_export([paper], "csl-json"))[0]
    assert item["genre"] == "PhD thesis" and item["keyword"] == "navigation, hippocampus"
    (again,), _, _ = load_json(json.dumps([item]), "x.json")
    assert again.attachments == paper.attachments


def test_a_csl_json_item_is_copied_whole() -> None:
    (case,), _, _ = load_json(json.dumps(LEGAL_CASE), "cases.json")
    assert json.loads(_export([case], "csl-json")) == LEGAL_CASE


# What the README lists as not representable, per format (compared fields exclude them).
_FIELDS = ("title", "year", "month", "volume", "pages", "publisher", "abstract")


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "ris", "csl-json"])
def test_a_converted_paper_round_trips_with_every_field(fmt: str) -> None:
    (paper,), _, _ = load_json(json.dumps([BOOK]), "b.json")
    paper = replace(paper, records=tuple(r for r in paper.records if r.format != "csl-json"))
    # Without its CSL-JSON record the paper is converted, not copied; its facts come from
    # a RIS record holding the same facts, as a paper read from RIS would have them.
    (from_ris,), _ = load_ris(_export([_with_csl(paper)], "ris"), "b.ris")
    text = _export([from_ris], fmt)
    if fmt in ("bibtex", "biblatex"):
        (back,) = _bib(text)
    elif fmt == "ris":
        (back,), _ = load_ris(text, "b.ris")
    else:
        (back,), _, _ = load_json(text, "b.json")
    for name in _FIELDS:
        assert getattr(back, name) == getattr(from_ris, name), name
    assert back.editors == from_ris.editors  # editors stay editors (never authors too)
    assert set(back.keywords) == set(from_ris.keywords) == {"inference", "rules"}
    assert back.attachments == from_ris.attachments == ("/papers/waterman.pdf",)
    want, got = facts(from_ris), facts(back)
    assert (got.place, got.edition, got.series, got.isbn) == (
        "New York",
        "2",
        "Cognition and perception",
        "978-0-12-737550-2",
    )
    assert got.language == want.language == "en"
    if fmt != "bibtex":  # BibTeX's year and month have no day
        assert got.day == 17


def _with_csl(paper: Paper) -> Paper:
    (original,), _, _ = load_json(json.dumps([BOOK]), "b.json")
    return original


typst = pytest.importorskip("typst")


def test_typst_compiles_the_hayagriva_of_converted_papers(tmp_path: Path) -> None:
    (book,), _, _ = load_json(json.dumps([BOOK]), "b.json")
    papers = [book, *_bib(ANGENENDT), *_bib(THESIS), *_bib(BIB)]
    papers = [replace(p, records=p.records) for p in papers]
    keys = citation_keys(papers)
    (tmp_path / "refs.yml").write_text(export_text(papers, "hayagriva", keys), encoding="utf-8")
    cites = " ".join(f'#cite(label("{keys[p.id]}"))' for p in papers)
    document = tmp_path / "paper.typ"
    document.write_text(f'{cites}\n\n#bibliography("refs.yml", style: "apa")\n', encoding="utf-8")
    assert typst.compile(str(document)).startswith(b"%PDF")
