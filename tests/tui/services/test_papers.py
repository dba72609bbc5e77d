"""`PaperData.as_loaded`: papers shown from an early sample, as the loaded library has them.

The sample is taken before dedupe (index.library.early_sample): a sample record may have
been merged into another record's paper since, under that paper's id.
"""

from __future__ import annotations

from index.facets.taxonomy import load_taxonomy
from index.models import Library, Paper, Source
from tui.services.papers import PaperData

ARXIV = Source("a.jsonl", line=3)
BIB = Source("b.bib", line=1)
OTHER = Source("a.jsonl", line=9)


def data(library: Library | None) -> PaperData:
    return PaperData(load_taxonomy(), library, lambda: None)


def test_a_sample_paper_is_found_by_id_or_by_the_paper_holding_its_source() -> None:
    merged = Paper(id="2401.00003", title="Merged", sources=(ARXIV, BIB), citation_key="w24")
    alone = Paper(id="2401.00009", title="Alone", sources=(OTHER,))
    loaded = data(Library(papers=(merged, alone)))
    arxiv_record = Paper(id="2401.00003", title="Merged", sources=(ARXIV,))
    bib_record = Paper(id="w24", title="Merged", sources=(BIB,))  # merged away: id gone
    gone = Paper(id="2401.00077", title="Gone", sources=(Source("c.bib", line=5),))
    sample_alone = Paper(id="2401.00009", title="Alone", sources=(OTHER,))
    assert loaded.as_loaded([bib_record]) == [merged]
    assert loaded.as_loaded([arxiv_record, bib_record, sample_alone]) == [merged, alone]
    assert loaded.as_loaded([gone]) == []


def test_without_a_loaded_library_the_papers_are_as_given() -> None:
    paper = Paper(id="x", title="X", sources=(ARXIV,))
    assert data(None).as_loaded([paper]) == [paper]
