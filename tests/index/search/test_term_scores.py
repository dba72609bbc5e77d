"""A scored word's postings are read once and give the scores Whoosh's scorer gives."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index
from whoosh.scoring import bm25

import index.whoosh_ext as guard
from index import open_engine
from index.models import Library, SearchRequest
from index.schema.fields import build_schema, document
from index.search import ranking
from index.search.engine import SearchEngine
from index.search.matching import Evaluation
from index.search.term_scores import K1, B, TermScores
from tests.fixtures.search.generate import TAXONOMY, make_library

WORDS = [("abstract", "model"), ("title", "cach"), ("authors", "zhang"), ("venue", "osdi")]


@pytest.fixture(scope="module")
def library() -> Library:
    return make_library(200)


@pytest.fixture(scope="module")
def segmented(library: Library, tmp_path_factory: pytest.TempPathFactory) -> Index:
    """The library in three segments, two papers deleted: document numbers start anew
    in each segment and the deleted ones still hold postings."""
    ix = FileStorage(str(tmp_path_factory.mktemp("segments"))).create_index(build_schema())
    for chunk in (library.papers[:90], library.papers[90:150], library.papers[150:]):
        with ix.writer(merge=False) as writer:
            for paper in chunk:
                writer.add_document(**document(paper))
    with ix.writer(merge=False) as writer:
        writer.delete_by_term("id", library.papers[3].id)
        writer.delete_by_term("id", library.papers[120].id)
    return ix


@pytest.fixture(scope="module")
def cache(library: Library, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The library's index, built once for the module."""
    folder = tmp_path_factory.mktemp("cache")
    open_engine(library, TAXONOMY, folder).close()
    return folder


@pytest.fixture
def engine(library: Library, cache: Path) -> Iterator[SearchEngine]:
    """A fresh engine on the module's index: nothing a test read stays cached for the next."""
    engine = open_engine(library, TAXONOMY, cache)
    assert engine.opened.action == "up to date"
    yield engine
    engine.close()


def _whooshs(ix: Index, fieldname: str, text: str) -> dict[int, float]:
    """docnum -> the word's BM25F part, by Whoosh's public API, posting by posting."""
    with ix.searcher() as searcher:
        idf = searcher.idf(fieldname, text)
        avgfl = searcher.avg_field_length(fieldname) or 1
        parts = {}
        for leaf, offset in searcher.reader().leaf_readers():
            if (fieldname, text) not in leaf:
                continue
            matcher = leaf.postings(fieldname, text)
            while matcher.is_active():
                length = leaf.doc_field_length(matcher.id(), fieldname, 1)
                parts[matcher.id() + offset] = bm25(idf, matcher.weight(), length, avgfl, B, K1)
                matcher.next()
        return parts


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "stock"])
def test_parts_are_whooshs_bm25_for_every_posting(
    segmented: Index, fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "FAST_PATHS", fast)
    assert len(segmented.reader().leaf_readers()) == 3
    scores = TermScores(segmented.doc_count_all())
    with segmented.searcher() as searcher:
        for fieldname, text in WORDS:
            docs, parts = scores.parts(searcher, fieldname, text)
            assert list(docs) == sorted(docs)
            # The fast path keeps deleted documents' postings (callers mask them).
            live = {d: p for d, p in zip(docs, parts) if not searcher.reader().is_deleted(d)}
            expected = _whooshs(segmented, fieldname, text)
            assert expected, (fieldname, text)
            assert live == expected  # the same documents, the same floats exactly


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, object]]:
    reads: Counter[tuple[str, object]] = Counter()
    original = TermScores._read

    def read(self: TermScores, searcher: Any, fieldname: str, text: object) -> Any:
        reads[fieldname, text] += 1
        return original(self, searcher, fieldname, text)

    monkeypatch.setattr(TermScores, "_read", read)
    return reads


