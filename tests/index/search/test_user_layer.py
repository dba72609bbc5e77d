"""The user's layer (tags, status, notes) and the source's tags as query fields and facets.

The layer is handed to the engine as plain values and replaced without re-indexing; these
tests check that queries, selections and counts follow it at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.facets.taxonomy import Taxonomy
from index.models import Library, Paper, SearchRequest, replace
from index.search.engine import SearchEngine
from index.search.user_layer import LayerMasks, UserLayer, source_facets


def _paper(n: int, **values: Any) -> Paper:
    return Paper(
        id=f"p{n}",
        title=f"Paper number {n} on pipelines",
        year=2020 + n % 3,
        abstract=f"Pipeline parallel training study {n}.",
        **values,
    )


@pytest.fixture(scope="module")
def library() -> Library:
    papers = [_paper(n) for n in range(8)]
    papers[0] = replace(
        papers[0], keywords=("Deep Learning", "GPUs"), collections=("Thesis/Chapter 2",)
    )
    papers[1] = replace(papers[1], keywords=("GPUs",), collections=("Thesis",))
    return Library(papers=tuple(papers))


@pytest.fixture(scope="module")
def cache(library: Library, taxonomy: Taxonomy, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The library's index, built once for the module."""
    folder = tmp_path_factory.mktemp("cache")
    open_engine(library, taxonomy, folder).close()
    return folder


@pytest.fixture
def engine(library: Library, taxonomy: Taxonomy, cache: Path) -> Iterator[SearchEngine]:
    """A fresh engine on the module's index: each test sets its own user layer."""
    engine = open_engine(library, taxonomy, cache)
    assert engine.opened.action == "up to date"
    yield engine
    engine.close()


def found(engine: SearchEngine, query: str = "", **options: object) -> set[str]:
    result = engine.search(SearchRequest(query=query, limit=100, **options))  # type: ignore[arg-type]
    assert result.total == len(result.hits)
    return {hit.paper.id for hit in result.hits}


def counts(engine: SearchEngine, facet: str, **options: object) -> dict[str, int]:
    result = engine.search(SearchRequest(limit=0, **options))  # type: ignore[arg-type]
    return {c.value: c.count for c in result.facets[facet]}


LAYER = UserLayer(
    facets={
        "tag": {"toread": frozenset({"p1", "p2"}), "ml": frozenset({"p2"})},
        "status": {"read": frozenset({"p3"}), "reading": frozenset({"p2"})},
    },
    notes={"p5": "Remember the zebrafish experiment; compare with p2."},
)


def test_status_facet_appears_once_a_status_is_set(engine: SearchEngine) -> None:
    engine.set_user_layer(UserLayer())
    assert "status" not in engine.search(SearchRequest(limit=0)).facets
    assert found(engine, "status:unread") == {f"p{n}" for n in range(8)}
    engine.set_user_layer(LAYER)
    assert "status" in engine.search(SearchRequest(limit=0)).facets


def test_tag_and_status_are_query_fields(engine: SearchEngine) -> None:
    engine.set_user_layer(LAYER)
    assert found(engine, "tag:toread") == {"p1", "p2"}
    assert found(engine, "tag:TOREAD") == {"p1", "p2"}
    assert found(engine, "status:read") == {"p3"}
    assert found(engine, "status:unread") == {"p0", "p1", "p4", "p5", "p6", "p7"}
    assert found(engine, "tag:toread -tag:ml") == {"p1"}
    assert found(engine, "pipeline tag:ml") == {"p2"}
    assert found(engine, "tag:nothing") == set()


def test_layer_facets_count_and_select_disjunctively(engine: SearchEngine) -> None:
    engine.set_user_layer(LAYER)
    assert counts(engine, "tag") == {"toread": 2, "ml": 1}
    assert counts(engine, "status") == {"unread": 6, "to-read": 0, "reading": 1, "read": 1}
    selected = engine.search(SearchRequest(tags=frozenset({"toread"}), limit=100))
    assert {h.paper.id for h in selected.hits} == {"p1", "p2"}
    # The status counts apply the tag selection; the tag counts do not apply their own.
    assert {c.value: c.count for c in selected.facets["status"]}["reading"] == 1
    assert {c.value: c.count for c in selected.facets["tag"]} == {"toread": 2, "ml": 1}
    assert found(engine, statuses=frozenset({"reading", "read"})) == {"p2", "p3"}


