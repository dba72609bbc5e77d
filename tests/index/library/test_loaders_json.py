"""JSON and JSON Lines: arXiv metadata records, CSL-JSON, and broken files."""

from __future__ import annotations

from pathlib import Path

from index.library.loaders.json_files import load_json, load_json_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"


def _read(name: str) -> str:
    return (FIXTURES / name).read_text("utf-8")


def test_arxiv_records_with_newlines_and_latex() -> None:
    papers, warnings = load_json_lines(_read("arxiv.jsonl"), "arxiv.jsonl")
    ansor, raf = papers
    assert ansor.title == "Ansor: Generating High-Performance Tensor Programs for Deep Learning"
    assert ansor.abstract == (
        "High-performance tensor programs are crucial. Ansor is up to 3.8× faster on "
        "Intel CPUs, ARM CPUs and NVIDIA GPUs."
    )
    assert ansor.authors == ("Lianmin Zheng", "Chengfan Jia", "Ion Stoica")
    assert (ansor.year, ansor.arxiv, ansor.venue) == (2020, "2006.06762", "OSDI 2020")
    assert ansor.url == "https://arxiv.org/abs/2006.06762"
    assert raf.authors == ("Cody Hao Yu", "Haozheng Fan")  # from the `authors` string
    assert (
        raf.abstract == "A deep learning compiler for training that holistically optimizes models."
    )
    assert raf.venue == "arXiv preprint" and raf.entry_type == "misc"
    assert raf.keywords == ("compilers", "training", "nvidia-gpu")
    assert raf.categories == ("cs.LG",)  # arXiv's own vocabulary, a facet of its own
    assert [str(w) for w in warnings] == [
        "arxiv.jsonl:2: malformed JSON line: Unterminated string starting at"
    ]
    assert raf.sources[0].line == 4


def test_csl_json() -> None:
    papers, records, warnings = load_json(_read("csl.json"), "csl.json")
    assert records == [] and warnings == []
    hlat, bids = papers
    assert hlat.authors == ("Haozheng Fan", "Yida Wang")
    assert (hlat.year, hlat.month, hlat.entry_type) == (2024, 12, "inproceedings")
    assert hlat.booktitle == "2024 IEEE International Conference on Big Data (BigData)"
    assert (hlat.doi, hlat.pages, hlat.publisher) == (
        "10.1109/BigData62323.2024.10825098",
        "2100-2109",
        "IEEE",
    )
    assert hlat.citation_key == "wang2024hlat"
    assert (bids.entry_type, bids.journal, bids.volume, bids.number) == (
        "article",
        "PLOS Computational Biology",
        "13",
        "3",
    )
    assert bids.authors[-1] == "The BIDS Consortium"
    assert [hlat.sources[0].line, bids.sources[0].line] == [2, 31]  # where each object opens


def test_malformed_json_names_the_line() -> None:
    papers, _, warnings = load_json(_read("malformed.json"), "malformed.json")
    assert papers == []
    assert [str(w) for w in warnings] == [
        "malformed.json:3: malformed JSON: Expecting ',' delimiter"
    ]


def test_records_without_title_or_abstract_are_reported() -> None:
    papers, _, warnings = load_json('[{"title": "Kept"}, {"year": 2020}, 7]', "x.json")
    assert [p.title for p in papers] == ["Kept"]
    assert [w.message for w in warnings] == [
        "record 2 has no title, abstract, author, date or container; skipped",
        "record 3 is not a JSON object; skipped",
    ]


def test_a_csl_item_named_only_by_another_title_is_a_paper() -> None:
    """CSL's volume, part, original, reviewed or event title names a work too (the CSL
    test suite's textcase_TitleCaseWithVolumeTitle was lost to the loader)."""
    text = (
        '[{"id": "v", "type": "book", "volume-title": "Syntax und Stilistik"},'
        ' {"id": "e", "type": "book", "event-title": "Tagung"},'
        ' {"id": "nothing", "type": "book"}]'
    )
    papers, _, warnings = load_json(text, "x.json")
    assert [(p.id, p.title, p.title_inferred) for p in papers] == [
        ("v", "Syntax und Stilistik", True),
        ("e", "Tagung", True),
    ]
    assert papers[0].records[0].item()["volume-title"] == "Syntax und Stilistik"
    assert [w.message for w in warnings] == [
        "record 3 has no title, abstract, author, date or container; skipped"
    ]


def test_plain_records_use_paper_field_names() -> None:
    papers, _, _ = load_json(
        '{"papers": [{"id": "x1", "title": "T", "authors": ["A B"], "year": "2021", '
        '"topics": ["gnn"], "hardware": "fpga"}]}',
        "p.json",
    )
    (paper,) = papers
    assert (paper.id, paper.authors, paper.year, paper.keywords) == (
        "x1",
        ("A B",),
        2021,
        ("gnn", "fpga"),
    )


def test_csl_json_isbn_and_pmid() -> None:
    text = (
        '[{"id": "x", "type": "book", "title": "X", "issued": {"date-parts": [[2001]]},'
        ' "ISBN": "0-306-40615-2", "PMID": "123"}]'
    )
    papers, _, _ = load_json(text, "x.json")
    assert (papers[0].isbn, papers[0].pmid) == ("9780306406157", "123")
