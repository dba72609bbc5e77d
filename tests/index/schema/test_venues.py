"""The venue facet's short names: readable, and shared by papers of the same venue."""

from __future__ import annotations

import pytest

from index.schema.venues import short_venue


@pytest.mark.parametrize(
    "venue, short",
    [
        (
            "EuroSys '24 (Proceedings of the Nineteenth European Conference on Computer Systems), "
            "pp. 542-559",
            "EuroSys '24",
        ),
        ("arXiv preprint", "arXiv preprint"),
        ("arXiv preprint (cs.LG)", "arXiv preprint"),
        ("arXiv preprint arXiv:2401.01234", "arXiv preprint"),
        ("MLSys 2021 (Proceedings of Machine Learning and Systems 3)", "MLSys 2021"),
        (
            "Proceedings of the VLDB Endowment (PVLDB) vol. 16, no. 1, pp. 37-50 (presented at "
            "VLDB 2023, Vancouver)",
            "Proceedings of the VLDB Endowment",
        ),
        ("Proceedings of the VLDB Endowment", "Proceedings of the VLDB Endowment"),
        ("PLOS Computational Biology 13(3): e1005209", "PLOS Computational Biology"),
        ("PLOS Computational Biology", "PLOS Computational Biology"),
        (
            "Advances in Database Technology - EDBT, vol. 27, issue 3 (EDBT 2024)",
            "Advances in Database Technology - EDBT",
        ),
        ("Journal of Things, pp. 1-10", "Journal of Things"),
        ("  OSDI   2020 ", "OSDI 2020"),
        ("(preprint)", "(preprint)"),
        ("", ""),
        (None, ""),
    ],
)
def test_short_venue(venue: str | None, short: str) -> None:
    assert short_venue(venue) == short


def test_two_papers_of_one_venue_share_its_facet_value(tmp_path) -> None:
    from index import open_engine
    from index.models import Library, Paper, SearchRequest
    from tests.fixtures.search.generate import TAXONOMY

    papers = (
        Paper(
            id="a",
            title="One",
            venue="SOSP '23 (Proceedings of the 29th Symposium on "
            "Operating Systems Principles, Koblenz), pp. 364-381",
            abstract="kernels",
        ),
        Paper(
            id="b",
            title="Two",
            venue="SOSP '23 (Proceedings of the 29th Symposium on "
            "Operating Systems Principles), pp. 1-12",
            abstract="kernels",
        ),
    )
    engine = open_engine(Library(papers=papers), TAXONOMY, tmp_path)
    try:
        result = engine.search(SearchRequest(""))
        assert [(c.value, c.count) for c in result.facets["venue"]] == [("SOSP '23", 2)]
        chosen = engine.search(SearchRequest("", venues=frozenset({"SOSP '23"})))
        assert chosen.total == 2
        # The query field still searches the whole free text.
        assert engine.search(SearchRequest("venue:koblenz")).total == 1
    finally:
        engine.close()


@pytest.mark.parametrize(
    "spellings, value",
    [
        (["Phys.Rev.D76:013009,2007", "Phys. Rev. D 77:014002,2008"], "Phys. Rev. D"),
        (["JHEP 0712:005,2007", "JHEP"], "JHEP"),
        (
            ["nips", "NIPS", "NeurIPS", "Advances in Neural Information Processing Systems 30"],
            "NeurIPS",
        ),
        (["NIPS 2017", "NeurIPS 2017"], "NeurIPS 2017"),
        (["cvpr", "CVPR"], "CVPR"),  # an undefined BibTeX macro kept as written
        (
            ["arXiv", "arXiv preprint", "arXiv preprint arXiv:1706.03762", "ArXiv e-prints"],
            "arXiv preprint",
        ),
        (
            [
                "IEEE transactions on pattern analysis",
                "IEEE Transactions on  Pattern Analysis",
                "ieee Transactions on Pattern Analysis",
            ],
            "IEEE Transactions on Pattern Analysis",
        ),
        (["PROCEEDINGS OF THE IEEE", "Proceedings of the IEEE"], "Proceedings of the IEEE"),
    ],
)
def test_spellings_of_one_venue_fold_into_one_value(spellings: list[str], value: str) -> None:
    assert {short_venue(spelling) for spelling in spellings} == {value}