def test_a_new_layer_applies_without_reindexing(engine: SearchEngine) -> None:
    engine.set_user_layer(LAYER)
    assert found(engine, "tag:toread") == {"p1", "p2"}
    engine.set_user_layer(UserLayer(facets={"tag": {"toread": frozenset({"p7"})}}))
    assert found(engine, "tag:toread") == {"p7"}
    assert counts(engine, "tag") == {"toread": 1}


def test_the_layer_in_use_again_changes_nothing(engine: SearchEngine) -> None:
    """The app's start hands an empty layer to a new user's engine: nothing to redo."""
    assert engine.set_user_layer(UserLayer()) is False
    assert engine.set_user_layer(LAYER) is True
    assert (
        engine.set_user_layer(UserLayer(facets=dict(LAYER.facets), notes=dict(LAYER.notes)))
        is False
    )
    assert found(engine, "tag:toread") == {"p1", "p2"}
    assert engine.set_user_layer(UserLayer()) is True
    assert found(engine, "tag:toread") == set()


def test_notes_are_found_by_plain_words_and_note_field(engine: SearchEngine) -> None:
    engine.set_user_layer(LAYER)
    assert found(engine, "zebrafish") == {"p5"}
    assert found(engine, "note:zebrafish") == {"p5"}
    assert found(engine, "note:pipeline") == set()  # only notes, not abstracts
    assert found(engine, "experiments zebrafish") == {"p5"}  # stemmed like the abstract
    typing = engine.search(SearchRequest(query="zebraf", as_you_type=True, limit=10))
    assert {h.paper.id for h in typing.hits} == {"p5"}
    # A paper's other words and its note's words combine word by word.
    assert found(engine, "pipeline zebrafish") == {"p5"}


def test_source_tags_and_collections_are_their_own_facets(engine: SearchEngine) -> None:
    engine.set_user_layer(LAYER)
    assert counts(engine, "keyword") == {"GPUs": 2, "Deep Learning": 1}
    assert found(engine, 'keyword:"deep learning"') == {"p0"}
    assert found(engine, "kw:gpus") == {"p0", "p1"}
    rows = engine.search(SearchRequest(limit=0)).facets["collection"]
    assert {(c.value, c.label, c.count, c.parent) for c in rows} == {
        ("Thesis", "Thesis", 2, None),
        ("Thesis/Chapter 2", "Chapter 2", 1, "Thesis"),
    }
    assert found(engine, collections=frozenset({"Thesis"})) == {"p0", "p1"}
    # The user's tags stay apart from the source's.
    assert "GPUs" not in counts(engine, "tag")


def test_the_sources_notes_are_searched_like_the_users(
    taxonomy: Taxonomy, tmp_path_factory: pytest.TempPathFactory
) -> None:
    papers = [_paper(n) for n in range(4)]
    papers[1] = replace(papers[1], source_notes=("Read the quokka appendix first.",))
    papers[2] = replace(papers[2], source_notes=("Shared with the lab.", "Quokkas again."))
    engine = open_engine(Library(papers=tuple(papers)), taxonomy, tmp_path_factory.mktemp("cache"))
    try:
        assert found(engine, "quokka") == {"p1", "p2"}  # stemmed: "Quokkas" too
        assert found(engine, "note:quokka") == {"p1", "p2"}
        assert found(engine, "note:pipeline") == set()
        assert found(engine, "appendix pipeline") == {"p1"}
        typing = engine.search(SearchRequest(query="quok", as_you_type=True, limit=10))
        assert {h.paper.id for h in typing.hits} == {"p1", "p2"}
        # The user's own notes join them, on other papers and the same one; a later
        # layer (a tag changed) keeps the source's notes.
        engine.set_user_layer(UserLayer(notes={"p1": "zebrafish", "p3": "quokka too"}))
        assert found(engine, "quokka") == {"p1", "p2", "p3"}
        assert found(engine, "note:zebrafish") == {"p1"}
        engine.set_user_layer(UserLayer(facets={"tag": {"x": frozenset({"p0"})}}))
        assert found(engine, "note:quokka") == {"p1", "p2"}
        assert found(engine, "zebrafish") == set()
    finally:
        engine.close()


