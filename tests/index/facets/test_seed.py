"""The tagger against the hand-made labels of every bundled abstract paragraph.

The figures (micro-averaged F1 per facet) and the per-value confusion are printed, so
`pytest -s` shows where the rules disagree with a reader; the asserts hold the bar the
issue sets. Paragraphs are split on blank lines here, not by the loaders, so this test
measures the tagger alone.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from index.facets.tagger import tag_paper
from index.facets.taxonomy import Taxonomy, load_taxonomy
from index.models import Paper
from tests.index.facets.facet_scores import confusion, micro_f1, report

ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT / "tests" / "fixtures" / "facets" / "seed_labels.jsonl"


def _seed() -> list[tuple[dict, Paper]]:
    cases = []
    texts: dict[str, list[str]] = {}
    for line in SEED.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        name = record["file"]
        if name not in texts:
            texts[name] = (ROOT / "assets" / name).read_text(encoding="utf-8").split("\n\n")
        abstract = texts[name][record["paragraph"]]
        assert abstract.startswith(record["opening"]), f"{name} paragraph {record['paragraph']}"
        paper = Paper(id=f"{name[:3]}-p{record['paragraph']}", title="", abstract=abstract)
        cases.append((record, paper))
    return cases


@pytest.fixture(scope="module")
def tagged() -> list[tuple[dict, Paper]]:
    taxonomy = load_taxonomy()
    return [(record, tag_paper(paper, taxonomy)) for record, paper in _seed()]


def _confusion(tagged: list[tuple[dict, Paper]], facet: str) -> dict[str, Counter[str]]:
    key = "topics" if facet == "topic" else "hardware"
    return confusion(
        (record[key], paper.topic_ids if facet == "topic" else paper.hardware_ids)
        for record, paper in tagged
    )


@pytest.mark.parametrize("facet", ["topic", "hardware"])
def test_micro_f1_on_the_seed_labels_reaches_the_bar(tagged, facet: str) -> None:
    per_value = _confusion(tagged, facet)
    print("\n" + report(f"{facet} over {len(tagged)} seed paragraphs", per_value))
    assert micro_f1(per_value) >= 0.95


def test_hardware_labels_include_every_parent(tagged) -> None:
    taxonomy = load_taxonomy()
    for _, paper in tagged:
        ids = set(paper.hardware_ids)
        for value in ids:
            assert set(taxonomy.ancestors(value, "hardware")) <= ids, paper.id


def test_every_paragraph_gets_a_topic_with_a_reason(tagged) -> None:
    # Nothing is guessed any more, but each labelled abstract names its topic plainly:
    # a paragraph with no topic here means a missing rule.
    for _, paper in tagged:
        assert paper.topics, paper.id
        assert all(label.reason for label in (*paper.topics, *paper.hardware)), paper.id


def test_every_topic_in_the_vocabulary_is_exercised(tagged) -> None:
    taxonomy: Taxonomy = load_taxonomy()
    seen = {value for _, paper in tagged for value in paper.topic_ids}
    assert seen == {value.id for value in taxonomy.topics}


def test_a_speed_up_reported_on_cpu_and_on_gpu_names_both_families(tagged) -> None:
    # FeatGraph: "speeds up ... training and inference by up to 32x on CPU and 7x on GPU".
    # Hardware the text names counts (corpus README), so its label is cpu and gpu, no leaf.
    featgraph = [
        (record, paper)
        for record, paper in tagged
        if record["opening"].startswith("Graph neural networks (GNNs) are gaining")
    ]
    assert len(featgraph) == 2
    for record, paper in featgraph:
        assert sorted(record["hardware"]) == sorted(paper.hardware_ids) == ["cpu", "gpu"]
