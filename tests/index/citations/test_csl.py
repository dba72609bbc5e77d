"""The vendored CSL styles ship inside the package, unmodified, and render as pandoc does."""

from __future__ import annotations

from pathlib import Path

import index
from index.citations import format_citation
from index.citations.csl import CSL_DIR, CSL_FILES
from index.models import Name, Paper, SourceRecord, replace


def test_styles_ship_inside_the_index_package_with_their_licence() -> None:
    assert Path(index.__file__).resolve().parent / "citations" / "styles" == CSL_DIR
    assert (CSL_DIR / "README.md").is_file()
    for name in CSL_FILES.values():
        text = (CSL_DIR / name).read_text(encoding="utf-8")
        assert 'license="http://creativecommons.org/licenses/by-sa/3.0/"' in text
        assert "<author>" in text  # the attribution is kept


def test_a_cut_list_already_long_enough_for_et_al_keeps_the_style_rule() -> None:
    names = tuple(f"Ann{chr(65 + i)} Bee{chr(65 + i)}" for i in range(7))
    paper = Paper(
        id="p",
        title="T",
        authors=names,
        authors_complete=False,
        year=2020,
        entry_type="inproceedings",
        booktitle="Proc. X",
    )
    assert format_citation([paper], "ieee") == "A. BeeA et al., \u201cT,\u201d in Proc. X, 2020."
    assert format_citation([paper], "mla").startswith("BeeA, AnnA, et al. \u201cT.\u201d")


def test_given_names_are_spelled_out_where_the_style_says_initialize_false() -> None:
    paper = Paper(id="p", title="T", authors=("Chenyu Jiang", "Zhen Jia"), year=2024)
    assert format_citation([paper], "chicago").startswith("Jiang, Chenyu, and Zhen Jia. 2024.")
    assert format_citation([paper], "apa").startswith("Jiang, C., & Jia, Z. (2024).")


def test_ieee_numbers_are_followed_by_a_space_and_quotes_hold_the_comma() -> None:
    papers = [
        Paper(
            id=f"p{i}",
            title=f"Title {i}",
            authors=("Ann Bee",),
            year=2020,
            entry_type="article",
            journal="J. Things",
            volume="1",
        )
        for i in range(2)
    ]
    lines = format_citation(papers, "ieee").splitlines()
    assert lines == [
        f"[{i + 1}] A. Bee, \u201cTitle {i},\u201d J. Things, vol. 1, 2020." for i in range(2)
    ]


def _proceedings(pages: str, title: str = "T") -> Paper:
    return Paper(
        id="p",
        title=title,
        authors=("Ann Bee",),
        year=2020,
        entry_type="inproceedings",
        booktitle="Proc",
        pages=pages,
    )


def test_page_ranges_follow_each_styles_rule() -> None:
    assert format_citation([_proceedings("8-13")], "mla").endswith("pp. 8\u201313.")
    assert format_citation([_proceedings("542-559")], "mla").endswith("pp. 542\u201359.")
    assert format_citation([_proceedings("1151-1160")], "chicago").endswith("1151\u201360.")
    assert format_citation([_proceedings("8-13")], "apa").endswith("8\u201313.")


def test_a_question_mark_is_not_followed_by_a_period() -> None:
    paper = _proceedings("1-2", title="Is Network the Bottleneck?")
    assert "Bottleneck? Proc" in format_citation([paper], "apa")
    assert "Bottleneck?\u201d Proc" in format_citation([paper], "chicago")


def test_a_period_is_not_doubled_across_an_empty_group() -> None:
    """ACM's proceedings without publisher or pages: "2020. . Retrieved" (6 of the 47
    bundled papers) is "2020. Retrieved"; a title's spaced ellipsis stays."""
    paper = replace(_proceedings("", title="Wait . . . What"), pages=None, arxiv="2401.00001")
    text = format_citation([paper], "acm")
    assert "2020. Retrieved from https://arxiv.org/abs/2401.00001" in text
    assert ". ." not in text.replace(". . .", "")
    assert "Wait . . . What" in text


def test_a_tutorial_is_cited_as_one() -> None:
    paper = Paper(
        id="t",
        title="Inference on Chips",
        authors=("Ann Bee",),
        year=2024,
        venue="KDD 2024 (lecture-style tutorial)",
        arxiv="2407.09111",
    )
    assert format_citation([paper], "apa") == (
        "Bee, A. (2024). Inference on Chips [Tutorial]. KDD 2024 (lecture-style tutorial). "
        "https://arxiv.org/abs/2407.09111"
    )
    assert "presented at the KDD 2024" in format_citation([paper], "ieee")
    bib = format_citation([paper], "bibtex")
    assert bib.startswith("@misc{") and "howpublished  = {KDD 2024 (lecture-style tutorial)}" in bib


def _chapter(*editors: Name) -> Paper:
    return Paper(
        id="c",
        title="A model of working memory",
        authors=("Ann Bee",),
        year=1999,
        entry_type="incollection",
        booktitle="Models of Working Memory",
        publisher="Cambridge University Press",
        pages="375-411",
        editors=editors,
    )


def test_apa_capitalises_its_editor_labels() -> None:
    """APA title-cases its editor labels: "(Eds.)", "(Ed.)" (citeproc-py printed "(eds.)")."""
    two = format_citation([_chapter(Name("Miyake", "A."), Name("Shah", "P."))], "apa")
    assert "In A. Miyake & P. Shah (Eds.), Models of Working Memory" in two
    one = format_citation([_chapter(Name("Miyake", "A."))], "apa")
    assert "In A. Miyake (Ed.), Models of Working Memory" in one
    # ACM's own label has no text case: its lowercase stays.
    assert "A. Miyake and P. Shah (eds.)" in format_citation(
        [_chapter(Name("Miyake", "A."), Name("Shah", "P."))], "acm"
    )


