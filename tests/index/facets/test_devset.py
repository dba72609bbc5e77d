"""The tagger against a development set of real abstracts that are not the bundled ones.

The seeds are what the rules were first written from, so a high score there says little
about a user's own library. `tests/fixtures/facets/devset.jsonl` holds 79 real abstracts
(ML-systems papers on every topic and hardware family, plus out-of-domain physics, biology,
HCI and music papers whose right answer is no topic at all), each labelled by reading it
against the conventions in the corpus README before the tagger was run on it; `source`
says where the text was read and `note` why a borderline label went the way it did.

`pytest -s` prints the micro-averaged F1 and the per-value confusion; the asserts hold the
bar issue 12 sets. Improve the rules from what words mean, never by copying a phrase of
one of these papers: the set is for measuring, and fitting it would hide the next failure.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from index.facets.tagger import tag_paper
from index.facets.taxonomy import Taxonomy
from index.models import Paper
from tests.index.facets.facet_scores import confusion, micro_f1, report

ROOT = Path(__file__).resolve().parents[3]
DEVSET = ROOT / "tests" / "fixtures" / "facets" / "devset.jsonl"
FIELDS = {"title", "abstract", "source", "topics", "hardware", "note"}


def _records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DEVSET.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def tagged(taxonomy: Taxonomy) -> list[tuple[dict[str, Any], Paper]]:
    return [
        (
            record,
            tag_paper(
                Paper(id=f"dev-{n}", title=record["title"], abstract=record["abstract"]), taxonomy
            ),
        )
        for n, record in enumerate(_records())
    ]


def _confusion(tagged: list[tuple[dict[str, Any], Paper]], facet: str) -> dict[str, Counter[str]]:
    key = "topics" if facet == "topic" else "hardware"
    return confusion(
        (record[key], paper.topic_ids if facet == "topic" else paper.hardware_ids)
        for record, paper in tagged
    )


@pytest.mark.parametrize("facet", ["topic", "hardware"])
def test_micro_f1_on_the_dev_set_reaches_the_bar(tagged, facet: str) -> None:
    per_value = _confusion(tagged, facet)
    print("\n" + report(f"{facet} over {len(tagged)} dev-set papers", per_value))
    for record, paper in tagged:  # the disagreements, to read next to the figures
        got = paper.topic_ids if facet == "topic" else paper.hardware_ids
        expected = record["topics" if facet == "topic" else "hardware"]
        if set(got) != set(expected):
            print(f"  {record['title'][:60]!r}: expected {sorted(expected)}, got {sorted(got)}")
    assert micro_f1(per_value) >= 0.9


def test_out_of_domain_papers_get_no_topic(tagged) -> None:
    # The false positives issue 12 is about: physics, biology, HCI and music papers.
    outside = [(record, paper) for record, paper in tagged if not record["topics"]]
    assert len(outside) >= 10
    labelled = {record["title"]: paper.topic_ids for record, paper in outside if paper.topics}
    assert labelled == {}


def test_every_value_of_the_vocabulary_the_set_is_about_occurs(taxonomy: Taxonomy) -> None:
    # The set covers the ML-systems topics and every hardware family; the application
    # topics (nlp, vision, driving, neuroscience) are the seeds' to cover.
    records = _records()
    topics = {t for r in records for t in r["topics"]}
    hardware = {h for r in records for h in r["hardware"]}
    assert topics >= {
        "training",
        "inference",
        "pretraining",
        "compilers",
        "quantization",
        "kernels",
        "gnn",
        "networking",
        "reliability",
        "agents",
    }
    families = {v.id for v in taxonomy.hardware if v.parent is None}
    assert families <= hardware
    # Every hardware leaf: Trainium, Inferentia and Xeon Phi too, with at least two
    # records each for AWS's chips and for Xeon Phi.
    assert hardware >= {v.id for v in taxonomy.hardware}
    named = Counter(h for r in records for h in r["hardware"])
    assert named["aws-trainium"] + named["aws-inferentia"] >= 2 and named["xeon-phi"] >= 2
    assert hardware >= {
        "nvidia-gpu",
        "amd-gpu",
        "edge-gpu",
        "intel-cpu",
        "arm-cpu",
        "google-tpu",
        "fpga",
    }


def test_the_fixture_is_well_formed(taxonomy: Taxonomy) -> None:
    records = _records()
    assert len(records) >= 70
    topic_ids = {v.id for v in taxonomy.topics}
    hardware_ids = {v.id for v in taxonomy.hardware}
    for record in records:
        assert set(record) == FIELDS, record["title"]
        assert record["title"] and record["source"] and record["note"]
        assert len(record["abstract"]) > 200, record["title"]
        assert set(record["topics"]) <= topic_ids, record["title"]
        assert set(record["hardware"]) <= hardware_ids, record["title"]
        for value in record["hardware"]:  # a leaf implies its parent, as the README says
            assert set(taxonomy.ancestors(value, "hardware")) <= set(record["hardware"])
    assert len({r["title"].casefold() for r in records}) == len(records)


def test_no_dev_abstract_is_one_of_the_seeds() -> None:
    def opening(text: str) -> str:
        return re.sub(r"\W+", " ", text).casefold().strip()[:120]

    seeds = {
        opening(p)
        for name in ("000_184598b21eae6c2f.txt", "003_fa2b0a6780a26d55.txt")
        for p in (ROOT / "assets" / name).read_text(encoding="utf-8").split("\n\n")
    }
    assert not {opening(r["abstract"]) for r in _records()} & seeds
