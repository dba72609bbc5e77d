"""Other formats as tools write them: RIS, Better BibTeX's native JSON, CSL-JSON dates and
rich text, arXiv metadata; each fixture is a small copy of a real pattern."""

from __future__ import annotations

import json
from pathlib import Path

from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.library.loaders import load_file
from index.library.loaders.csl_fields import csl_date, rich_text
from index.models import Name

TAXONOMY = load_taxonomy()

RIS = """TY  - JOUR
AU  - Emma, P.
AU  - Decker, F.-J.
AU  - SLAC National Accelerator Laboratory
TI  - First lasing and operation of an ångstrom-wavelength free-electron laser
JA  - Nature Photonics
PY  - 2010/08/01/online
VL  - 4
SP  - 641
EP  -
PB  - Nature Publishing Group
KW  - free-electron laser
KW  - X-rays
UR  - http://dx.doi.org/10.1038/nphoton.2010.176
L3  - 10.1038/nphoton.2010.176
ER  -

TY  - CONF
AU  - Doe, Jane
TI  - A Second Record
T2  - Proc. of Things
PY  - 2019
DO  - doi:10.1/two
AB  - We describe the second record of this file, which has an abstract.
ER  -
"""


def test_ris_records_become_papers(tmp_path: Path) -> None:
    (tmp_path / "export.ris").write_text(RIS)
    result = load_file(tmp_path / "export.ris", "export.ris")
    assert result.warnings == []
    first, second = result.papers
    assert first.title.startswith("First lasing") and first.sources[0].line == 1
    assert first.names == (
        Name(family="Emma", given="P."),
        Name(family="Decker", given="F.-J."),
        Name(literal="SLAC National Accelerator Laboratory"),
    )
    assert (first.year, first.journal, first.volume, first.pages) == (
        2010,
        "Nature Photonics",
        "4",
        "641",
    )
    assert first.doi == "10.1038/nphoton.2010.176"
    assert first.keywords == ("free-electron laser", "X-rays")
    assert (second.entry_type, second.booktitle, second.doi) == (
        "inproceedings",
        "Proc. of Things",
        "10.1/two",
    )
    assert second.sources[0].line == 18


def test_ris_in_a_named_file_of_another_suffix_is_read_as_ris(tmp_path: Path) -> None:
    (tmp_path / "citation.txt").write_text(RIS)
    library = load_library([tmp_path / "citation.txt"], TAXONOMY)
    assert [p.year for p in library.papers] == [2010, 2019]


def test_a_folder_picks_up_ris_files(tmp_path: Path) -> None:
    (tmp_path / "a.ris").write_text(RIS)
    assert len(load_library([tmp_path], TAXONOMY).papers) == 2


# Zotero's RIS export (one `L1` line per attached file, relative to the export's folder),
# EndNote's (`file://` URLs, an `internal-pdf://` that is EndNote's own), a publisher's
# (`L4` with a figure or a PDF on the web).
RIS_LINKS = """TY  - JOUR
TI  - Attached Files
AU  - Doe, Jane
PY  - 2021
L1  - files/12/Doe - 2021 - Attached Files.pdf
L1  - /home/me/Papers/doe2021-supplement.pdf
L4  - file:///home/me/Papers/fig%201.png
L4  - https://example.org/doe2021/figure1.png
ER  -

TY  - JOUR
TI  - Links Only On The Web
AU  - Roe, Richard
PY  - 2022
UR  - https://example.org/roe2022
L1  - internal-pdf://1234567890/roe2022.pdf;https://example.org/roe2022.pdf
ER  -

TY  - JOUR
TI  - A PDF On The Web And No Page
AU  - Poe, Edgar
PY  - 2023
L4  - https://example.org/poe2023.pdf
ER  -
"""


