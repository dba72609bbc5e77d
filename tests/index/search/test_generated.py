"""Every speed trick gives the answer the slow, obvious way gives (generated library)."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh import query as wq

from index import open_engine
from index.models import Library, Paper, SearchRequest, SearchResult
from index.schema.analysis import fold_word
from index.schema.venues import short_venue
from index.search import prefixes
from index.search.bitsets import bits, mask_of
from index.search.engine import SearchEngine
from index.search.matching import Evaluation
from index.search.prefixes import prefix_cap
from index.search.term_scores import TermScores
from tests.fixtures.search.generate import TAXONOMY, make_library


@pytest.fixture(scope="module")
def library() -> Library:
    return make_library(300)


@pytest.fixture(scope="module")
def engine(library: Library, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    """The library's index, with the first-keystroke masks a large library gets stored."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prefixes, "LETTER_MASKS_MIN_PAPERS", 0)
        engine = open_engine(library, TAXONOMY, tmp_path_factory.mktemp("cache"))
    yield engine
    engine.close()


def fresh(engine: SearchEngine) -> SearchEngine:
    """The same index with every cache emptied: nothing narrowed, nothing remembered."""
    engine._results.clear()
    engine._matching.cache.clear()
    engine._builder.expander._expansions.clear()
    engine._term_scores.clear()
    return engine


def short_words(paper: Paper) -> set[str]:
    text = " ".join([paper.title, paper.short_name or "", " ".join(paper.authors)])
    return {fold_word(w) for w in re.findall(r"\w+(?:\.?\w+)*", text)}


def test_edge_ngrams_equal_a_plain_prefix_scan(engine: SearchEngine, library: Library) -> None:
    words = sorted(set().union(*(short_words(p) for p in library.papers)))
    starts = sorted({w[:n] for w in words for n in (1, 2, 3, 5)})
    with engine._searcher() as searcher:
        docs_of = {d: engine.masks.ids[d] for d in range(engine.masks.size)}
        for prefix in starts:
            found = {docs_of[d] for d in searcher.docs_for_query(wq.Term("prefix", prefix))}
            expected = {
                p.id for p in library.papers if any(w.startswith(prefix) for w in short_words(p))
            }
            assert found == expected, prefix


def test_abstract_expansion_equals_whooshs_prefix_query(engine: SearchEngine) -> None:
    with engine._searcher() as searcher:
        reader = searcher.reader()
        for prefix in ("mic", "batc", "qu", "sched", "z"):
            from index.search.parser import Parsed

            parsed = Parsed(None)
            terms = engine._builder.expand(reader, "abstract", prefix, parsed)
            plain = [t.decode() for t in reader.expand_prefix("abstract", prefix)]
            cap = prefix_cap(prefix)
            if cap is not None and len(plain) > cap:
                assert parsed.partial and len(terms) == cap
            else:
                assert sorted(terms) == sorted(plain) and not parsed.partial


def signature(result: SearchResult) -> tuple[object, ...]:
    return (
        result.total,
        [(h.paper.id, round(h.score, 6)) for h in result.hits],
        sorted(result.facets.items()),
        result.partial,
        result.terms,
    )


@pytest.mark.parametrize(
    "text",
    [
        "dynamic micro-batching",
        "gradient checkpoint recovery",
        "stärk model tra",
        "author:zh",
        "training -latency sp",
    ],
)
def test_narrowed_results_equal_fresh_results(engine: SearchEngine, text: str) -> None:
    typed = [
        SearchRequest(text[:n], as_you_type=True, topics=frozenset({"training"}))
        for n in range(1, len(text) + 1)
    ]
    warm = [signature(engine.search(request)) for request in typed]  # caches narrow
    cold = [signature(fresh(engine).search(request)) for request in typed]
    assert warm == cold


