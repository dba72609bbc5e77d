"""The tagger as the library runs it: every bundled paper ends up with a topic.

Papers without evidence get no topic, but each bundled abstract names its subject
plainly, so an empty topic list here means a rule is missing.
"""

from __future__ import annotations

from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library


def test_every_bundled_paper_gets_a_topic_backed_by_evidence() -> None:
    taxonomy = load_taxonomy()
    library = load_library(None, taxonomy)
    assert library.papers
    for paper in library.papers:
        assert paper.topics, paper.id
        assert all(label.reason for label in paper.topics), paper.id
        for label in paper.hardware:
            assert set(taxonomy.ancestors(label.value, "hardware")) <= set(paper.hardware_ids)
