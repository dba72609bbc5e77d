"""Conservative merging: only evidence that can be named merges two records, and it is named.

Each case reproduces a pattern seen in real exports (Papers3, Mendeley, Better BibTeX):
placeholder abstracts shared by hundreds of entries, a conference paper and its journal
version, book chapters that carry their book's DOI.
"""

from __future__ import annotations

import pytest

from index.library.dedupe import dedupe
from index.library.evidence import is_placeholder, titles_agree
from index.library.normalize import words
from index.models import Paper, Source

TEXT = (
    "We present Loomwork, a system that schedules jacquard looms across a weaving mill "
    "so that every pattern card is punched exactly once and shared by all looms."
)


def _paper(title: str, abstract: str = TEXT, line: int = 1, **kw) -> Paper:
    return Paper(id="", title=title, abstract=abstract, sources=(Source("x.bib", line),), **kw)


@pytest.mark.parametrize(
    "stub",
    [
        "Not Available",
        "No Abstract.",
        "Keywords",
        "CHI 2015",
        "Book by Jane Smith and John Doe, with a foreword by A. Poe",
        "Abstract not available.",
        # Ten words and more: a stub by its wording, not its length.
        "This abstract is not available for this article; please see the publisher's site.",
        "",
    ],
)
def test_placeholder_abstracts_are_no_evidence(stub: str) -> None:
    assert is_placeholder(stub)
    assert is_placeholder(stub, len(words(stub)))  # as dedupe asks, having tokenised it
    papers = [_paper(f"Unrelated work number {n}", stub, line=n) for n in range(15)]
    merged, links, _ = dedupe(papers)
    assert len(merged) == 15 and links == []


def test_a_real_abstract_is_not_a_placeholder() -> None:
    assert not is_placeholder(TEXT)
    assert not is_placeholder(TEXT, len(words(TEXT)))


def test_different_arxiv_ids_never_merge_but_are_linked() -> None:
    merged, links, _ = dedupe(
        [_paper("Loomwork", arxiv="2401.00001"), _paper("Loomwork", arxiv="2401.00002v2", line=2)]
    )
    assert len(merged) == 2 and links == [(0, 1)]


def test_different_dois_never_merge_even_with_the_same_text() -> None:
    """A conference paper and its journal version: two works, linked."""
    merged, links, _ = dedupe(
        [
            _paper("Loomwork: scheduling looms", doi="10.1/conf"),
            _paper("Loomwork: scheduling looms", doi="10.2/journal", line=2),
        ]
    )
    assert len(merged) == 2 and links == [(0, 1)]


def test_versions_of_one_arxiv_id_and_doi_forms_merge_with_a_reason() -> None:
    merged, _, _ = dedupe(
        [
            _paper("Loomwork", "", arxiv="2401.00001v1"),
            _paper("Loomwork", "", arxiv="2401.00001v3", line=2),
            _paper("Other", "", doi="https://doi.org/10.1/X", line=3),
            _paper("Other", "", doi="doi:10.1/x", line=4),
        ]
    )
    assert [len(p.sources) for p in merged] == [2, 2]
    assert merged[0].merge_reasons == ("x.bib:1 and x.bib:2: same arXiv id 2401.00001",)
    assert merged[1].merge_reasons == ("x.bib:3 and x.bib:4: same DOI 10.1/x",)


def test_book_chapters_sharing_the_books_doi_stay_apart() -> None:
    chapters = [
        _paper("Weaving in the early modern period", "", doi="10.5/book"),
        _paper("Dyes and mordants of the Levant", "", doi="10.5/book", line=2),
        _paper("Weaving in the Early Modern Period", "", doi="10.5/book", line=3),
    ]
    merged, links, _ = dedupe(chapters)
    assert [len(p.sources) for p in merged] == [2, 1]  # the copy of chapter one merges
    assert links == [(0, 1)]


def test_text_merges_need_agreeing_titles() -> None:
    merged, links, _ = dedupe(
        [
            _paper("Loomwork: scheduling looms"),
            _paper("A survey of quantum error correction", line=2),
        ]
    )
    assert len(merged) == 2 and links == [(0, 1)]
    merged, _, _ = dedupe(
        [_paper("Loomwork: scheduling looms"), _paper("Loomwork: Scheduling Looms.", line=2)]
    )
    assert len(merged) == 1
    assert merged[0].merge_reasons == ("x.bib:1 and x.bib:2: abstracts 100% the same",)


def test_an_untitled_text_cannot_bridge_two_titled_papers() -> None:
    bridge = Paper(
        id="",
        title="Loomwork schedules",
        title_inferred=True,
        abstract=TEXT,
        sources=(Source("a.txt", paragraph=0),),
    )
    merged, _, _ = dedupe(
        [
            _paper("Loomwork: scheduling looms"),
            bridge,
            _paper("A survey of quantum error correction", line=3),
        ]
    )
    assert sorted(len(p.sources) for p in merged) == [1, 2]


def test_titles_agree_without_a_subtitle_and_with_case_changes() -> None:
    assert titles_agree(
        _paper("Loomwork: Scheduling Looms Across a Mill"),
        _paper("loomwork scheduling looms across a mill and beyond"),
    )
    assert not titles_agree(_paper("Loomwork"), _paper("Weaverbird"))
