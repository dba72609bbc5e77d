"""Given names with lower-case words keep their initials in every initialising style.

The real patterns: Better BibTeX exports `author = {Feng, Wu-chun}` and `{schraefel, m.c.}`;
citeproc-py printed "Feng, W.-. chun ." and "schraefel, . m ." in APA.
"""

from __future__ import annotations

import pytest
from citeproc.model import Name as CslName

from index.citations import format_citation, name_initials
from index.library.loaders.bibtex import load_bibtex
from index.models import Paper

BIB = r"""
@article{Feng:2003p3121, author = {Feng, Wu-chun}, title = {An Integrated Environment},
  journal = {Proc. HICSS}, year = 2003}
@article{mixed, author = {Lin, Chih-ming and Dupont, Jean-Pierre and Wu-Chun Feng
  and Kim, Min-ji Anna}, title = {Three Ways}, journal = {J}, year = 2004}
@inproceedings{dial, author = {schraefel, m.c. and boyd, danah and Baudisch, Patrick},
  title = {Curve Dial}, booktitle = {CHI '05 Extended Abstracts}, year = 2005}
"""


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    loaded, warnings = load_bibtex(BIB, "names.bib")
    assert warnings == []
    return loaded


@pytest.mark.parametrize(
    ("style", "feng", "mixed", "dial"),
    [
        (
            "apa",
            "Feng, W.-c. (2003).",
            "Lin, C.-m., Dupont, J.-P., Feng, W.-C., & Kim, M.-j. A.",
            "schraefel, m. c., boyd, d., & Baudisch, P. (2005).",
        ),
        (
            "ieee",
            "W.-c. Feng, “An",
            "C.-m. Lin, J.-P. Dupont, W.-C. Feng, and M.-j. A. Kim,",
            "m. c. schraefel, d. boyd, and P. Baudisch,",
        ),
        # Styles that spell given names out keep them as written.
        (
            "chicago",
            "Feng, Wu-chun. 2003.",
            "Lin, Chih-ming, Jean-Pierre Dupont, Wu-Chun Feng,",
            "schraefel, m.c., danah boyd, and Patrick Baudisch.",
        ),
        (
            "acm",
            "Wu-chun Feng. 2003.",
            "Chih-ming Lin, Jean-Pierre Dupont, Wu-Chun Feng,",
            "m.c. schraefel, danah boyd, and Patrick Baudisch.",
        ),
    ],
)
def test_lower_case_words_are_initialised_in_their_own_case(
    papers: list[Paper], style: str, feng: str, mixed: str, dial: str
) -> None:
    first, second, third = (format_citation([paper], style) for paper in papers)
    assert feng in first
    assert mixed in second
    assert dial in third
    assert not any(stray in text for text in (first, second, third) for stray in (" .", ".-."))


def test_the_fix_is_installed_only_on_the_pinned_citeproc(monkeypatch: pytest.MonkeyPatch) -> None:
    import index.citations.csl  # noqa: F401  (installs it on import)

    assert CslName.initialize is name_initials.initialize_in_case
    monkeypatch.setattr(CslName, "initialize", name_initials._original)
    monkeypatch.setattr(name_initials.citeproc, "__version__", "0.12.0", raising=False)
    assert name_initials.install() is False
    assert CslName.initialize is name_initials._original