def brute(library: Library, request: SearchRequest, matched: set[str]) -> dict[str, Counter]:
    """Disjunctive counts the obvious way: filter by every other facet, then count."""

    def passes(paper: Paper, skip: str) -> bool:
        checks = {
            "topic": not request.topics or bool(request.topics & set(paper.topic_ids or ("none",))),
            "hardware": not request.hardware or bool(request.hardware & set(paper.hardware_ids)),
            "year": (not request.years or paper.year in request.years)
            and (
                request.year_range is None
                or (
                    paper.year is not None
                    and (request.year_range[0] is None or request.year_range[0] <= paper.year)
                    and (request.year_range[1] is None or paper.year <= request.year_range[1])
                )
            ),
            "venue": not request.venues or short_venue(paper.venue) in request.venues,
            "author": not request.authors or bool(request.authors & set(paper.authors)),
            "keyword": not request.keywords or bool(request.keywords & set(paper.keywords)),
            "category": not request.categories or bool(request.categories & set(paper.categories)),
        }
        return all(ok for facet, ok in checks.items() if facet != skip)

    counts: dict[str, Counter] = {}
    for facet in ("topic", "hardware", "year", "venue", "author", "keyword", "category"):
        counter: Counter = Counter()
        for paper in library.papers:
            if paper.id in matched and passes(paper, facet):
                counter.update(
                    {
                        "topic": paper.topic_ids or ("none",),  # "none": no topic
                        "hardware": paper.hardware_ids,
                        "year": (str(paper.year) if paper.year else "0",),  # "0": no year
                        "venue": (short_venue(paper.venue),) if paper.venue else (),
                        "author": paper.authors,
                        "keyword": paper.keywords,
                        "category": paper.categories,
                    }[facet]
                )
        counts[facet] = counter
    # With no user layer set, every paper is unread; the source's tags count as they are.
    passing = [p for p in library.papers if p.id in matched and passes(p, "")]
    counts["status"] = Counter({"unread": len(passing)})
    counts["keyword"] = Counter(k for p in passing for k in p.keywords)
    counts["tag"] = counts["collection"] = Counter()
    return counts


def test_mask_counts_equal_brute_force(engine: SearchEngine, library: Library) -> None:
    rng = random.Random(3)
    everything = engine.search(SearchRequest("", limit=0))
    authors = [c.value for c in everything.facets["author"]]
    venues = [c.value for c in everything.facets["venue"]]
    for _ in range(25):
        request = SearchRequest(
            query=rng.choice(["", "model", "cache OR graph", "train*", "-sparse"]),
            topics=frozenset(
                rng.sample(["training", "inference", "vision", "none"], rng.randint(0, 2))
            ),
            hardware=frozenset(
                rng.sample(["gpu", "nvidia-gpu", "cpu", "accelerator"], rng.randint(0, 2))
            ),
            years=frozenset(rng.sample([2020, 2024, 2025], rng.randint(0, 1))),
            venues=frozenset(rng.sample(venues, rng.randint(0, 1))),
            authors=frozenset(rng.sample(authors, rng.randint(0, 1))),
            year_range=rng.choice([None, (2021, 2025)]),
            limit=1000,
        )
        result = engine.search(request)
        text_only = engine.search(SearchRequest(request.query, limit=1000))
        matched = {hit.paper.id for hit in text_only.hits}
        expected = brute(library, request, matched)
        for facet, counts in result.facets.items():
            for count in counts:
                assert count.count == expected[facet][count.value], (request, facet, count)
            if facet in ("venue", "author"):  # the top values, truly the top
                shown = [c.count for c in counts if not c.selected]
                chosen = {c.value for c in counts if c.selected}
                top = sorted(
                    (n for v, n in expected[facet].items() if v not in chosen), reverse=True
                )[: len(shown)]
                assert sorted(shown, reverse=True) == top


def test_accents_fold_both_ways(engine: SearchEngine, library: Library) -> None:
    starks = {p.id for p in library.papers if any("Stärk" in a for a in p.authors)}
    assert starks
    for query in ("stark", "Stärk", "author:stark", "STARK"):
        result = engine.search(SearchRequest(query, limit=1000))
        assert {h.paper.id for h in result.hits} == starks, query


def test_short_prefix_is_capped_and_says_so(engine: SearchEngine) -> None:
    with engine._searcher() as searcher:
        many = sum(1 for _ in searcher.reader().expand_prefix("abstract", "c"))
    result = engine.search(SearchRequest("c", as_you_type=True))
    assert result.partial == (many > (prefix_cap("c") or many))
    assert not engine.search(SearchRequest("cache", as_you_type=True)).partial


def test_bits_and_masks_round_trip() -> None:
    rng = random.Random(5)
    for size in (1, 7, 64, 1000):
        docs = sorted(rng.sample(range(size), rng.randint(0, size)))
        assert bits(mask_of(docs, size)) == docs


