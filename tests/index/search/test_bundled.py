"""The search engine on the bundled corpus: the answers a reader of these papers expects."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from index import open_engine
from index.facets.taxonomy import Taxonomy
from index.models import Library, Paper, SearchRequest
from index.schema.venues import short_venue
from index.search.counting import top_counts
from index.search.engine import SearchEngine
from index.search.facet_build import facet_masks


@pytest.fixture(scope="module")
def engine(
    library: Library, taxonomy: Taxonomy, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SearchEngine]:
    engine = open_engine(library, taxonomy, tmp_path_factory.mktemp("cache"))
    yield engine
    engine.close()


def ids(engine: SearchEngine, query: str, **options: object) -> set[str]:
    result = engine.search(SearchRequest(query=query, limit=1000, **options))  # type: ignore[arg-type]
    assert result.total == len(result.hits)
    return {hit.paper.id for hit in result.hits}


def where(library: Library, test: object) -> set[str]:
    return {paper.id for paper in library.papers if test(paper)}  # type: ignore[operator]


def test_dynamic_micro_batching_ranks_dynapipe_first(engine: SearchEngine) -> None:
    for as_you_type in (False, True):
        result = engine.search(SearchRequest("dynamic micro-batching", as_you_type=as_you_type))
        assert result.hits[0].paper.id == "dynapipe"
        assert "abstract" in result.hits[0].matched_fields
        assert any(s.highlighted for s in result.hits[0].snippet.segments)


def test_author_phrase_finds_exactly_his_papers(engine: SearchEngine, library: Library) -> None:
    expected = where(library, lambda p: "Cody Hao Yu" in p.authors)
    assert expected
    assert ids(engine, 'author:"Cody Hao Yu"') == expected


def test_hardware_field_and_hierarchy(
    engine: SearchEngine, library: Library, taxonomy: Taxonomy
) -> None:
    trainium = where(library, lambda p: "aws-trainium" in p.hardware_ids)
    assert trainium and ids(engine, "hw:aws-trainium") == trainium
    gpu_family = {v.id for v in taxonomy.hardware if v.id == "gpu" or v.parent == "gpu"}
    nvidia = where(library, lambda p: "nvidia-gpu" in p.hardware_ids)
    gpu = ids(engine, "hw:gpu")
    assert nvidia and nvidia <= gpu
    assert gpu == where(library, lambda p: bool(gpu_family & set(p.hardware_ids)))


def test_year_range(engine: SearchEngine, library: Library) -> None:
    expected = where(library, lambda p: p.year is not None and 2024 <= p.year <= 2026)
    assert expected and ids(engine, "year:2024..2026") == expected
    assert ids(engine, "", year_range=(2024, 2026)) == expected
    assert ids(engine, "year:2024..") == where(library, lambda p: (p.year or 0) >= 2024)


def test_empty_query_lists_every_paper_newest_first(engine: SearchEngine, library: Library) -> None:
    result = engine.search(SearchRequest("", limit=1000))
    assert result.total == len(library.papers) == engine.size
    years = [hit.paper.year or 0 for hit in result.hits]
    assert years == sorted(years, reverse=True)


def brute_counts(papers: list[Paper]) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {
        f: Counter()
        for f in (
            "topic",
            "hardware",
            "year",
            "venue",
            "author",
            "tag",
            "status",
            "keyword",
            "collection",
        )
    }
    for paper in papers:
        counts["status"]["unread"] += 1  # no user layer is set: every paper is unread
        counts["keyword"].update(paper.keywords)
        counts["topic"].update(paper.topic_ids)
        counts["hardware"].update(paper.hardware_ids)
        counts["year"][str(paper.year) if paper.year is not None else "0"] += 1  # "0": no year
        if paper.venue:  # the facet counts the short name ("EuroSys '24")
            counts["venue"][short_venue(paper.venue)] += 1
        counts["author"].update(paper.authors)
    return counts


@pytest.mark.parametrize("query", ["", "training", "hw:gpu", "model*"])
def test_facet_counts_equal_brute_force(engine: SearchEngine, library: Library, query: str) -> None:
    result = engine.search(SearchRequest(query, limit=1000))
    matched = [hit.paper for hit in result.hits]
    assert len(matched) == result.total
    expected = brute_counts(matched)
    for facet, counts in result.facets.items():
        for count in counts:
            assert count.count == expected[facet][count.value], (facet, count.value)
    vocabulary = {v.id for v in engine.taxonomy.topics}
    assert vocabulary <= {
        c.value for c in result.facets["topic"]
    }  # zero counts (every topic is in the corpus)
    years = {c.value for c in result.facets["year"]}
    assert years == {str(p.year) if p.year is not None else "0" for p in library.papers}


def test_disjunctive_facets(engine: SearchEngine, library: Library) -> None:
    request = SearchRequest("", topics=frozenset({"training", "compilers"}), limit=1000)
    result = engine.search(request)
    chosen = where(library, lambda p: bool({"training", "compilers"} & set(p.topic_ids)))
    assert {hit.paper.id for hit in result.hits} == chosen
    # The topic facet ignores its own selection; the others apply it.
    everything = engine.search(SearchRequest("", limit=0))
    assert result.facets["topic"] == tuple(
        c.__class__(c.facet, c.value, c.label, c.count, c.value in request.topics, c.parent)
        for c in everything.facets["topic"]
    )
    hardware = {c.value: c.count for c in result.facets["hardware"]}
    for value, count in hardware.items():
        assert count == len({i for i in chosen if value in library.by_id()[i].hardware_ids})


@pytest.mark.parametrize(
    "query",
    [
        '"unclosed',
        "title:",
        "((",
        "year:abc",
        ")",
        "a OR",
        "NOT",
        "hw:",
        "-",
        "~",
        "*",
        'author:"',
        "year:2020..abc",
    ],
)
def test_bad_syntax_gives_results_or_a_notice(engine: SearchEngine, query: str) -> None:
    for as_you_type in (False, True):
        result = engine.search(SearchRequest(query, as_you_type=as_you_type))
        assert result.total > 0 or result.notice


def test_notice_for_unparsable_query(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("year:abc training"))
    assert result.notice and "year" not in result.terms
    assert result.total > 0


def test_a_typo_finds_fuzzily_and_still_offers_its_correction(engine: SearchEngine) -> None:
    """Typo tolerance: `pipline` found nothing as written, so its fuzzy form is searched
    and the status says so; the precise correction is still offered."""
    result = engine.search(SearchRequest("pipline"))
    assert result.total > 0 and result.request.query == "pipline"
    assert result.notice == "No exact match: showing results for pipline~"
    assert "pipeline" in result.terms  # one edit off: "pipelines" is two
    assert result.correction == "pipeline"
    assert engine.search(SearchRequest(result.correction)).total > 0


def test_a_correction_keeps_a_fuzzy_word_as_typed(engine: SearchEngine) -> None:
    """`pipelne~1 trainig`: the fuzzy word stays (the search looked near it already); its
    expansions, kept in `terms` for highlighting, are no words of the correction."""
    result = engine.search(SearchRequest("pipelne~1 trainig"))
    assert "1" not in result.terms
    assert result.correction == "pipelne~1 training"
    assert engine.search(SearchRequest(result.correction)).total > 0


def test_no_correction_for_a_paste_of_made_up_words(engine: SearchEngine) -> None:
    """Fixing two of three unknown words would still find nothing: nothing is offered."""
    assert engine.search(SearchRequest("pipline trainig")).correction == "pipeline training"
    result = engine.search(SearchRequest("pipline trainig quokkazzle"))
    assert result.total == 0 and result.correction is None


def test_more_like_this_and_paper(engine: SearchEngine) -> None:
    similar = engine.more_like_this("dynapipe", limit=3)
    assert 0 < len(similar) <= 3 and "dynapipe" not in {p.id for p in similar}
    paper = engine.paper("dynapipe")
    assert paper is not None and paper.short_name == "DynaPipe"
    assert engine.paper("no-such-paper") is None


def test_highlight_matches_like_the_index(engine: SearchEngine) -> None:
    snippet = engine.highlight(
        "Dynamic pipelines by Jürgen Stärk, batching", ["pipeline", "stark", "batch*"]
    )
    assert [s.text for s in snippet.segments if s.highlighted] == ["pipelines", "Stärk", "batching"]
    assert snippet.plain == "Dynamic pipelines by Jürgen Stärk, batching"


def test_sort_orders(engine: SearchEngine) -> None:
    by_title = engine.search(SearchRequest("model", sort="title", limit=1000))
    titles = [hit.paper.title.casefold() for hit in by_title.hits]
    assert titles == sorted(titles)
    by_year = engine.search(SearchRequest("model", sort="year", limit=1000))
    assert by_year.total == by_title.total
    years = [hit.paper.year or 0 for hit in by_year.hits]
    assert years == sorted(years, reverse=True)
    oldest = engine.search(SearchRequest("model", sort="year-asc", limit=1000))
    dated = [hit.paper.year for hit in oldest.hits if hit.paper.year]
    assert dated == sorted(dated) and oldest.total == by_title.total
    assert all(hit.paper.year for hit in oldest.hits[: len(dated)])  # no year: last
    by_author = engine.search(SearchRequest(sort="author", limit=1000))
    families = [
        hit.paper.authors[0].split()[-1].casefold() for hit in by_author.hits if hit.paper.authors
    ]
    assert families == sorted(families)


def test_papers_without_a_year_are_a_year_value(engine: SearchEngine, library: Library) -> None:
    undated = {paper.id for paper in library.papers if paper.year is None}
    assert undated, "the bundled corpus has papers without a year"
    counts = {c.value: c for c in engine.search(SearchRequest()).facets["year"]}
    assert counts["0"].count == len(undated) and counts["0"].label == "no year"
    assert ids(engine, "", years=frozenset({0})) == undated
    ranged = engine.search(SearchRequest(year_range=(None, 3000), limit=1000))
    assert not undated & {hit.paper.id for hit in ranged.hits}


def test_eight_threads_agree_with_one(engine: SearchEngine) -> None:
    queries = [
        "training",
        "gpu kern",
        "hw:gpu",
        "year:2020..2023",
        "model*",
        "dyn",
        'author:"Yida Wang"',
        "inference -llm",
    ]
    requests = [
        SearchRequest(q, as_you_type=True, topics=t)
        for q in queries
        for t in (frozenset(), frozenset({"training"}))
    ]
    expected = {r: _signature(engine, r) for r in requests}
    engine._results.clear()  # make every thread really search
    engine._matching.cache.clear()
    failures: list[str] = []

    def work(offset: int) -> None:
        for i in range(len(requests)):
            request = requests[(i + offset) % len(requests)]
            if _signature(engine, request) != expected[request]:
                failures.append(request.query)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def _signature(engine: SearchEngine, request: SearchRequest) -> tuple[object, ...]:
    result = engine.search(request)
    return (
        result.total,
        tuple((h.paper.id, round(h.score, 6)) for h in result.hits),
        tuple(sorted(result.facets.items())),
    )


def test_fuzzy_finds_a_typo_and_highlights_the_real_word(engine: SearchEngine) -> None:
    result = engine.search(SearchRequest("schedulng~"))
    assert result.total > 0
    assert any(
        s.highlighted and s.text.lower().startswith("schedul")
        for hit in result.hits
        for s in hit.snippet.segments
    )


def test_phrase_matches_adjacent_words_only(engine: SearchEngine, library: Library) -> None:
    hits = ids(engine, '"large language models"')
    literal = where(library, lambda p: "large language models" in f"{p.title} {p.abstract}".lower())
    near = where(
        library,
        lambda p: "large language model" in f"{p.title} {p.abstract}".lower().replace("-", " "),
    )
    assert literal and literal <= hits <= near
    assert ids(engine, '"models language large"') == set()


@pytest.mark.parametrize("query", ["", "training"])
def test_more_values_of_a_facet_on_request(
    engine: SearchEngine, library: Library, query: str
) -> None:
    """A panel's "more…" asks for more authors than the default 15: the engine lists them,
    counted exactly, and says whether any are still left out."""
    default = engine.search(SearchRequest(query, limit=1000))
    expected = brute_counts([hit.paper for hit in default.hits])["author"]
    assert len(expected) > 15
    assert len(default.facets["author"]) == 15 and "author" in default.more_values
    more = engine.search(SearchRequest(query, limit=1000, facet_limits=(("author", 20),)))
    assert len(more.facets["author"]) == 20 and "author" in more.more_values
    assert more.facets["author"][:15] == default.facets["author"]
    every = engine.search(SearchRequest(query, limit=1000, facet_limits=(("author", 10_000),)))
    assert {c.value: c.count for c in every.facets["author"]} == dict(expected)
    assert "author" not in every.more_values
    counts = [c.count for c in every.facets["author"]]
    assert counts == sorted(counts, reverse=True)  # most frequent first


def test_more_values_beyond_the_masked_ones_are_counted_from_the_columns(
    engine: SearchEngine, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large match set counts from the top masks; asking for more values than have
    masks counts every value exactly instead (a small corpus stands in for a large one)."""
    from index.search import bitsets

    monkeypatch.setattr(bitsets, "TOP_MASKS", 10)
    monkeypatch.setattr(bitsets, "EXACT_COUNT_LIMIT", 0)
    with engine._searcher() as searcher:
        masks = facet_masks(searcher.reader())
    expected = brute_counts(list(library.papers))["author"]
    top, cut = top_counts(masks, "author", masks.live, 5)
    assert len(top) == 5 and cut  # values without masks may match too
    assert all(count == expected[value] for value, count in top)
    every, cut = top_counts(masks, "author", masks.live, 10_000)
    assert dict(every) == dict(expected) and not cut