def test_ris_l1_and_l4_are_attachments_resolved_against_the_ris_folder(tmp_path: Path) -> None:
    (tmp_path / "export.ris").write_text(RIS_LINKS)
    result = load_file(tmp_path / "export.ris", str(tmp_path / "export.ris"))
    assert result.warnings == []
    first, second, third = result.papers
    assert first.attachments == (
        f"{tmp_path}/files/12/Doe - 2021 - Attached Files.pdf",
        "/home/me/Papers/doe2021-supplement.pdf",
        "/home/me/Papers/fig 1.png",
    )
    assert first.url == "https://example.org/doe2021/figure1.png"  # a web link, no file
    assert second.attachments == ()  # EndNote's internal link and a URL: no file here
    assert second.url == "https://example.org/roe2022"  # UR first
    assert (third.attachments, third.url) == ((), "https://example.org/poe2023.pdf")


def test_ris_attachments_survive_the_load(tmp_path: Path) -> None:
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "export.ris").write_text(RIS_LINKS)
    library = load_library([tmp_path / "refs"], TAXONOMY)
    by_title = {paper.title: paper for paper in library.papers}
    assert by_title["Attached Files"].attachments[0] == (
        f"{tmp_path}/refs/files/12/Doe - 2021 - Attached Files.pdf"
    )


BBT = {
    "config": {"id": "36a3b0b5-bad0-4a04-b79b-441c7cef77db", "label": "BetterBibTeX JSON"},
    "collections": {},
    "items": [
        {
            "itemType": "conferencePaper",
            "citationKey": "westfahl:space",
            "title": "The <i>True</i> Frontier",
            "creators": [
                {"creatorType": "author", "firstName": "Gary", "lastName": "Westfahl"},
                {"creatorType": "author", "name": "NASA"},
                {"creatorType": "editor", "firstName": "Ann", "lastName": "Lee"},
            ],
            "date": "2000-03",
            "proceedingsTitle": "Space and Beyond",
            "DOI": "https://doi.org/10.5/x",
            "abstractNote": "Space in American science fiction films, confronted and avoided.",
            "tags": [{"tag": "film"}, {"tag": "space", "type": 1}],
            "extra": "arXiv: 2401.01234",
            "notes": [{"note": "<p>Read <b>twice</b></p>"}],
            "attachments": [{"path": "/home/u/Zotero/storage/ABC/westfahl.pdf", "title": "PDF"}],
        }
    ],
}


def test_better_bibtex_json_keeps_authors_and_dates(tmp_path: Path) -> None:
    (tmp_path / "library.json").write_text(json.dumps(BBT))
    result = load_file(tmp_path / "library.json", "library.json")
    (paper,) = result.papers
    assert paper.names == (Name(family="Westfahl", given="Gary"), Name(literal="NASA"))
    assert paper.editors == (Name(family="Lee", given="Ann"),)
    assert (paper.year, paper.month, paper.booktitle) == (2000, 3, "Space and Beyond")
    assert (paper.title, paper.doi, paper.arxiv) == ("The True Frontier", "10.5/x", "2401.01234")
    assert paper.keywords == ("film", "space") and paper.citation_key == "westfahl:space"
    assert paper.source_notes == ("Read twice",)
    assert paper.attachments == ("/home/u/Zotero/storage/ABC/westfahl.pdf",)


def test_csl_dates_in_every_form() -> None:
    assert csl_date({"date-parts": [["2014", 12, 31], ["2015", 1, 1]]}) == (2014, 12)
    assert csl_date({"literal": "Spring 2001"}) == (2001, None)
    assert csl_date({"raw": "2020-05-01"}) == (2020, 5)
    assert csl_date({"literal": "n.d."}) == (None, None)
    assert csl_date({"date-parts": [["2016"]]}) == (2016, None)


def test_csl_rich_text_is_plain_text() -> None:
    assert (
        rich_text("Auslegung der <i>Prouerbia</i> und <i>Ecclesiastes</i>")
        == "Auslegung der Prouerbia und Ecclesiastes"
    )
    assert (
        rich_text('St. Germain ms. (g<sub>1</sub>), <span class="nocase">iPhone</span>')
        == "St. Germain ms. (g1), iPhone"
    )
    assert rich_text("a &amp; b < c") == "a & b < c"
    assert rich_text("<b>[bold]</b> [red]x[/red]") == "[bold] [red]x[/red]"  # kept literal