def test_the_source_tags_are_counted_once_by_the_index_not_the_layer(
    engine: SearchEngine, library: Library
) -> None:
    source = source_facets(library.papers)
    assert set(source) == {"collection"}
    masks = LayerMasks(LAYER, source, engine.masks.ids, engine.masks.live)
    assert "keyword" not in masks.counts(SearchRequest(), engine.masks.live, {})[0]
    assert "keyword" not in masks.selections(SearchRequest(keywords=frozenset({"GPUs"})))
    engine.set_user_layer(LAYER)
    # The layer changes nothing about them; a selection counts disjunctively, once.
    assert counts(engine, "keyword") == {"GPUs": 2, "Deep Learning": 1}
    chosen = {"keywords": frozenset({"Deep Learning"})}
    assert counts(engine, "keyword", **chosen) == {"GPUs": 2, "Deep Learning": 1}
    assert counts(engine, "tag", **chosen) == {}  # p0 has no tag
    assert found(engine, tags=frozenset({"toread"}), keywords=frozenset({"GPUs"})) == {"p1"}
    assert counts(engine, "keyword", tags=frozenset({"toread"})) == {"GPUs": 1}


def test_keyword_queries_are_answered_by_the_index_even_without_the_library(
    library: Library, taxonomy: Taxonomy, tmp_path: Path
) -> None:
    full = open_engine(library, taxonomy, tmp_path)
    bare = SearchEngine(full.opened, None, taxonomy)  # as an index-only CLI search opens it
    try:
        for engine in (full, bare):
            assert found(engine, "kw:gpus") == {"p0", "p1"}
            assert found(engine, 'keyword:"DEEP learning"') == {"p0"}
            assert found(engine, 'pipeline kw:gpus -keyword:"deep learning"') == {"p1"}
            assert found(engine, "kw:gpu") == set()  # a whole tag, not a word of one
            assert counts(engine, "keyword", query="kw:gpus") == {"GPUs": 2, "Deep Learning": 1}
    finally:
        bare.close()
        full.close()


def test_a_collection_is_found_by_its_own_name(engine: SearchEngine) -> None:
    # Zotero shows "Chapter 2" under "Thesis"; its users type the name they see.
    engine.set_user_layer(LAYER)
    for query in (
        'collection:"Chapter 2"',
        'collection:"chapter 2"',
        'collection:"Thesis/Chapter 2"',
    ):
        assert found(engine, query) == {"p0"}, query
    assert found(engine, collections=frozenset({"Chapter 2"})) == {"p0"}
    assert found(engine, "collection:Thesis") == {"p0", "p1"}  # a parent holds its children
    assert found(engine, 'collection:"Chapter 3"') == set()


def test_within_limits_the_hits_and_every_count_to_those_papers(engine: SearchEngine) -> None:
    # The marked-only view: its facet counts describe the marked papers, not the search's.
    engine.set_user_layer(LAYER)
    marked = frozenset({"p0", "p2", "p3"})
    result = engine.search(SearchRequest("pipeline", limit=100, within=marked))
    assert {hit.paper.id for hit in result.hits} == marked and result.total == 3
    years = {c.value: c.count for c in result.facets["year"]}
    assert years == {"2020": 2, "2021": 0, "2022": 1}
    assert {c.value: c.count for c in result.facets["tag"]} == {"toread": 1, "ml": 1}
    assert {c.value: c.count for c in result.facets["keyword"]}.get("GPUs") == 1
    # With a facet chosen, its own counts still ignore it, and the marks still apply.
    chosen = engine.search(SearchRequest(limit=100, within=marked, years=frozenset({2020})))
    assert {hit.paper.id for hit in chosen.hits} == {"p0", "p3"}
    assert {c.value: c.count for c in chosen.facets["year"]}["2022"] == 1
    assert engine.search(SearchRequest(limit=100, within=frozenset())).total == 0
