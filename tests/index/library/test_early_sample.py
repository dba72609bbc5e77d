"""The early sample of a big first load: named as the finished library names it.

The app serves the sample before dedupe has run (`index.library.early_sample`), so every
sample paper's id must be final: kept by that record's paper, or gone with it when dedupe
merged it into another one, never given to another paper. The thresholds are lowered so
a small hand-made library takes the big-load path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import index.library.early_sample as early_sample
from index.citations.keys import citation_keys
from index.facets.taxonomy import load_taxonomy
from index.library import pipeline
from index.library.early_sample import raw_ids, settled_ids
from index.library.load import load_library
from index.library.pipeline import _assign_ids
from index.models import Library, LoadWarning, Paper

TAXONOMY = load_taxonomy()


def record(n: int, **fields: str) -> dict[str, str]:
    """An arXiv record about GPU kernels, distinct from every other `n`."""
    return {
        "id": f"2401.{n:05d}",
        "title": f"Paper {n}: {'Sparse' if n % 2 else 'Dense'} Kernel Study {n * 7919 % 104729}",
        "authors": f"Ann Writer{n} and Bo Person{n}",
        "categories": "cs.DC",
        "abstract": f"We measure GPU kernels number {n} with {n * 31} threads and "
        + " ".join(f"word{(n * k) % 997}" for k in range(1, 40)),
        "update_date": "2024-01-05",
        **fields,
    }


BIB_TWIN = """@article{writer2024kernel,
  title = {Paper 3: Sparse Kernel Study 23757},
  author = {Writer3, Ann},
  year = {2024},
  eprint = {2401.00003},
  archiveprefix = {arXiv},
}
"""


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """40 arXiv records, with the real patterns that unsettle an id or a key:

    - 2401.00005 twice (an export that repeats a record): its id is not settled;
    - 2401.00003 also in a .bib file, with a BibTeX key of its own: merged (same arXiv
      id), and the merged paper cites with the .bib key;
    - 2401.00011 and 2401.00012 by the same first author, year and first word: their keys
      are decided by the whole library, not by either record.
    """
    monkeypatch.setattr(early_sample, "SAMPLE_MIN_PAPERS", 10)
    monkeypatch.setattr(early_sample, "SAMPLE_PAPERS", 100)
    records = [record(n) for n in range(1, 41)]
    records.append(record(5))
    records[11] = record(12, authors="Ann Writer11", title="Paper about twins")
    records[10] = record(11, authors="Ann Writer11", title="Paper about triplets")
    folder = tmp_path / "library"
    folder.mkdir()
    lines = "".join(json.dumps(r) + "\n" for r in records)
    (folder / "a.jsonl").write_text(lines, encoding="utf-8")
    (folder / "b.bib").write_text(BIB_TWIN, encoding="utf-8")
    return folder


def load_with_sample(corpus: Path) -> tuple[Library, list[Paper]]:
    samples: list[list[Paper]] = []
    library = load_library([corpus], TAXONOMY, sample=samples.append)
    assert len(samples) == 1
    return library, samples[0]


def test_every_sample_paper_is_named_as_the_library_names_it(corpus: Path) -> None:
    library, sample = load_with_sample(corpus)
    final = {paper.id: paper for paper in library.papers}
    assert len(sample) == 42 - 4  # every record but the four whose id or key is unsettled
    ids = {paper.id for paper in sample}
    assert "2401.00005" not in ids  # two records had it
    assert not ids & {"2401.00011", "2401.00012"}  # their keys collide
    keys = citation_keys(library.papers)
    sample_keys = citation_keys(sample)
    holder = {source: kept for kept in library.papers for source in kept.sources}
    for paper in sample:
        kept = final.get(paper.id)
        if kept is None:  # merged into another record's paper: its id went with it
            assert paper.sources[0] in holder[paper.sources[0]].sources
            continue
        assert paper.sources[0] in kept.sources
        if len(kept.sources) == 1:  # alone: the key and the labels are the final ones
            assert sample_keys[paper.id] == keys[paper.id]
            assert (paper.topics, paper.hardware) == (kept.topics, kept.hardware)
            assert paper.topics  # tagged: the sample's facets have counts


def test_a_merge_can_change_a_sample_papers_key_but_not_its_id(corpus: Path) -> None:
    """Why the app copies from the loaded library (`PaperscopeApp.copy_papers`)."""
    library, sample = load_with_sample(corpus)
    merged = next(paper for paper in library.papers if paper.id == "2401.00003")
    assert len(merged.sources) == 2
    assert citation_keys(library.papers)["2401.00003"] == "writer2024kernel"
    ids = {paper.id for paper in sample}
    assert {"2401.00003", "writer2024kernel"} <= ids  # both records, before the merge
    assert citation_keys(sample)["2401.00003"] != "writer2024kernel"
    assert "writer2024kernel" not in {paper.id for paper in library.papers}


def test_the_library_is_the_same_with_or_without_a_sample(corpus: Path) -> None:
    with_sample, _ = load_with_sample(corpus)
    assert load_library([corpus], TAXONOMY) == with_sample


def test_a_small_load_has_no_sample(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(json.dumps(record(1)) + "\n", encoding="utf-8")
    samples: list[list[Paper]] = []
    load_library([tmp_path], TAXONOMY, sample=samples.append)
    assert samples == []


def test_a_raw_id_one_record_had_is_kept_by_it_before_any_slug() -> None:
    """A slug earlier in load order used to take the id: now the record's own wins."""
    slugged = Paper(id="", title="Deep Things", authors=("Ann Smith",), year=2020)
    keyed = Paper(id="smith2020deep", title="Other Things")
    papers = [slugged, keyed]
    warnings: list[LoadWarning] = []
    named = _assign_ids(papers, [False, False], warnings, settled_ids(raw_ids(papers)))
    assert [paper.id for paper in named] == ["smith2020deep-2", "smith2020deep"]