@pytest.mark.parametrize(
    ("query", "without"),
    [
        ("memory for training", "memory training"),
        ("the scheduling of training", "scheduling training"),
        ("memory for t", "memory t"),  # as you type: the stop word before the last word
        # A group of stop words only is none either (it required "for" in a name or venue).
        ("(for) memory", "memory"),
        ("memory (the OR for) training", "memory training"),
    ],
)
def test_a_stop_word_among_the_words_is_no_requirement(
    engine: SearchEngine, query: str, without: str
) -> None:
    """Titles and abstracts are indexed without stop words, venues and names with them:
    "memory for training" found only papers whose venue or authors held "for" (none)."""
    typing = query.endswith(" t")
    expected = ids(engine, without, as_you_type=typing)
    assert expected
    assert ids(engine, query, as_you_type=typing) == expected


def test_a_stop_word_the_search_ignored_is_not_highlighted(engine: SearchEngine) -> None:
    """Every "for" of an abstract was marked for "memory for training", though none matched."""
    result = engine.search(SearchRequest(query="memory for training"))
    assert result.terms == ("memory", "training")
    marked = {
        segment.text.lower()
        for hit in result.hits
        for snippet in (hit.title, hit.snippet)
        for segment in snippet.segments
        if segment.highlighted
    }
    assert marked and "for" not in marked
    # What the search still asks for stays marked: a stop word alone, a prefix being typed.
    assert engine.search(SearchRequest(query="of")).terms == ("of",)
    typing = engine.search(SearchRequest(query="memory fo", as_you_type=True))
    assert typing.terms == ("memory", "fo*")


