"""BibTeX as people write it: each case is a small copy of a pattern from a real export
(Better BibTeX, Mendeley, Papers3, a lab's shared .bib, BibLaTeX's examples, PMLR)."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.citations import format_citation
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.library.loaders.bibtex import load_bibtex, parse_bibtex
from index.models import Name, replace

TAXONOMY = load_taxonomy()


def _one(text: str):
    papers, warnings = load_bibtex(text, "x.bib")
    assert len(papers) == 1, papers
    return papers[0], [str(w) for w in warnings]


CROSSREF = r"""
@incollection{westfahl:space,
  author   = {Westfahl, Gary},
  title    = {The True Frontier},
  subtitle = {Confronting the Realities of Space},
  pages    = {55-65},
  crossref = {westfahl:frontier},
}
@collection{westfahl:frontier,
  editor    = {Westfahl, Gary},
  title     = {Space and Beyond},
  date      = 2000,
  publisher = {Greenwood},
  doi       = {10.9/the-book},
}
"""


def test_crossref_children_inherit_and_the_parent_is_not_a_paper() -> None:
    paper, warnings = _one(CROSSREF)
    assert warnings == []
    assert paper.title == "The True Frontier: Confronting the Realities of Space"
    assert (paper.year, paper.booktitle, paper.publisher) == (2000, "Space and Beyond", "Greenwood")
    assert paper.editors == (Name(family="Westfahl", given="Gary"),)
    assert paper.doi is None  # the book's DOI is the book's, not the chapter's
    assert paper.citation_key == "westfahl:space"


def test_a_parent_with_its_own_abstract_is_a_paper_too() -> None:
    text = CROSSREF.replace(
        "publisher = {Greenwood},",
        "publisher = {Greenwood}, abstract = {Essays on the frontier theme in science fiction.},",
    )
    papers, _ = load_bibtex(text, "x.bib")
    assert [p.citation_key for p in papers] == ["westfahl:space", "westfahl:frontier"]


def test_xdata_supplies_fields_and_is_never_a_paper() -> None:
    paper, _ = _one(r"""
@xdata{hup, publisher = {Harvard University Press}, location = {Cambridge}, year = 1987}
@book{a, author = {Doe, Jane}, title = {A Book}, xdata = {hup}}
""")
    assert (paper.publisher, paper.year) == ("Harvard University Press", 1987)


def test_pmlr_volume_supplies_booktitle_and_year() -> None:
    papers, warnings = load_bibtex(
        r"""
@Proceedings{COLT-2019,
  booktitle = {Proceedings of the Thirty-Second Conference on Learning Theory},
  editor = {Beygelzimer, Alina and Hsu, Daniel}, volume = {99}, year = {2019},
  publisher = {PMLR}, series = {Proceedings of Machine Learning Research}}
@InProceedings{pmlr-v99-a19a, title = {Bandits Again}, author = {Abbasi, Yasin},
  pages = {1--2}, abstract = {We study bandits once more.}}
