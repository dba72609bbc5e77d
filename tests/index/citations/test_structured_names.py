"""Names as BibTeX means them, in every style: institutions, braced family names,
particles and LaTeX in names, carried as parts from the loader to each writer."""

from __future__ import annotations

import pytest

from index.citations import format_citation
from index.citations.fields import paper_names
from index.library.loaders.bibtex import load_bibtex
from index.models import Name, Paper, replace

BIB = r"""
@article{fda2020, author = {{U.S. Food and Drug Administration}}, title = {Guidance on Devices},
  journal = {Federal Register}, year = 2020, volume = 5, pages = {1--9}}
@article{cruz, author = {{de la Cruz Ortiz}, Ana and Van der Berg, J. A. and de Vries, H.
  and Mart\'{\i}n, Ignacio}, title = {Particles in Names}, journal = {J. Names}, year = 2019}
"""


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    loaded, warnings = load_bibtex(BIB, "names.bib")
    assert warnings == []
    return loaded


def test_the_loader_keeps_the_parts(papers) -> None:
    fda, cruz = papers
    assert fda.names == (Name(literal="U.S. Food and Drug Administration"),)
    assert cruz.names == (
        Name(family="de la Cruz Ortiz", given="Ana"),
        Name(family="Berg", given="J. A.", particle="Van der"),
        Name(family="Vries", given="H.", particle="de"),
        Name(family="Martín", given="Ignacio"),
    )
    assert cruz.authors[1] == "J. A. Van der Berg"


@pytest.mark.parametrize(
    ("style", "fda", "cruz"),
    [
        (
            "apa",
            "U.S. Food and Drug Administration. (2020).",
            "de la Cruz Ortiz, A., Van der Berg, J. A., de Vries, H., & Martín, I. (2019).",
        ),
        (
            "ieee",
            "U.S. Food and Drug Administration, “Guidance",
            "A. de la Cruz Ortiz, J. A. Van der Berg, H. de Vries, and I. Martín, “Particles",
        ),
        (
            "chicago",
            "U.S. Food and Drug Administration. 2020.",
            # No demote-non-dropping-particle: CSL's default demotes it when inverted.
            "Cruz Ortiz, Ana de la, J. A. Van der Berg, H. de Vries, and Ignacio Martín. 2019.",
        ),
        ("mla", "U.S. Food and Drug Administration. “Guidance", "de la Cruz Ortiz, Ana, et al."),
        (
            "acm",
            "U.S. Food and Drug Administration. 2020.",
            "Ana de la Cruz Ortiz, J. A. Van der Berg, H. de Vries, and Ignacio Martín. 2019.",
        ),
        (
            "bibtex",
            "author  = {{U.S. Food and Drug Administration}},",
            "author  = {{de la Cruz Ortiz}, Ana and Van der Berg, J. A. and de Vries, H. and "
            "Martín, Ignacio},",
        ),
        (
            "ris",
            "AU  - U.S. Food and Drug Administration",
            "AU  - de la Cruz Ortiz, Ana\nAU  - Van der Berg, J. A.\nAU  - de Vries, H.\n"
            "AU  - Martín, Ignacio",
        ),
        (
            "csl-json",
            '"literal": "U.S. Food and Drug Administration"',
            '"family": "Berg",\n        "given": "J. A.",\n        "non-dropping-particle": "Van der"',
        ),
        (
            "plain",
            "U.S. Food and Drug Administration. Guidance on Devices.",
            "Ana de la Cruz Ortiz, J. A. Van der Berg, H. de Vries et al.",
        ),
    ],
)
def test_every_style_writes_the_names_right(papers, style: str, fda: str, cruz: str) -> None:
    # Without their records: a .bib record would be copied as written (test_bibcopy).
    papers = [replace(paper, records=()) for paper in papers]
    assert fda in format_citation([papers[0]], style)
    assert cruz in format_citation([papers[1]], style)


def test_display_strings_alone_are_split_as_before() -> None:
    paper = Paper(id="p", title="T", authors=("Ludwig van Beethoven", "Plato"))
    assert paper_names(paper) == (
        Name(family="Beethoven", given="Ludwig", particle="van"),
        Name(literal="Plato"),
    )


def test_keys_use_the_family_name_of_the_parts(papers) -> None:
    from index.citations.keys import base_key
    from index.models import replace

    assert base_key(replace(papers[1], citation_key=None)) == "delacruzortiz2019particles"
    assert base_key(replace(papers[0], citation_key=None)) == "us2020guidance"