def test_a_word_is_read_once_for_every_keystroke_until_forgotten(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _count_reads(monkeypatch)
    typed = "model cache"
    for end in range(len("model") + 1, len(typed) + 1):
        engine.search(SearchRequest(query=typed[:end], as_you_type=True))
    assert reads["abstract", "model"] == 1
    assert reads["title", "cach"] == 1
    engine.forget_cached()
    engine.search(SearchRequest(query="model cache!"))  # a new request: not a cached result
    assert reads["abstract", "model"] == 2


def test_past_its_budget_the_least_recently_used_words_go(
    segmented: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _count_reads(monkeypatch)
    scores = TermScores(segmented.doc_count_all())
    with segmented.searcher() as searcher:
        sizes = [len(scores.parts(searcher, *word)[0]) for word in WORDS[:3]]
        scores.clear()
        scores.budget = sizes[0] + sizes[2]  # the first and the third fit, not all three
        for word in (*WORDS[:3], WORDS[2], WORDS[0]):
            scores.parts(searcher, *word)
    # Read again after clear(); the second pushed the first out, then the third pushed
    # out the second; the third is still kept, the first was read a third time.
    assert [reads[word] for word in WORDS[:3]] == [3, 2, 2]


@pytest.mark.parametrize(
    "typed", ["model training", "model tra", "cache OR graph", "cache -zhang", "m"]
)
def test_a_big_match_set_of_words_is_ranked_as_a_small_one_without_whooshs_collector(
    engine: SearchEngine, typed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = SearchRequest(query=typed, as_you_type=True, limit=7)
    small = engine.search(request)
    assert small.total > 7
    engine.forget_cached()

    def whooshs_collector(*args: Any, **options: Any) -> Any:
        raise AssertionError("ranked by Whoosh's collector")

    monkeypatch.setattr(ranking, "TERM_AT_A_TIME_LIMIT", 0)
    monkeypatch.setattr(ranking.Searcher, "search", whooshs_collector)
    big = engine.search(request)
    assert [(hit.paper.id, hit.score) for hit in big.hits] == [
        (hit.paper.id, hit.score) for hit in small.hits
    ]


def _summed_one_by_one(
    engine: SearchEngine, searcher: Any, terms: list[Any], final: int
) -> dict[int, float]:
    """`ranking.score` as the plain loop it speeds up: every posting tested, in order."""
    scores: dict[int, float] = {}
    for fieldname, text, boost in terms:
        docs, parts = TermScores(engine.masks.size).parts(searcher, fieldname, text)
        for docnum, part in zip(docs, parts):
            if final >> docnum & 1:
                scores[docnum] = scores.get(docnum, 0.0) + boost * part
    return scores


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("model", ()),
        ("model training", ()),
        ("cache OR graph", ()),
        ("title:sparse kernel", ()),
        ("model tra", ()),  # typed: `tra` a prefix, its whole word an optional boost
        ("model", ("training",)),  # a filter: not every document holding the word matches
        ("cache OR graph", ("training",)),
        ("model", ("-one",)),  # one document left out: summed untested, then dropped
    ],
)
def test_scores_are_the_plain_loops_floats_exactly(
    engine: SearchEngine, text: str, topics: tuple[str, ...]
) -> None:
    with engine._searcher() as searcher:
        parsed = engine._builder.parse(text, searcher.reader(), as_you_type=text == "model tra")
        final = engine._matching.mask(searcher, parsed.query, Evaluation({}, engine._layer, 0))
        if topics == ("-one",):
            final &= final - 1  # the lowest document out
        elif topics:
            final &= engine.masks.value_mask("topic", topics[0], searcher.reader())
        scoring = ranking.ranking_query(parsed.query)
        assert scoring is not None
        terms = ranking.scored_terms(scoring)
        plain = _summed_one_by_one(engine, searcher, terms, final)
        kept = TermScores(engine.masks.size)
        unknown = ranking.score(searcher, terms, final, engine.masks.size, kept)
        for fieldname, word, _ in terms:  # as the words' match sets make them
            kept.mask(searcher, fieldname, word)
        known = ranking.score(searcher, terms, final, engine.masks.size, kept)
    assert plain and unknown == plain and known == plain
