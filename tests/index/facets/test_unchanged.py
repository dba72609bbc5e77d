"""The tagger gives exactly the labels it gave before it was made faster.

`tests/fixtures/facets/tagger_before.json.gz` was recorded with the tagger as it stood
before the speed work: 320 synthetic papers (with their source labels and without them)
and every paragraph of the bundled documents, each with its topics and hardware labels
and their reasons. Any optimisation of `index.facets.tagger` or `index.facets.rules` must leave
every one of them unchanged; a deliberate change to the rules re-records the fixture.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from index.facets.tagger import tag_paper
from index.models import Paper
from index.facets.taxonomy import load_taxonomy

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "facets" / "tagger_before.json.gz"


def test_labels_and_reasons_are_unchanged() -> None:
    taxonomy = load_taxonomy()
    cases = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    assert len(cases) > 300
    changed = []
    for case in cases:
        tagged = tag_paper(Paper.from_dict(case["paper"]), taxonomy)
        got = {"topics": [[label.value, label.reason] for label in tagged.topics],
               "hardware": [[label.value, label.reason] for label in tagged.hardware]}
        if got != {"topics": case["topics"], "hardware": case["hardware"]}:
            changed.append((case["paper"]["id"], got, case["topics"], case["hardware"]))
    assert not changed, f"{len(changed)} papers changed, first: {changed[0]}"
