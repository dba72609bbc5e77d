"""The records a first load hands out as soon as the files are read (index.library.first_rows).

The app shows their first page and answers plain searches from them before duplicates
are merged and the index is built; these tests hold what it may promise: the whole read,
honest plain matching, the index's order for an empty query, and the names the finished
library will give the records whose ids are settled.
"""

from __future__ import annotations

from pathlib import Path

from index.facets.taxonomy import load_taxonomy
from index.library.early_sample import raw_ids, settled_ids
from index.library.first_rows import PLAIN_NOTICE, ReadRecords, plain_request
from index.library.load import load_library
from index.models import Paper, SearchRequest

TAXONOMY = load_taxonomy()


def records(papers: list[Paper]) -> ReadRecords:
    ids = raw_ids(papers)
    return ReadRecords(papers, ids, settled_ids(ids))


PAPERS = [
    Paper(id="Smith:2019ab", title="Tangible Bits Revisited", authors=("Ann Smith",), year=2019),
    Paper(id="Lee:2021", title="Shape Displays", authors=("Bo Lee",), year=2021, venue="UIST"),
    Paper(id="dup", title="Tangible Shape Change", authors=("Cy Dup",), year=2020),
    Paper(id="dup", title="Tangible shape change", authors=("Cy Dup",), year=2020),
    Paper(id="Old:1990", title="Zooming Interfaces", authors=("Di Old",), year=None),
]


def test_an_empty_query_lists_every_record_newest_first_as_the_index_does() -> None:
    read = records(PAPERS)
    found, total = read.matching(SearchRequest(limit=3))
    assert total == 5  # duplicates too: nothing is merged yet
    assert [paper.title for paper in found] == [
        "Shape Displays",
        "Tangible Shape Change",
        "Tangible shape change",
    ]
    found, _ = read.matching(SearchRequest(limit=10, sort="title"))
    assert found[0].title == "Shape Displays" and found[-1].title == "Zooming Interfaces"
    found, _ = read.matching(SearchRequest(limit=10, sort="year-asc"))
    assert [paper.year for paper in found] == [2019, 2020, 2020, 2021, None]


def test_every_word_must_occur_in_title_authors_year_venue_or_key() -> None:
    read = records(PAPERS)
    assert read.matching(SearchRequest(query="TANGIBLE shape"))[1] == 2
    assert read.matching(SearchRequest(query="tangible smith"))[1] == 1  # an author
    assert read.matching(SearchRequest(query="uist 2021"))[1] == 1  # venue and year
    assert read.matching(SearchRequest(query="lee:2021"))[1] == 1  # the key
    assert read.matching(SearchRequest(query="tangible zooming"))[1] == 0


def test_settled_ids_are_the_finished_librarys_names_and_find_the_record() -> None:
    read = records(PAPERS)
    found, _ = read.matching(SearchRequest(query="revisited"))
    (paper,) = found
    assert paper.id == raw_ids([PAPERS[0]])[0] and paper.title == PAPERS[0].title
    assert read.paper(paper.id) == paper
    shared = read.matching(SearchRequest(query="dup"))[0]
    assert [p.id for p in shared] == ["dup", "dup"]  # not settled: named as read
    assert read.paper("nothing-like-it") is None


def test_a_search_is_a_result_with_no_counts_and_says_what_it_matched() -> None:
    read = records(PAPERS)
    result = read.search(SearchRequest(query="tangible", limit=1))
    assert result.total == 3 and len(result.hits) == 1 and result.facets == {}
    assert result.library_size == 5 and result.notice == PLAIN_NOTICE
    assert read.search(SearchRequest()).notice is None
    marked = read.search(SearchRequest(within=frozenset({"dup"})))
    assert marked.total == 2 and {hit.paper.id for hit in marked.hits} == {"dup"}


def test_only_plain_words_without_filters_are_answered_as_the_index_would() -> None:
    assert plain_request(SearchRequest(query="tangible shape"))
    assert plain_request(SearchRequest(query="co-design"))
    for query in ("topic:training", '"a phrase"', "-word", "micro*", "sheduling~"):
        assert not plain_request(SearchRequest(query=query)), query
    assert not plain_request(SearchRequest(years=frozenset({2020})))
    assert not plain_request(SearchRequest(within=frozenset({"x"})))


def test_the_load_hands_out_every_record_read_before_merging_and_not_from_its_cache(
    tmp_path: Path,
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a2020, title={Tangible Shape Change}, author={Dup, Cy}, year={2020},"
        " doi={10.1/tsc}}\n"
        "@article{b2020, title={Tangible shape change}, author={Dup, Cy}, year={2020},"
        " doi={10.1/tsc}}\n"
        "@article{c2021, title={Shape Displays}, author={Lee, Bo}, year={2021}}\n",
        encoding="utf-8",
    )
    given: list[ReadRecords] = []
    library = load_library([bib], TAXONOMY, cache_dir=tmp_path / "cache", read=given.append)
    (read,) = given
    assert len(read) == 3 and len(library.papers) == 2  # read before the two merged
    assert {paper.id for paper in library.papers} >= {read.named(2).id}
    again: list[ReadRecords] = []
    cached = load_library([bib], TAXONOMY, cache_dir=tmp_path / "cache", read=again.append)
    assert cached.from_cache and again == []  # a start from the cache shows the index at once