def test_prefix_search_matches_brute_force(engine: SearchEngine, library: Library) -> None:
    for prefix in ("gra", "zh", "wom", "mü"):
        result = engine.search(SearchRequest(prefix, as_you_type=True, limit=1000))
        ids = [h.paper.id for h in result.hits]
        got = set(ids)
        assert len(got) == len(ids)  # no paper listed twice
        expected_short = {
            p.id
            for p in library.papers
            if any(w.startswith(fold_word(prefix)) for w in short_words(p))
        }
        assert expected_short <= got, prefix
        assert result.total == len(got)


def test_prefix_table_equals_on_demand_expansion(engine: SearchEngine) -> None:
    from index.search.parser import Parsed, QueryBuilder

    assert engine._builder.expander.table  # the build wrote it beside the index
    on_demand = QueryBuilder()
    with engine._searcher() as searcher:
        reader = searcher.reader()
        for prefix in ("c", "s", "m", "ca", "gr", "zz", "é"):
            table, scan = Parsed(None), Parsed(None)
            assert engine._builder.expand(reader, "abstract", prefix, table) == on_demand.expand(
                reader, "abstract", prefix, scan
            ), prefix
            assert table.partial == scan.partial


def test_block_posting_reader_equals_whooshs_matcher(library: Library, tmp_path: Path) -> None:
    from whoosh.filedb.filestore import FileStorage

    from index.schema.fields import build_schema, document
    from index.search.bitsets import posting_ids

    # A folder of its own: RamStorage's writer shares /tmp/MAIN.tmp with every other run.
    ix = FileStorage(str(tmp_path)).create_index(build_schema())
    for chunk in (library.papers[:150], library.papers[150:]):  # two segments
        with ix.writer() as writer:
            for paper in chunk:
                writer.add_document(**document(paper))
    with ix.writer() as writer:
        writer.delete_by_term("id", library.papers[3].id)
        writer.delete_by_term("id", library.papers[200].id)
        writer.mergetype = __import__("whoosh.writing").writing.NO_MERGE
    with ix.reader() as reader:
        assert len(list(reader.leaf_readers())) >= 2 and reader.has_deletions()
        for fieldname in ("abstract", "prefix", "hw"):
            for text in list(reader.lexicon(fieldname))[:300]:
                live = [d for d in posting_ids(reader, fieldname, text) if not reader.is_deleted(d)]
                assert live == list(reader.postings(fieldname, text).all_ids()), text


@pytest.mark.parametrize(
    "text",
    [
        "model training",
        "cache OR graph",
        "title:sparse kernel",
        '"memory bandwidth"',
        "stärk pipeline",
    ],
)
def test_term_at_a_time_scores_equal_whooshs(engine: SearchEngine, text: str) -> None:
    from index.search import ranking

    with engine._searcher() as searcher:
        parsed = engine._builder.parse(text, searcher.reader())
        final = engine._matching.mask(searcher, parsed.query, Evaluation({}, engine._layer, 0))
        whoosh = {d: s for s, d in searcher.search(parsed.query, limit=None).top_n}
        ours = ranking.score(
            searcher,
            ranking.scored_terms(parsed.query),
            final,
            engine.masks.size,
            TermScores(engine.masks.size),
        )
    assert whoosh and set(whoosh) == set(bits(final))
    if text.startswith('"'):
        return  # Whoosh scores a phrase by its own rule; the words are what we sum
    assert set(ours) == set(whoosh)
    for docnum, value in whoosh.items():
        assert ours[docnum] == pytest.approx(value, rel=1e-4), docnum


