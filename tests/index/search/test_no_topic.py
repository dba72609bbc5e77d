"""Papers with no topic are a value of the topic facet ("no topic"), counted and selectable
like "no year" (issue 12: a topic is never forced, and what it leaves out can be found)."""

from __future__ import annotations

from pathlib import Path

from index import open_engine
from index.facets.taxonomy import load_taxonomy
from index.models import Label, Library, Paper, SearchRequest
from index.search.bitsets import NO_TOPIC

NAMES = ("alpha", "beta", "gamma", "delta")


def _paper(n: int, *topics: str) -> Paper:
    return Paper(
        id=f"p{n}",
        title=f"Paper on {NAMES[n]} pipelines",
        year=2021,
        abstract=f"A pipeline study {n}.",
        topics=tuple(Label(topic, "test") for topic in topics),
    )


def test_papers_without_a_topic_are_counted_and_selectable(tmp_path: Path) -> None:
    taxonomy = load_taxonomy()
    papers = (_paper(0, "training"), _paper(1), _paper(2, "inference"), _paper(3))
    engine = open_engine(Library(papers=papers), taxonomy, tmp_path / "cache")
    try:
        everything = engine.search(SearchRequest(limit=10))
        rows = {c.value: c for c in everything.facets["topic"]}
        assert rows[NO_TOPIC].label == "no topic" and rows[NO_TOPIC].count == 2
        assert list(rows)[-1] == NO_TOPIC  # listed after the taxonomy's topics
        chosen = engine.search(SearchRequest(topics=frozenset({NO_TOPIC}), limit=10))
        assert {hit.paper.id for hit in chosen.hits} == {"p1", "p3"}
        either = engine.search(SearchRequest(topics=frozenset({NO_TOPIC, "training"}), limit=10))
        assert {hit.paper.id for hit in either.hits} == {"p0", "p1", "p3"}
        # A query narrows the count like any value's.
        one = engine.search(SearchRequest(query="delta", limit=10))
        assert {c.value: c.count for c in one.facets["topic"]}[NO_TOPIC] == 1
    finally:
        engine.close()


def test_no_value_when_every_paper_has_a_topic(tmp_path: Path) -> None:
    papers = (_paper(0, "training"), _paper(1, "inference"))
    engine = open_engine(Library(papers=papers), load_taxonomy(), tmp_path / "cache")
    try:
        values = {c.value for c in engine.search(SearchRequest(limit=10)).facets["topic"]}
        assert NO_TOPIC not in values
    finally:
        engine.close()


def test_values_no_paper_has_are_not_listed_unless_chosen(tmp_path: Path) -> None:
    # A law library listed all 14 topics and every hardware id at 0.
    papers = (_paper(0, "training"), _paper(1))
    engine = open_engine(Library(papers=papers), load_taxonomy(), tmp_path / "cache")
    try:
        result = engine.search(SearchRequest(query="beta", limit=10))
        topics = {c.value: c.count for c in result.facets["topic"]}
        assert topics == {"training": 0, NO_TOPIC: 1}  # in the library: listed, even at 0
        assert result.facets["hardware"] == ()
        chosen = engine.search(SearchRequest(topics=frozenset({"gnn"}), limit=10))
        assert {c.value: c.count for c in chosen.facets["topic"]}["gnn"] == 0
    finally:
        engine.close()
