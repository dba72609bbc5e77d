"""A user's .bib, loaded, exported as BibTeX and loaded again, is the same library.

The cases are what real files hold and writers get wrong: inline math (`$1/F^2$`), LaTeX
specials, braced corporate and multi-word family names, particles, suffixes, accents,
crossref'd proceedings with editors, arXiv ids, DOIs given as URLs, and keys with colons.
"""

from __future__ import annotations

from pathlib import Path

from index.citations import citation_keys, format_citation
from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.models import Paper

SOURCE = r"""
@string{prl = {Phys. Rev. Lett.}}
@article{westfahl:space,
  author  = {{U.S. Food and Drug Administration} and {de la Cruz Ortiz}, Ana and
             Van der Berg, J. A. and de Vries, H. and Mart\'{\i}n, Ignacio and
             von Neumann, Jr., John},
  title   = {Noise Scaling as $1/F^2$ in {GaAs} Nanowires: 50\% Better \& Cheaper},
  journal = prl, year = {January 1978}, volume = {41}, number = {3}, pages = {55--65},
  doi     = {https://doi.org/10.1103/PhysRevLett.41.55},
  abstract = {We measure $1/F^2$ noise.},
}
@inproceedings{Smith_2020,
  author    = {Smith, Ann and others},
  title     = {Looms at {Scale}},
  crossref  = {icml2020}, pages = {1--9}, eprint = {2001.01234}, archiveprefix = {arXiv},
}
@proceedings{icml2020,
  title     = {Proceedings of the 37th International Conference on Machine Learning},
  editor    = {Daum{\'e}, III, Hal and Singh, Aarti}, year = 2020, publisher = {PMLR},
}
@misc{Doe:78, author = {Doe, Jane}, title = {A Note on {\em Weaving}}, year = 1978,
  howpublished = {Talk at the Guild}, url = {https://example.org/doe?x=1&y=2}}
"""

FIELDS = (
    "title",
    "authors",
    "names",
    "authors_complete",
    "year",
    "month",
    "venue",
    "booktitle",
    "journal",
    "volume",
    "number",
    "pages",
    "publisher",
    "doi",
    "arxiv",
    "url",
    "citation_key",
)


def _load(path: Path) -> list[Paper]:
    library = load_library([path], load_taxonomy())
    assert library.warnings == (), library.warnings
    return list(library.papers)


def test_load_export_load_gives_the_same_papers(tmp_path: Path) -> None:
    (tmp_path / "mine.bib").write_text(SOURCE)
    first = _load(tmp_path / "mine.bib")
    assert [p.citation_key for p in first] == ["westfahl:space", "Smith_2020", "Doe:78"]
    exported = format_citation(first, "bibtex", keys=citation_keys(first))
    (tmp_path / "again.bib").write_text(exported)
    second = _load(tmp_path / "again.bib")
    assert len(second) == len(first)
    for before, after in zip(first, second):
        for name in FIELDS:
            assert getattr(after, name) == getattr(before, name), (before.id, name)
        assert after.editors == before.editors
    paper = first[0]
    assert paper.title == "Noise Scaling as 1/F² in GaAs Nanowires: 50% Better & Cheaper"
    assert str(paper.names[0]) == "U.S. Food and Drug Administration"
    assert paper.names[-1].suffix == "Jr." and paper.names[-1].particle == "von"
    assert (paper.doi, paper.year, paper.month) == ("10.1103/PhysRevLett.41.55", 1978, 1)
    assert first[1].editors[0].suffix == "III" and first[1].year == 2020
    assert "{U.S. Food and Drug Administration} and {de la Cruz Ortiz}, Ana" in exported
