"""ISBNs and PubMed ids from RIS, a Zotero database and Better BibTeX's Zotero JSON.

A pasted ISBN or `pmid:` goes to its paper (issue 47) only if the loader kept the
identifier; BibTeX and CSL-JSON had theirs (test_loaders_bibtex, test_loaders_json), the
other formats put them where their exporters do: RIS in SN (an ISSN for a journal's
article), and a PubMed id as EndNote's and Ovid's accession number of a PubMed record or
as a `PMID: 123` note; Zotero in its ISBN field and Extra's `PMID: 123` line (its PubMed
translator's).
"""

from __future__ import annotations

import json
from pathlib import Path

from index.library.loaders.json_files import load_json
from index.library.loaders.ris import load_ris
from index.library.loaders.zotero import load_zotero
from tests.fixtures.zotero import ZoteroFixture

RIS = """\
TY  - BOOK
TI  - A book with its ISBN
SN  - 978-0-306-40615-7
ER  -

TY  - JOUR
TI  - An article with an ISSN
SN  - 0028-0836
ER  -

TY  - JOUR
TI  - EndNote from PubMed
AN  - 12345678
DB  - PubMed
ER  -

TY  - JOUR
TI  - Ovid from MEDLINE
AN  - 23456789
DP  - Ovid MEDLINE(R)
ER  -

TY  - JOUR
TI  - A note names it
N1  - PMCID: PMC3210
N1  - PMID: 34567890
ER  -

TY  - JOUR
TI  - In M1
M1  - PMID 45678901
ER  -

TY  - JOUR
TI  - Embase's accession number
AN  - 600123456
DB  - Embase
ER  -

TY  - JOUR
TI  - Web of Science's
AN  - WOS:000123456700001
ER  -
"""


def test_ris_isbn_in_sn_and_pubmed_ids_where_exports_put_them() -> None:
    papers, warnings = load_ris(RIS, "x.ris")
    assert warnings == []
    assert [(p.title, p.isbn, p.pmid) for p in papers] == [
        ("A book with its ISBN", "9780306406157", None),
        ("An article with an ISSN", None, None),
        ("EndNote from PubMed", None, "12345678"),
        ("Ovid from MEDLINE", None, "23456789"),
        ("A note names it", None, "34567890"),  # the PMCID is not it
        ("In M1", None, "45678901"),
        ("Embase's accession number", None, None),
        ("Web of Science's", None, None),
    ]


def test_zotero_database_isbn_field_and_pmid_in_extra(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "zotero")
    z.item("book", {"title": "A book", "ISBN": "0-306-40615-2", "date": "1990"})
    z.item(
        "journalArticle",
        {"title": "From PubMed", "extra": "PMCID: PMC3210\nPMID: 34567890", "date": "2020"},
    )
    z.item("journalArticle", {"title": "No ids", "ISBN": "not an isbn", "date": "2021"})
    papers, _ = load_zotero(z.close(), "z", home=tmp_path)
    found = {p.title: (p.isbn, p.pmid) for p in papers}
    assert found == {
        "A book": ("9780306406157", None),
        "From PubMed": (None, "34567890"),
        "No ids": (None, None),
    }


def test_better_bibtex_zotero_json_isbn_and_pmid() -> None:
    items = [
        {"itemType": "book", "title": "A book", "ISBN": "978-0-306-40615-7", "itemKey": "A"},
        {"itemType": "journalArticle", "title": "B", "extra": "PMID: 123", "itemKey": "B"},
    ]
    papers, _, _ = load_json(json.dumps({"config": {}, "items": items}), "z.json")
    assert [(p.isbn, p.pmid) for p in papers] == [("9780306406157", None), (None, "123")]