@InProceedings{pmlr-v99-b19a, title = {Learning Twice}, author = {Bach, Francis}}
""",
        "pmlr.bib",
    )
    assert warnings == []
    assert [p.title for p in papers] == ["Bandits Again", "Learning Twice"]
    assert all(p.year == 2019 and p.volume == "99" for p in papers)
    assert papers[0].booktitle == "Proceedings of the Thirty-Second Conference on Learning Theory"
    assert papers[0].editors[1] == Name(family="Hsu", given="Daniel")


def test_a_set_is_not_a_paper() -> None:
    paper, _ = _one("@set{stdmodel, entryset = {a,b}}\n@article{a, title={One}}\n")
    assert paper.title == "One"


@pytest.mark.parametrize(
    ("year", "expected", "month"),
    [
        ("{January 1978}", 1978, 1),
        ("{Autumn 2001}", 2001, None),
        ("{6}", None, None),
        ("2021", 2021, None),
        ("{2020-05-01}", 2020, 5),
        ("{to appear}", None, None),
    ],
)
def test_years_as_people_write_them(year: str, expected: int | None, month: int | None) -> None:
    paper, _ = _one(f"@article{{k, title={{T}}, year = {year}}}\n")
    assert (paper.year, paper.month) == (expected, month)


def test_a_file_of_only_strings_is_not_a_problem() -> None:
    result = parse_bibtex("@string{cvpr = {IEEE Conference on Computer Vision}}\n", "s.bib")
    assert result.papers == [] and result.warnings == []
    assert result.strings == {"cvpr": "IEEE Conference on Computer Vision"}


def test_keyless_entries_are_named_as_such() -> None:
    paper, warnings = _one("\n@article{,\n  title = {No Key Here}, author = {Doe, J.}}\n")
    assert warnings == [
        "x.bib:2: @article{, has no key; loaded with an id made from its authors and title"
    ]
    assert paper.citation_key is None


def test_an_escaped_brace_does_not_glue_names() -> None:
    paper, _ = _one(r"@article{k, title={T}, author = {Doe, J\{ohn and Smith, Anna}}")
    assert [n.family for n in paper.names] == ["Doe", "Smith"]


def test_readable_text_from_citations_emphasis_and_quotes() -> None:
    paper, _ = _one(
        r"@article{k, title = {A {\em new} look at ``old'' `data'},"
        r" abstract = {As shown~\citep{smith}, $\XQM$ helps.}}"
    )
    assert paper.title == "A new look at \u201cold\u201d \u2018data\u2019"
    assert paper.abstract == "As shown [smith], XQM helps."


def test_undefined_macros_are_reported_once_each() -> None:
    text = "".join(f"@inproceedings{{p{n}, title={{T{n}}}, booktitle = cvpr}}\n" for n in range(50))
    result = parse_bibtex(text, "x.bib")
    assert [str(w) for w in result.warnings] == [
        "x.bib:1: 50 entries use undefined @string macro 'cvpr' (first entry 'p0'); kept as written"
    ]
    assert result.undefined == {"cvpr"}


def test_string_macros_are_shared_across_the_files_of_one_load(tmp_path: Path) -> None:
    (tmp_path / "a_strings.bib").write_text(
        "@string{tpami = {IEEE Trans. Pattern Anal.}}\n@string{jd = {Doe, Jane}}\n"
    )
    (tmp_path / "b_refs.bib").write_text(
        "@article{x, title = {Seeing}, author = jd # { and Roe, Rick}, journal = tpami}\n"
    )
    library = load_library([tmp_path], TAXONOMY)
    (paper,) = library.papers
    assert library.warnings == ()
    assert paper.journal == "IEEE Trans. Pattern Anal."
    assert paper.authors == ("Jane Doe", "Rick Roe")


def test_arxiv_ids_where_exports_put_them() -> None:
    paper, _ = _one("@article{k, title={T}, journal = {arXiv}, volume = {abs/2401.01234}}")
    assert paper.arxiv == "2401.01234"
    paper, _ = _one("@article{k, title={T}, journal = {arXiv preprint arXiv:1706.03762}}")
    assert paper.arxiv == "1706.03762"
    paper, _ = _one("@misc{k, title={T}, eprint = {2101.08458v2}, archiveprefix = {arXiv}}")
    assert paper.arxiv == "2101.08458"
    paper, _ = _one("@misc{k, title={T}, eprint = {12345}, eprinttype = {pubmed}}")
    assert paper.arxiv is None


@pytest.mark.parametrize(
    "doi",
    ["{10.1/ABC}", "{https://doi.org/10.1/ABC}", "{http://dx.doi.org/10.1/ABC}", "{doi:10.1/ABC}"],
)
def test_dois_are_stored_bare(doi: str) -> None:
    paper, _ = _one(f"@article{{k, title={{T}}, doi = {doi}}}")
    assert paper.doi == "10.1/ABC"


@pytest.mark.parametrize(
    ("fields", "volume", "doi"),
    [
        # A lab's .bib (Bookends): a bioRxiv preprint's DOI kept in Volume.
        ("Volume = {10.1101/2025.07.25.666835}", None, "10.1101/2025.07.25.666835"),
        ("Volume = {https://doi.org/10.5281/zenodo.5136794}", None, "10.5281/zenodo.5136794"),
        ("Volume = {10.1234/X}, doi = {10.1234/x}", None, "10.1234/x"),  # the same DOI twice
        (
            "Volume = {10.1234/other}, doi = {10.1234/x}",
            "10.1234/other",
            "10.1234/x",
        ),  # left as given
        ("Volume = {10}, doi = {10.1/x}", "10", "10.1/x"),
        ("Volume = {Vol. 10.1}", "Vol. 10.1", None),
    ],
)
def test_a_doi_typed_into_the_volume_is_the_doi(
    fields: str, volume: str | None, doi: str | None
) -> None:
    paper, warnings = _one(f"@article{{k, title={{T}}, journal={{bioRxiv}}, {fields}}}")
    assert (paper.volume, paper.doi, warnings) == (volume, doi, [])


def test_a_doi_from_the_volume_is_cited_as_a_doi_not_a_volume() -> None:
    from index.citations import format_citation

    paper, _ = _one(
        "@article{k, author={Manning, J R}, title={T}, journal={Zenodo},"
        " year={2021}, Volume={10.5281/zenodo.5136794}}"
    )
    ieee = format_citation([paper], "ieee")
    assert "vol." not in ieee
    assert "doi: 10.5281/zenodo.5136794" in ieee


def test_a_volume_or_issue_loses_the_separator_left_at_its_end() -> None:
    # Mendeley: `issue = {May 12,}` printed "no. May 12, . 2019." in IEEE.
    paper, _ = _one("@article{k, title={T}, journal={J}, issue = {May 12,}, volume = {9;}}")
    assert (paper.number, paper.volume) == ("May 12", "9")
    paper, _ = _one("@article{k, title={T}, journal={J}, number = {,}}")
    assert paper.number is None


CROSSREF_FOLDER = Path(__file__).resolve().parents[2] / "fixtures" / "library" / "crossref_folder"


def test_a_crossref_parent_in_another_file_of_the_folder_is_inherited() -> None:
    library = load_library([CROSSREF_FOLDER], TAXONOMY)
    by_key = {paper.citation_key or "": paper for paper in library.papers}
    # The proceedings is a container (no abstract): not a paper. The book has an abstract
    # of its own, so it is listed as well as supplying its chapter; @xdata never is.
    assert sorted(by_key) == [
        "Doe:24",
        "Smith_2024",
        "lee:87",
        "orphan",
        "space:beyond",
        "westfahl:space",
    ]
    doe = by_key["Doe:24"]
    assert (doe.booktitle, doe.year, doe.publisher) == (
        "Proceedings of Machine Learning and Systems 6",
        2024,
        "MLSys",
    )
    assert [name.family for name in doe.editors] == ["Gibbons", "Pekhimenko", "De Sa"]
    assert doe.pages == "1-14" and doe.sources[0].path.endswith("papers.bib")
    assert by_key["Smith_2024"].booktitle == doe.booktitle  # keys match case-insensitively
    chapter = by_key["westfahl:space"]
    assert (chapter.booktitle, chapter.year, chapter.publisher) == (
        "Space and Beyond",
        2000,
        "Greenwood",
    )
    assert chapter.abstract == ""  # the book's own fields stay the book's
    assert by_key["lee:87"].publisher == "Harvard University Press"
    # Only the parent that is in no file is reported, once, with where it is named.
    assert [(Path(w.path).name, w.line, w.message) for w in library.warnings] == [
        (
            "papers.bib",
            24,
            "entry 'orphan' names crossref/xdata 'nowhere2020', which is in no "
            "file of this library; fields are not inherited from missing entries",
        )
    ]


def test_a_cross_file_parent_is_resolved_from_the_cache_as_well(tmp_path: Path) -> None:
    fresh = load_library([CROSSREF_FOLDER], TAXONOMY, cache_dir=tmp_path)
    assert load_library([CROSSREF_FOLDER], TAXONOMY, cache_dir=tmp_path).papers == fresh.papers
    # A new cache, whose per-file results come from an earlier load of each file alone.
    for name in ("procs.bib", "papers.bib"):
        load_library([CROSSREF_FOLDER / name], TAXONOMY, cache_dir=tmp_path / "files")
    again = load_library([CROSSREF_FOLDER], TAXONOMY, cache_dir=tmp_path / "files")
    assert {p.citation_key: p.booktitle for p in again.papers} == {
        p.citation_key: p.booktitle for p in fresh.papers
    }


def test_a_howpublished_address_is_the_link_not_the_venue() -> None:
    """@misc entries give their link as `howpublished = "\\url{...}"` (a lab's shared .bib):
    it read as the venue "<http://...pdf>" and the paper had no link."""
    paper, warnings = _one(
        r"""@Misc{LindholmY99:CFF5,
  author = "Tim Lindholm and Frank Yellin",
  title = "The \texttt{class} File Format",
  howpublished = "\url{http://java.sun.com/docs/jvms/Class_File-Java5.pdf}",
  year = 2007,
}"""
    )
    assert warnings == []
    assert paper.title == "The class File Format"
    assert paper.url == "http://java.sun.com/docs/jvms/Class_File-Java5.pdf"
    assert paper.venue is None
    # With words around it, it is what the entry says of where it appeared; a url field wins.
    worded, _ = _one(r"@misc{b, title={T}, howpublished={Online at \url{http://x.org}}}")
    assert worded.venue == "Online at <http://x.org>" and worded.url is None
    both, _ = _one("@misc{c, title={T}, howpublished={https://a.org/x}, url={https://b.org}}")
    assert both.url == "https://b.org" and both.venue is None


def test_a_bare_ampersand_is_kept_in_the_citation() -> None:
    """Mendeley exports `&` unescaped; pylatexenc read it as a table's column break."""
    from index.citations import format_citation

    paper, warnings = _one(
        "@article{carriere2018,\n"
        "  title = {Dialoging the collective imagination},\n"
        "  author = {Carriere, Kevin R},\n"
        "  journal = {Culture & Psychology},\n"
        "  publisher = {John Wiley & Sons, Inc},\n"
        "  year = {2018},\n"
        "  url = {http://ezproxy.example.edu/login?url=https://x.example/a?b=1&db=bsu&AN=6},\n"
        "}\n"
    )
    assert warnings == []
    assert (paper.venue, paper.publisher) == ("Culture & Psychology", "John Wiley & Sons, Inc")
    assert paper.url.endswith("?b=1&db=bsu&AN=6")
    assert "Culture & Psychology" in format_citation([paper], "apa")


BIBDESK_CHAPTER = r"""
@inbook{GoldEtal08,
	Author = {M Goldman and A Compte and X J Wang},
	Chapter = {Neural integrators: recurrent mechanisms and models},
	Editor = {L Squire and T Albright},
	Pages = {165--178},
	Publisher = {Macmillan},
	Title = {New encyclopedia of neuroscience},
	Year = {2008}}
"""


def test_a_chapter_title_in_the_chapter_field_is_the_papers_title() -> None:
    # A lab's shared .bib (BibDesk): the chapter's title in `chapter`, the book's in `title`.
    paper, warnings = _one(BIBDESK_CHAPTER)
    assert warnings == []
    assert paper.title == "Neural integrators: recurrent mechanisms and models"
    assert paper.booktitle == paper.venue == "New encyclopedia of neuroscience"
    apa = format_citation([paper], "apa")
    assert apa.startswith("Goldman, M., Compte, A., & Wang, X. J. (2008). Neural integrators:")
    assert (
        "In L. Squire & T. Albright (Eds.), New encyclopedia of neuroscience (pp. 165–178)" in apa
    )
    # Copied, the entry is the user's own; written from the paper, it is a chapter.
    assert format_citation([paper], "bibtex").startswith("@inbook{GoldEtal08,\n  Author = {M")
    rebuilt = replace(paper, records=())
    assert format_citation([rebuilt], "bibtex").startswith("@incollection{GoldEtal08,")


@pytest.mark.parametrize("chapter", ["3", "IV", "Chapter 2", "Part II", "3.1"])
def test_a_chapter_number_leaves_the_title_alone(chapter: str) -> None:
    paper, _ = _one(
        BIBDESK_CHAPTER.replace("Neural integrators: recurrent mechanisms and models", chapter)
    )
    assert paper.title == "New encyclopedia of neuroscience" and paper.booktitle is None


def test_a_chapter_with_a_booktitle_keeps_its_title() -> None:
    text = BIBDESK_CHAPTER.replace("Pages =", "Booktitle = {The Book},\n\tPages =")
    paper, _ = _one(text)
    assert (paper.title, paper.booktitle) == ("New encyclopedia of neuroscience", "The Book")
