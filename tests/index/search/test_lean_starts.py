"""A word start on a lean first index finds the papers the full index finds.

The full index answers a word start (the word being typed) from its edge n-grams of the
titles', short names' and authors' words; the lean index has none, and its titles hold
stems without stop words (`learni` begins no stem of "learning"). index.search.lean's
`WordStarts` answers those n-gram terms from the library: checked here against the full
index's own `prefix` postings for every start it holds, and as whole searches (matched
papers, ranked rows, notices) for the starts a user types: 1 to 4 letters, whole words,
words past the n-grams' `MAX_GRAM` letters, stop words, digits and dotted forms, folded
names, venue words, and a start that begins thousands of words.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from index.models import Library, Paper, SearchRequest
from index.schema.analysis import MAX_GRAM
from index.search.bitsets import bits
from index.search.engine import SearchEngine
from tests.fixtures.search.generate import TAXONOMY, make_library
from tests.index.search.lean_pair import lean_and_full

# Papers that hold what the generated ones do not: a long word, stop words in a title,
# digits and dotted forms, accents to fold, a name that is a stem's prefix of another.
ODD = (
    ("The art of learning: what a learned model learns", "Olaf Ødegård", "NeurIPS"),
    ("Electroencephalographically guided counterrevolutionaries", "Ana Li", "Journal of Æsthetics"),
    ("GPT-4 and BERT2 on v3.2x hardware at 10.5 TFLOPS", "José Núñez", "arXiv"),
    ("Über caching in Zürich", "Learnington Spa", "Proceedings of the VLDB Endowment"),
    ("Of mice and memory caches", "Bo Yu", None),
)
# Words made up to share a start: "zq" begins a thousand of them, each in a title.
MANY = 1000


def _library() -> Library:
    papers = list(make_library(60).papers)
    for n, (title, author, venue) in enumerate(ODD):
        papers.append(replace(papers[n], id=f"odd{n}", title=title, authors=(author,), venue=venue))
    made = [f"zq{n:04d}x" for n in range(MANY)]
    for n in range(20):
        words = " ".join(made[n * 50 : (n + 1) * 50])
        papers.append(replace(papers[n], id=f"many{n}", title=f"Made up {words}"))
    return Library(papers=tuple(papers))


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """(the lean engine a first start serves, the full engine it then opens)."""
    yield from lean_and_full(_library(), tmp_path_factory.mktemp("c"))


def _ids(engine: SearchEngine[Any], docnums: list[int]) -> set[str]:
    return {engine.masks.ids[d] for d in docnums}


def test_every_start_the_full_index_holds_finds_the_same_papers(engines: Any) -> None:
    lean, full = engines
    assert lean.lean and not full.lean
    with full.opened.index.searcher() as searcher:
        reader = searcher.reader()
        starts = [term.decode("utf-8") for term in reader.lexicon("prefix")]
        assert len(starts) > 2 * MANY  # every start of every word
        for start in starts:
            docs = list(searcher.postings("prefix", start).all_ids())
            assert _ids(lean, bits(lean._starts.mask(start))) == _ids(full, docs), start
    assert max(map(len, starts)) == MAX_GRAM  # longer words are in by their first letters


STARTS = [
    "l",
    "le",
    "lea",
    "lear",
    "learni",
    "learning",
    "learne",
    "zq",
    "zq0",
    "zq01",
    "z",
    "th",
    "the",
    "of",
    "gpt",
    "gpt-",
    "gpt-4",
    "bert",
    "bert2",
    "v3",
    "v3.2",
    "10.5",
    "electroencephalograph",  # 21 letters: past the n-grams
    "electroencephalographically",
    "counterrevolutionarie",
    "odeg",
    "ødeg",
    "nunez",
    "núñ",
    "jose",
    "uber",
    "zur",
    "endow",
    "æsth",
    "aesth",
    "proceed",
    "vld",
    "memory cach",
    "memory c",
    "mice memo",
    "pipeline m",
    "topic:training me",
    "author:li",
    "author:l",
    "title:lea",
    "venue:neur",
    "name:",
    '"memory cach',
    "micro-b",
    "qq",
]


@pytest.mark.parametrize("typed", STARTS)
def test_a_word_being_typed_finds_the_full_index_papers_in_its_order(
    engines: Any, typed: str
) -> None:
    lean, full = engines
    request = SearchRequest(query=typed, as_you_type=True, limit=1000)
    on_lean, on_full = lean.search(request), full.search(request)
    found = {hit.paper.id for hit in on_lean.hits}
    assert found == {hit.paper.id for hit in on_full.hits}
    assert on_lean.total == on_full.total
    assert [h.paper.id for h in on_lean.hits] == [h.paper.id for h in on_full.hits]
    assert on_lean.partial == on_full.partial
    assert on_lean.notice == on_full.notice
    assert on_lean.facets == on_full.facets
    assert found or typed in ("qq", "name:", "aesth")  # as the full index: nothing


@pytest.mark.parametrize("typed", ["learni*", "zq0*", "gpt*", "title:lea*", "odeg* memory"])
def test_a_typed_prefix_is_exact_too(engines: Any, typed: str) -> None:
    lean, full = engines
    request = SearchRequest(query=typed, limit=1000)
    assert [h.paper.id for h in lean.search(request).hits] == [
        h.paper.id for h in full.search(request).hits
    ]
    assert lean.search(request).total > 0


def test_a_start_finds_what_learni_should(engines: Any) -> None:
    """The case that was wrong: a title's stem `learn` is no word starting `learni`."""
    lean, _ = engines
    result = lean.search(SearchRequest(query="learni", as_you_type=True, limit=100))
    assert "odd0" in {hit.paper.id for hit in result.hits}
    assert result.notice is None


def test_a_lean_index_is_not_searched_without_its_library(engines: Any) -> None:
    lean, _ = engines
    with pytest.raises(ValueError, match="searched with its library"):
        SearchEngine(lean.opened, None, TAXONOMY)


def test_the_library_paper_is_what_a_hit_shows(engines: Any) -> None:
    lean, _ = engines
    hit = lean.search(SearchRequest(query="ødeg", as_you_type=True)).hits[0]
    assert isinstance(hit.paper, Paper) and hit.paper.id == "odd0"
    assert lean.paper("odd0") == hit.paper
