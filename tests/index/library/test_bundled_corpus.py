"""The bundled corpus: 47 papers, exactly the seven documented merges, links not merges."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.assets import bundled_corpus_files, bundled_metadata
from index.facets.taxonomy import load_taxonomy
from index.library.ids import ID_PATTERN
from index.library.load import input_files, load_library

# The seven pairs the corpus's README names (the same papers in both files): (000 paragraph, 003 paragraph).
EXPECTED_MERGES = {(36, 4), (2, 8), (18, 0), (6, 5), (46, 19), (44, 16), (58, 22)}
# Related but distinct (003 paragraphs): linked, never merged.
EXPECTED_LINKS = {(18, 10), (24, 23), (6, 7), (12, 9)}


def _paragraphs(paper) -> set[tuple[str, int]]:
    return {(Path(s.path).name[:3], s.paragraph) for s in paper.sources}


def _merged_pairs(library) -> set[tuple[int, int]]:
    pairs = set()
    for paper in library.papers:
        if len(paper.sources) > 1:
            found = _paragraphs(paper)
            assert len(found) == 2, f"{paper.id} merges more than a pair: {found}"
            by_file = dict(found)
            pairs.add((by_file["000"], by_file["003"]))
    return pairs


@pytest.fixture(scope="module")
def bundled():
    return load_library(None, load_taxonomy())


@pytest.fixture(scope="module")
def text_only():
    """The two text files alone: the generic rule, with no curated paragraphs to lean on."""
    return load_library(bundled_corpus_files(), load_taxonomy())


@pytest.mark.parametrize("name", ["bundled", "text_only"])
def test_47_papers_with_exactly_the_seven_merges(name: str, request) -> None:
    library = request.getfixturevalue(name)
    assert library.warnings == ()
    assert len(library.papers) == 47
    assert _merged_pairs(library) == EXPECTED_MERGES
    covered = [p for paper in library.papers for p in _paragraphs(paper)]
    assert len(covered) == len(set(covered)) == 29 + 25  # every abstract paragraph once


@pytest.mark.parametrize("name", ["bundled", "text_only"])
def test_related_versions_are_linked_not_merged(name: str, request) -> None:
    library = request.getfixturevalue(name)
    where = {p: paper for paper in library.papers for p in _paragraphs(paper)}
    linked = set()
    for a, b in EXPECTED_LINKS:
        first, second = where[("003", a)], where[("003", b)]
        assert first.id != second.id
        if second.id in first.related:
            assert first.id in second.related
            linked.add((a, b))
    if name == "bundled":
        assert linked == EXPECTED_LINKS
    else:  # the text alone only reveals the extension that reuses its sentences
        assert (18, 10) in linked


def test_curated_facts_ids_and_inferred_titles(bundled) -> None:
    papers = bundled.by_id()
    assert all(ID_PATTERN.match(paper_id) for paper_id in papers)
    dynapipe = papers["dynapipe"]
    assert dynapipe.title == "DynaPipe: Optimizing Multi-task Training through Dynamic Pipelines"
    assert dynapipe.authors == ("Chenyu Jiang", "Zhen Jia", "Shuai Zheng", "Yida Wang", "Chuan Wu")
    assert dynapipe.authors_complete and not dynapipe.title_inferred
    assert (dynapipe.entry_type, dynapipe.pages, dynapipe.publisher) == (
        "inproceedings",
        "542-559",
        "ACM",
    )
    assert papers["sam-med"].title.startswith("SAM^Med: ")
    assert papers["mics"].journal == "Proceedings of the VLDB Endowment"
    bids = papers["bids-apps"]
    assert (bids.entry_type, bids.journal, bids.volume, bids.number, bids.pages) == (
        "article",
        "PLOS Computational Biology",
        "13",
        "3",
        "e1005209",
    )
    assert papers["sam-med"].entry_type == "misc" and papers["sam-med"].publisher is None
    assert papers["grape"].publisher is None  # "IEEE/ACM" and no DOI: not guessed
    assert papers["ansor"].publisher == "USENIX Association"
    # Nobody knows the full author list: empty, and not claimed complete.
    assert papers["lowino-taco"].authors == () and not papers["lowino-taco"].authors_complete
    inferred = sorted(p.id for p in bundled.papers if p.title_inferred)
    assert inferred == ["kdd-genai-inference-workshop", "rt-fcma"]
    assert "FCMA" in papers["rt-fcma"].title and papers["rt-fcma"].note
    assert papers["rt-fcma"].year is None and papers["rt-fcma"].doi is None  # never invented


def test_abstracts_are_clean(bundled) -> None:
    for paper in bundled.papers:
        assert "$" not in paper.abstract and "\\" not in paper.abstract, paper.id
        assert "  " not in paper.abstract and "\n" not in paper.abstract, paper.id
    assert "1.75×" in bundled.by_id()["tilus"].abstract


def test_files_and_input_files_agree(bundled) -> None:
    expected = [*bundled_corpus_files(), bundled_metadata()]
    assert input_files(None) == expected
    assert list(bundled.files) == [str(path.resolve()) for path in expected]
    assert all(Path(s.path).name == s.path for p in bundled.papers for s in p.sources)


def test_committed_sidecar_is_what_the_build_script_makes(tmp_path: Path) -> None:
    """assets/metadata.json must be regenerated, never hand-edited, when the seed changes."""
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[3]
    seed = repo / "tests" / "fixtures" / "corpus" / "seed_metadata.json"
    out = tmp_path / "metadata.json"
    subprocess.run(
        [sys.executable, str(repo / "scripts" / "build_bundled_metadata.py"), str(seed), str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_text("utf-8") == bundled_metadata().read_text("utf-8")