def test_stop_words_alone_or_asked_for_are_searched_as_typed(engine: SearchEngine) -> None:
    venues_with_of = ids(engine, "venue:of")
    assert venues_with_of  # "Proceedings of ..."
    either = ids(engine, "authors:of") | ids(engine, "short_name:of")
    assert ids(engine, "of") == venues_with_of | either
    assert ids(engine, "training -of") == ids(engine, "training") - ids(engine, "of")
    assert ids(engine, "training venue:of") == ids(engine, "training") & venues_with_of
    # A group of stop words after an operator is asked for, as a word there is.
    assert ids(engine, "training NOT (of)") == ids(engine, "training") - ids(engine, "of")
    assert ids(engine, "(of)") == ids(engine, "of")


@pytest.mark.parametrize(
    "request_",
    [
        SearchRequest(query="memory"),
        SearchRequest(query="train", as_you_type=True, topics=frozenset({"training"})),
        SearchRequest(query="", sort="year"),
    ],
    ids=["words", "typed with a topic", "everything"],
)
def test_a_request_without_counts_has_the_same_papers_and_no_facets(
    engine: SearchEngine, request_: SearchRequest
) -> None:
    counted = engine.search(request_)
    bare = engine.search(replace(request_, counts=False))
    assert counted.facets and bare.facets == {} and bare.more_values == frozenset()
    assert bare.total == counted.total > 0
    assert [hit.paper.id for hit in bare.hits] == [hit.paper.id for hit in counted.hits]
    assert [hit.snippet for hit in bare.hits] == [hit.snippet for hit in counted.hits]