def test_csl_records_keep_name_parts_and_literal_dates(tmp_path: Path) -> None:
    (tmp_path / "items.json").write_text(
        json.dumps(
            [
                {
                    "id": "k1",
                    "type": "article-journal",
                    "title": "The <b>Huaynaputina</b> eruption",
                    "author": [
                        {"family": "Berg", "given": "J. A.", "non-dropping-particle": "van der"},
                        {"literal": "U.S. Geological Survey"},
                    ],
                    "issued": {"literal": "Autumn 2001"},
                    "container-title": "Bull. <i>Volc.</i>",
                    "DOI": "doi:10.1/v",
                    "keyword": "volcanoes, Peru",
                }
            ]
        )
    )
    (paper,) = load_file(tmp_path / "items.json", "items.json").papers
    assert paper.title == "The Huaynaputina eruption" and paper.journal == "Bull. Volc."
    assert paper.names == (
        Name(family="Berg", given="J. A.", particle="van der"),
        Name(literal="U.S. Geological Survey"),
    )
    assert (paper.year, paper.doi, paper.keywords) == (2001, "10.1/v", ("volcanoes", "Peru"))


def test_arxiv_metadata_categories_names_and_latex(tmp_path: Path) -> None:
    (tmp_path / "arxiv.jsonl").write_text(
        json.dumps(
            {
                "id": "0704.0001",
                "title": "Calculation of prompt diphoton production",
                "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", "Jr."]],
                "categories": "hep-ph cs.DC",
                "doi": "https://doi.org/10.1103/PhysRevD.76.013009",
                "abstract": "In $\\XQM$, a quark; see \\emph{this} and ``that''.",
                "journal-ref": "Phys.Rev.D76:013009,2007",
            }
        )
        + "\n"
    )
    (paper,) = load_file(tmp_path / "arxiv.jsonl", "arxiv.jsonl").papers
    assert paper.categories == ("hep-ph", "cs.DC") and paper.keywords == ()
    assert paper.names[1] == Name(family="Berger", given="E. L.", suffix="Jr.")
    assert paper.doi == "10.1103/PhysRevD.76.013009"
    assert paper.abstract == "In XQM, a quark; see this and \u201cthat\u201d."


def test_a_sidecar_doi_given_as_a_url_is_stored_bare(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text(
        "The analytical engine weaves algebraic patterns just as the Jacquard loom weaves "
        "flowers and leaves, and we describe its notes.\n"
    )
    (tmp_path / "notes.meta.json").write_text(
        json.dumps(
            {
                "format": "paperscope-metadata",
                "version": 1,
                "papers": [
                    {
                        "id": "engine",
                        "paragraphs": [0],
                        "title": "Sketch",
                        "doi": "https://doi.org/10.1/ENGINE",
                    }
                ],
            }
        )
    )
    (paper,) = load_library([tmp_path / "notes.txt"], TAXONOMY).papers
    assert paper.doi == "10.1/ENGINE"


def test_a_relative_ris_path_gives_absolute_attachments(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "export.ris").write_text(RIS_LINKS)
    monkeypatch.chdir(tmp_path)  # `paperscope --corpus export.ris`
    first = load_file(Path("export.ris"), "export.ris").papers[0]
    assert first.attachments[0] == f"{tmp_path}/files/12/Doe - 2021 - Attached Files.pdf"


def test_a_csl_record_with_no_author_or_date_keeps_its_doi_and_type(tmp_path: Path) -> None:
    # Zotero exports a web page or a standard with neither `author` nor `issued`.
    (tmp_path / "refs.json").write_text(
        json.dumps(
            [
                {
                    "id": "http://zotero.org/users/1/items/ABCD1234",
                    "citation-key": "iso:26324",
                    "type": "report",
                    "title": "Digital object identifier system",
                    "DOI": "https://doi.org/10.3403/30177056",
                    "URL": "https://www.iso.org/standard/81599.html",
                }
            ]
        )
    )
    (paper,) = load_file(tmp_path / "refs.json", "refs.json").papers
    assert (paper.doi, paper.entry_type, paper.url) == (
        "10.3403/30177056",
        "techreport",
        "https://www.iso.org/standard/81599.html",
    )
    assert paper.citation_key == "iso:26324"