def test_a_settled_id_merged_away_goes_to_no_other_paper() -> None:
    """`k1`'s record was merged into another paper: a short name `k1` does not get it."""
    survivor = Paper(id="", title="Loose", short_name="k1")
    named = _assign_ids([survivor], [False], [], {"k1"})
    assert named[0].id == "k1-2"


def test_a_curated_id_wins_over_a_settled_one() -> None:
    curated = Paper(id="k1", title="Curated")
    raw = Paper(id="k1", title="Raw")
    papers = [raw, curated]
    assert settled_ids(raw_ids(papers)) == set()  # two records: not settled
    named = _assign_ids(papers, [False, True], [], settled_ids(raw_ids(papers)))
    assert [paper.id for paper in named] == ["k1-2", "k1"]


def test_a_sample_is_an_even_spread_of_at_most_sample_papers(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(early_sample, "SAMPLE_PAPERS", 5)
    _, sample = load_with_sample(corpus)
    assert [paper.id for paper in sample] == [
        "2401.00001",
        "2401.00009",
        "2401.00019",
        "2401.00026",
        "2401.00034",
    ]


def test_files_big_enough_for_a_sample_are_told_ahead_while_they_are_read(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app starts the sample's build process then (`index.start_sample_build`)."""
    events: list[str] = []
    monkeypatch.setattr(pipeline, "SAMPLE_LIKELY_BYTES", 1)

    def reading(step: str, done: int, total: int) -> None:
        if step == "reading files" and done == total:
            events.append("files read")

    load_library(
        [corpus],
        TAXONOMY,
        progress=reading,
        sample=lambda papers: events.append("sample"),
        sample_ahead=lambda: events.append("ahead"),
    )
    assert events == ["ahead", "files read", "sample"]


def test_small_files_and_a_load_without_a_sample_are_not_told_ahead(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[str] = []
    size = sum(path.stat().st_size for path in corpus.iterdir())
    monkeypatch.setattr(pipeline, "SAMPLE_LIKELY_BYTES", size + 1)
    load_library(
        [corpus], TAXONOMY, sample=lambda papers: None, sample_ahead=lambda: told.append("small")
    )
    monkeypatch.setattr(pipeline, "SAMPLE_LIKELY_BYTES", 1)
    load_library([corpus], TAXONOMY, sample_ahead=lambda: told.append("no sample"))
    assert told == []