@pytest.mark.parametrize("text", ["cache gr", "stärk mo", "title:sparse ke", "model ü"])
def test_prefix_checked_in_candidates_text_equals_brute_force(
    engine: SearchEngine, library: Library, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prefixes, "VERIFY_SHARE", 1)  # a small library: always check
    fresh(engine)
    *done, typing = text.split()
    field = typing.split(":")[0] if ":" in typing else None
    before = engine.search(SearchRequest(" ".join(done), limit=1000))
    assert 0 < before.total <= 2000  # few enough candidates: the text is checked
    fields = ("title", "short_name", "authors", "abstract", "venue") if field is None else (field,)

    def starts(paper: Paper) -> bool:
        values = {
            "title": paper.title,
            "short_name": paper.short_name or "",
            "authors": " ".join(paper.authors),
            "abstract": paper.abstract,
            "venue": paper.venue or "",
        }
        return any(
            w.startswith(fold_word(typing.split(":")[-1]))
            for name in fields
            for w in re.findall(r"\w+", fold_word(values[name]))
        )

    expected = {h.paper.id for h in before.hits if starts(h.paper)}
    result = engine.search(SearchRequest(text, as_you_type=True, limit=1000))
    assert {h.paper.id for h in result.hits} == expected and result.total == len(expected)
    fresh(engine)


@pytest.mark.parametrize(("field", "paper", "count"), [("", 5, 2), ("", 17, 3), ("title", 9, 2)])
def test_a_phrase_being_typed_never_drops_below_the_finished_one(
    engine: SearchEngine, library: Library, field: str, paper: int, count: int
) -> None:
    source = library.papers[paper].title if field else library.papers[paper].abstract
    words = " ".join(re.findall(r"\w+", source.lower())[1 : 1 + count])  # side by side there
    quoted = f'{field}:"{words}' if field else f'"{words}'
    final = engine.search(SearchRequest(quoted + '"', limit=1000))
    assert final.total  # the generated papers hold these words side by side
    finished = {h.paper.id for h in final.hits}
    start = len(quoted) - len(words)
    for end in range(start + 1, len(quoted) + 1):
        typed = quoted[:end]
        if typed[-1] == " ":
            continue  # between words: the phrase so far, closed
        result = fresh(engine).search(SearchRequest(typed, as_you_type=True, limit=1000))
        assert finished <= {h.paper.id for h in result.hits}, typed
        assert result.notice and "last word as a prefix" in result.notice
        last = typed.split()[-1].rpartition(":")[2].lstrip('"')
        for hit in result.hits:  # and every paper shown holds a word the typing could finish
            p = hit.paper
            text = (
                p.title
                if field
                else " ".join((p.title, p.short_name or "", *p.authors, p.abstract, p.venue or ""))
            )
            assert re.search(rf"(?<!\w){re.escape(last)}", text, re.IGNORECASE), (
                typed,
                hit.paper.id,
            )


def test_an_excluded_phrase_being_typed_stays_a_phrase(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest('model -"dynamic mic', as_you_type=True))
    assert result.notice == "Unclosed quote: searched up to the end as a phrase"


def test_stored_letter_masks_equal_computed_ones(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert engine._matching.letters  # the build stored them beside the index
    monkeypatch.setattr(prefixes, "LETTER_MASKS_MIN_PAPERS", 0)
    short = prefixes.short_prefixes(engine._builder.expander.table, engine.masks.size)
    assert "author:z" in short
    with engine._searcher() as searcher:  # a field's first letter is stored like any
        node = engine._builder.parse("author:z", searcher.reader(), as_you_type=True).query
    assert repr(node) in engine._matching.letters
    requests = [
        SearchRequest(p, as_you_type=True, topics=topics)
        for p in short + ["model t", "cache c"]
        for topics in (frozenset(), frozenset({"training"}))
    ]
    fast = [signature(fresh(engine).search(r)) for r in requests]
    stored, engine._matching.letters = engine._matching.letters, {}
    try:
        slow = [signature(fresh(engine).search(r)) for r in requests]
    finally:
        engine._matching.letters = stored
    assert fast == slow


def test_letter_masks_of_other_segments_are_ignored(engine: SearchEngine, tmp_path: Path) -> None:
    import json

    from index.search.letter_masks import read_letters
    from index.search.prefixes import LETTERS_FILE

    with engine._searcher() as searcher:
        assert read_letters(engine.opened.path, searcher.reader())
        data = json.loads((engine.opened.path / LETTERS_FILE).read_text())
        data["segments"] = {"another": next(iter(data["segments"].values()))}
        (tmp_path / LETTERS_FILE).write_text(json.dumps(data))
        assert read_letters(tmp_path, searcher.reader()) == {}
        (tmp_path / LETTERS_FILE).write_text('{"format": 1, "segments": ["x"], "masks": {}}')
        assert read_letters(tmp_path, searcher.reader()) == {}  # the old format
