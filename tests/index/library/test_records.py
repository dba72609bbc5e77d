"""Each source's record stays with its paper: fields as written, in order, mergeable, cached."""

from __future__ import annotations

import json
import pickle

from index.library.dedupe import merge_group
from index.library.loaders.bibtex import parse_bibtex
from index.library.loaders.json_files import load_json
from index.library.loaders.ris import load_ris
from index.models import Paper

BIB = r"""@string{aw = {Addison-Wesley}}
@book{knuth:ct:a,
  author = {Knuth, Donald E.},
  title = {The {\TeX book}},
  date = 1984,
  maintitle = {Computers \& Typesetting},
  volume = {A},
  publisher = aw # { Inc.},
  location = {Reading, Mass.},
  langid = {english},
}
@incollection{chap,
  Author = "Westfahl, Gary",
  title = {The True Frontier},
  pages = {55--65},
  crossref = {coll},
}
@collection{coll,
  editor = {Westfahl, Gary},
  title = {Space and Beyond},
  date = 2000,
  publisher = aw,
}
"""

LEGAL_CASE = [
    {
        "id": "brown",
        "type": "legal_case",
        "authority": "Supreme Court",
        "container-title": "U.S. Reports",
        "volume": "468",
        "page": "491",
        "issued": {"date-parts": [[1984, 6, 27]]},
        "jurisdiction": "us",
    }
]


def test_a_bibtex_record_keeps_every_field_as_written_with_its_macros_and_parents() -> None:
    papers = {p.id: p for p in parse_bibtex(BIB, "lib.bib").papers}
    knuth = papers["knuth:ct:a"].records[0]
    assert (knuth.format, knuth.type, knuth.key) == ("bibtex", "book", "knuth:ct:a")
    assert [name for name, _ in knuth.fields] == [
        "author",
        "title",
        "date",
        "maintitle",
        "volume",
        "publisher",
        "location",
        "langid",
    ]
    assert knuth.get("title") == r"{The {\TeX book}}"
    assert knuth.get("PUBLISHER") == "aw # { Inc.}"
    assert knuth.strings == (("aw", "{Addison-Wesley}"),)
    assert knuth.source is not None and knuth.source.line == 2
    chapter = papers["chap"].records[0]
    assert chapter.fields[0] == ("Author", '"Westfahl, Gary"')  # the name as written
    assert [parent.key for parent in chapter.parents] == ["coll"]
    assert chapter.parents[0].strings == (("aw", "{Addison-Wesley}"),)
    assert chapter.bibtex().startswith('@incollection{chap,\n  Author = "Westfahl, Gary",')


def test_a_csl_legal_case_without_a_title_is_a_paper_and_keeps_its_item() -> None:
    papers, _, warnings = load_json(json.dumps(LEGAL_CASE), "cases.json")
    assert warnings == []
    (case,) = papers
    assert case.title_inferred
    assert case.title == "Supreme Court, U.S. Reports, 1984 (legal case)"
    (record,) = case.records
    assert (record.format, record.type, record.key) == ("csl-json", "legal_case", "brown")
    assert record.item() == LEGAL_CASE[0]  # authority, jurisdiction, the day: all kept


def test_a_ris_record_keeps_every_tag_line_in_order() -> None:
    text = (
        "TY  - CASE\nAU  - Doe, Jane\nAU  - Roe, Rick\nPY  - 2010/08/01\nCY  - Boston\n"
        "AB  - First line\nsecond line\nER  - \n"
    )
    (paper,), warnings = load_ris(text, "x.ris")
    assert warnings == [] and paper.month == 8
    assert paper.records[0].type == "CASE"
    assert paper.records[0].fields == (
        ("TY", "CASE"),
        ("AU", "Doe, Jane"),
        ("AU", "Roe, Rick"),
        ("PY", "2010/08/01"),
        ("CY", "Boston"),
        ("AB", "First line\nsecond line"),
    )
    assert paper.title_inferred and paper.title == "Doe et al., 2010 (case)"


def test_records_survive_merging_pickling_and_json() -> None:
    bib = parse_bibtex(BIB, "lib.bib").papers[0]
    case = load_json(json.dumps(LEGAL_CASE), "cases.json")[0][0]
    merged = merge_group([bib, case], ["same work"])
    assert [r.format for r in merged.records] == ["bibtex", "csl-json"]
    assert pickle.loads(pickle.dumps(merged)) == merged
    assert Paper.from_dict(json.loads(json.dumps(merged.to_dict()))) == merged
    hash(merged)  # papers key the citation cache