def test_the_vendored_styles_reach_the_engine_as_published() -> None:
    """No in-memory rewrite: Chicago and MLA once lost the periods of given initials."""
    from index.citations.csl import engine_style

    for name, file in CSL_FILES.items():
        assert engine_style(name).path == CSL_DIR / file and engine_style(name).locale is None
    paper = Paper(
        id="p",
        title="T",
        authors=("J. F. Miller", "S. M. Polyn"),
        names=(Name("Miller", "J. F."), Name("Polyn", "S. M.")),
        year=2020,
    )
    assert format_citation([paper], "chicago").startswith("Miller, J. F., and S. M. Polyn. 2020.")
    assert format_citation([paper], "mla").startswith("Miller, J. F., and S. M. Polyn.")


def test_a_venue_stored_with_a_closing_full_stop_is_cited_without_it() -> None:
    """Papers3 and Mendeley exports end venue names with a sentence's period."""

    def cited(venue: str, style: str) -> str:
        paper = Paper(
            id="p", title="T", authors=("Ann Bee",), year=2003, entry_type="article", journal=venue
        )
        return format_citation([paper], style)

    hicss = "Proceedings of the 36th Hawaii International Conference on System Sciences, 2003."
    assert cited(hicss, "ieee") == f"A. Bee, \u201cT,\u201d {hicss[:-1]}, 2003."
    assert "International, 718" not in cited("Interaction International.", "apa")
    assert cited("Interaction International.", "apa").endswith("Interaction International.")
    # An abbreviated name keeps the period that is part of it.
    assert cited("J. Chem. Phys.", "ieee") == "A. Bee, \u201cT,\u201d J. Chem. Phys., 2003."
    assert "Nature Phys.," in cited("Nature Phys.", "ieee")


def test_a_record_without_a_title_is_cited_without_one() -> None:
    """The loaders' "(untitled)" is no title: pandoc on the source prints none either."""
    paper = Paper(id="u", title="(untitled)", title_inferred=True, authors=("Ann Bee",), year=2014)
    assert format_citation([paper], "apa") == "Bee, A. (2014)."
    assert format_citation([paper], "mla") == "Bee, Ann. 2014."
    # A title-less entry the loader described for its lists: no title either.
    record = SourceRecord.of("bibtex", "book", "a", (("author", "{Ann Bee}"), ("date", "{2014}")))
    described = replace(paper, title="Bee, 2014 (book)", records=(record,))
    assert format_citation([described], "apa") == "Bee, A. (2014)."


def test_a_thesis_names_its_kind_and_school_as_pandoc_reads_the_entry() -> None:
    """`cdl.bib` `Ekst04`: the school was only a venue, which no style prints for a thesis."""
    thesis = Paper(
        id="e",
        title="The cellular networks underlying human spatial navigation",
        authors=("A. D. Ekstrom",),
        names=(Name("Ekstrom", "A. D."),),
        year=2004,
        entry_type="phdthesis",
        venue="Brandeis University",
    )
    assert format_citation([thesis], "apa") == (
        "Ekstrom, A. D. (2004). The cellular networks underlying human spatial navigation "
        "[PhD thesis]. Brandeis University."
    )
    masters = replace(thesis, entry_type="mastersthesis")
    assert "Master\u2019s thesis, Brandeis University" in format_citation([masters], "ieee")


def test_only_an_article_number_is_cited_as_one() -> None:
    """ "e13477" is an article number; a link someone put in `pages` is not."""

    def apa(pages: str) -> str:
        paper = Paper(
            id="a",
            title="T",
            authors=("Ann Bee",),
            year=2024,
            entry_type="article",
            journal="J",
            volume="48",
            pages=pages,
        )
        return format_citation([paper], "apa")

    assert apa("e13477").endswith("J, 48, Article e13477.")
    assert "Article" not in apa("doi.org/10.1609/aaai.v32i1.12057")


def test_a_style_that_never_prints_the_abstract_is_not_sent_it(tmp_path: Path) -> None:
    """pandoc parses every abstract it is given (LaTeX in a BibTeX entry): a 10,000-paper
    APA bibliography took 313 s with them, 12.5 s without. A style that prints it gets it."""
    from index.citations.csl import engine_reference, engine_style, unused_variables
    from index.citations.engine import BibEntry, EngineStyle, render_entry
    from index.models import SourceRecord

    assert unused_variables(engine_style("apa")) == {"abstract"}
    annotated = tmp_path / "annotated.csl"
    annotated.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">'
        "<info><id>a</id><title>a</title><updated>2026-01-01T00:00:00+00:00</updated></info>"
        '<citation><layout><text variable="title"/></layout></citation>'
        '<bibliography><layout><text variable="title" suffix=". "/>'
        '<text variable="abstract"/></layout></bibliography></style>',
        encoding="utf-8",
    )
    style = EngineStyle(annotated)
    assert unused_variables(style) == frozenset()
    record = SourceRecord.of(
        "bibtex",
        "article",
        "k",
        (("title", "{A study}"), ("abstract", "{We find $x^2$.}"), ("file", "{a.pdf}")),
    )
    paper = Paper(id="k", title="A study", abstract="We find x².", records=(record,))
    lean = engine_reference(paper, "k", unused_variables(engine_style("apa")))
    full = engine_reference(paper, "k", unused_variables(style))
    assert isinstance(lean, BibEntry) and isinstance(full, BibEntry)
    assert "abstract" not in lean.text and "file" not in lean.text
    assert "abstract = {We find" in full.text and "file" not in full.text
    assert "We find" in render_entry(full, style)
