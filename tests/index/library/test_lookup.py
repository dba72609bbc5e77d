"""One place that finds a paper by id or citation key and suggests close names."""

from __future__ import annotations

from index.library.lookup import PaperLookup, unknown_paper_message
from index.models import Paper

PAPERS = [
    Paper(id="westfahl-space", title="T", citation_key="westfahl:space"),
    Paper(id="doe-78", title="T", citation_key="Doe:78"),
    Paper(id="doe-79", title="T", citation_key="doe-78"),
]  # a key equal to another's id


def test_ids_and_keys_exactly_as_written() -> None:
    lookup = PaperLookup(PAPERS)
    found = {text: lookup.find(text) for text in ("westfahl:space", "Doe:78", "doe-78")}
    assert {text: paper.id if paper else None for text, paper in found.items()} == {
        "westfahl:space": "westfahl-space",
        "Doe:78": "doe-78",
        "doe-78": "doe-78",
    }  # the id wins over another paper's key
    assert lookup.find("doe:78") is None  # keys are case-sensitive


def test_suggestions_are_few_and_close() -> None:
    lookup = PaperLookup([Paper(id=f"paper{n}", title="T") for n in range(500)] + PAPERS)
    assert lookup.suggest("doe:78") == ["Doe:78"]  # the same name in another case first
    assert 0 < len(lookup.suggest("paper12x")) <= 3
    assert lookup.suggest("zzzzzz") == []
    assert unknown_paper_message("x", []) == (
        "unknown paper id or citation key 'x'; `paperscope list` shows every id"
    )


def test_a_manuscript_lookup_prefers_the_users_own_keys() -> None:
    papers = [
        Paper(id="doe-78", title="T", citation_key="Doe:78"),
        Paper(id="roe", title="T", citation_key="doe-78"),  # another paper's id as its key
    ]
    generated = {"doe-78": "doe1978t", "roe": "roe2000t"}
    cited = PaperLookup(papers, generated, keys_first=True)
    found = [cited.find(n) for n in ("doe-78", "Doe:78", "doe1978t", "roe2000t")]
    assert [paper.id if paper else None for paper in found] == [
        "roe",
        "doe-78",
        "doe-78",
        "roe",
    ]
    shown = PaperLookup(papers).find("doe-78")  # `show ID`: the id wins
    assert shown is not None and shown.id == "doe-78"
    assert PaperLookup(papers).find("doe1978t") is None  # generated keys only when given
    assert cited.suggest("doe1978")[0] == "doe1978t"


def test_a_manuscript_slip_is_offered_the_users_own_key_not_the_id() -> None:
    # cdl.bib: `OlshFiel96`, whose paperscope id is `olshfiel96`.
    papers = [Paper(id="olshfiel96", title="T", citation_key="OlshFiel96")]
    cited = PaperLookup(papers, {"olshfiel96": "olshausen1996natural"}, keys_first=True)
    assert cited.suggest("OlshField96") == ["OlshFiel96"]
    assert cited.suggest("olshfiel96x") == ["OlshFiel96"]
    assert PaperLookup(papers).suggest("OlshField96") == ["olshfiel96"]  # `show`: the id
