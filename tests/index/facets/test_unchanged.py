"""The tagger gives exactly the labels it gave before it was made faster.

`tests/fixtures/facets/tagger_before.json.gz` was recorded with the tagger as it stood
before the speed work: 320 synthetic papers (with their source labels and without them)
and every paragraph of the bundled documents, each with its topics and hardware labels
and their reasons. Any optimisation of `index.facets.tagger` or `index.facets.rules` must leave
every one of them unchanged; a deliberate change to the rules re-records the fixture,
after the differences have been read and judged improvements:

    python -m tests.index.facets.test_unchanged --record
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from index.facets.tagger import tag_paper
from index.facets.taxonomy import load_taxonomy
from index.models import Paper

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "facets" / "tagger_before.json.gz"


def _labels(paper: dict[str, Any], taxonomy: Any) -> dict[str, list[list[str]]]:
    tagged = tag_paper(Paper.from_dict(paper), taxonomy)
    return {
        "topics": [[label.value, label.reason] for label in tagged.topics],
        "hardware": [[label.value, label.reason] for label in tagged.hardware],
    }


def test_labels_and_reasons_are_unchanged() -> None:
    taxonomy = load_taxonomy()
    cases = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    assert len(cases) > 300
    changed = []
    for case in cases:
        got = _labels(case["paper"], taxonomy)
        if got != {"topics": case["topics"], "hardware": case["hardware"]}:
            changed.append((case["paper"]["id"], got, case["topics"], case["hardware"]))
    assert not changed, f"{len(changed)} papers changed, first: {changed[0]}"


def _record() -> None:
    """Re-record every case's labels with the current rules, keeping the same papers."""
    taxonomy = load_taxonomy()
    cases = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    for case in cases:
        case.update(_labels(case["paper"], taxonomy))
    blob = json.dumps(cases, sort_keys=True, ensure_ascii=False).encode("utf-8")
    FIXTURE.write_bytes(gzip.compress(blob, mtime=0))
    print(f"re-recorded {len(cases)} cases in {FIXTURE.name}")


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    _record()
