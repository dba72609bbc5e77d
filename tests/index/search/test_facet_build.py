"""An in-place update patches the saved facet masks, and they equal a full computation.

Round after round of edits, removals and additions (new authors entering the top masks,
papers losing their year or topic, Whoosh merging the small segments and so renumbering
their documents), the masks saved after each update are exactly what reading the whole
index computes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index.models import Library, Paper, Source
from index.search import bitsets, facet_build, facet_store, side_files
from index.search.facet_store import read_facet_masks
from index.store import updates, writer
from tests.fixtures.search.generate import make_library

FILES = ("a.bib", "b.bib", "c.bib")


def _library(papers: list[Paper]) -> Library:
    return Library(papers=tuple(papers), files=FILES)


def _edited(paper: Paper, rng: random.Random, round_: int, donor: Paper) -> Paper:
    """The paper with what a user's edit changes: names, year, venue, tags or topics."""
    change = rng.randrange(5)
    if change == 0:  # a new author, frequent enough after a few rounds to get a mask
        return replace(paper, authors=(f"New Author {round_ % 3}", *paper.authors[1:]))
    if change == 1:
        return replace(paper, year=None if paper.year else 2031)
    if change == 2:
        return replace(paper, venue=f"Venue {round_}", keywords=(f"tag{round_ % 2}",))
    if change == 3:
        return replace(paper, topics=(), hardware=donor.hardware)
    return replace(paper, topics=donor.topics, abstract=paper.abstract + " edited")


def _update(folder: Path, papers: list[Paper], changed: set[str]) -> None:
    ix = whoosh_index.open_dir(str(folder))
    try:
        assert updates.update_in_place(ix, folder, _library(papers), changed, None) is not None
    finally:
        ix.close()


def test_patched_masks_equal_a_full_computation_round_after_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bitsets, "TOP_MASKS", 6)  # so the top values change between rounds
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 1.0)
    rng = random.Random(3)
    papers = [
        replace(p, sources=(Source(FILES[i % 3], line=i),))
        for i, p in enumerate(make_library(90).papers)
    ]
    writer.build_into(tmp_path, papers, None)
    kept_runs: list[tuple[int, int]] = []  # (documents kept, documents before) per round
    kept = facet_build._kept

    def spy(before: list[list[object]], after: list[list[object]]) -> tuple[int, int]:
        found = kept(before, after)
        kept_runs.append((found[0], sum(int(str(segment[1])) for segment in before)))
        return found

    monkeypatch.setattr(facet_build, "_kept", spy)
    joinable = facet_build._joinable
    joined: list[bool] = []  # whether the round extended the saved columns undecoded

    def spy_joined(before: bitsets.FacetMasks, kept: int) -> object:
        found = joinable(before, kept)
        joined.append(found is not None)
        return found

    monkeypatch.setattr(facet_build, "_joinable", spy_joined)
    full = facet_build.computed_facets
    monkeypatch.setattr(facet_build, "computed_facets", _forbidden)
    monkeypatch.setattr(
        updates, "write_facet_masks", _saving_patched_only(updates.write_facet_masks)
    )
    changed: list[bool] = []  # whether the round saved its masks as changes
    monkeypatch.setattr(side_files, "FOLD_ROWS", 10)  # folded every few rounds
    for round_ in range(9):
        target = FILES[round_ % 3]
        mine = [i for i, p in enumerate(papers) if p.sources[0].path == target]
        for i in rng.sample(mine, 4):
            papers[i] = _edited(papers[i], rng, round_, papers[rng.randrange(len(papers))])
        if round_ % 3 == 1:  # two papers removed from the file
            for i in sorted(rng.sample(mine, 2), reverse=True):
                del papers[i]
        if round_ % 2 == 0:  # and new ones
            papers += [
                replace(p, id=f"r{round_}-{p.id}", sources=(Source(target, line=900 + n),))
                for n, p in enumerate(rng.sample(papers, 3))
            ]
        if round_ % 2:  # the update reads the saved files (else what the last one saved)
            facet_store.forget()
        _update(tmp_path, papers, {target})
        ix = whoosh_index.open_dir(str(tmp_path))
        with ix.reader() as reader:
            handed = read_facet_masks(tmp_path, reader)  # the update's, not read back
            saved = read_facet_masks(tmp_path, reader)  # the file, with its changes
            assert saved is not None and handed is not None and saved is not handed
            computed = full(reader)
            assert saved.state() == computed.masks.state() == handed.state(), round_
            counted = facet_store.read_saved_facets(tmp_path, reader)
            assert counted is not None and counted.counts == computed.counts, round_
            assert saved.live.bit_count() == len(papers)
            changed.append((tmp_path / facet_store.CHANGES_FILE).exists())
        ix.close()
    assert len(kept_runs) == 9
    # Saved as changes beside the whole file, and whole again after a merge.
    assert any(changed) and not all(changed)
    assert any(joined) and not all(joined)
    # Most rounds kept the first segment; at least one merge renumbered documents that
    # an earlier round had kept.
    assert all(documents > 0 for documents, _ in kept_runs)
    assert any(0 < documents < before for documents, before in kept_runs[1:])


def _forbidden(reader: object) -> facet_build.Computed:
    raise AssertionError("the masks were computed from the whole index")


def _saving_patched_only(save: Callable[..., None]) -> Callable[..., None]:
    """The writer's `write_facet_masks`, refusing to compute the masks itself."""

    def write(folder: Path, reader: object, computed: object = None, base: object = None) -> None:
        assert computed is not None, "the update did not patch the masks"
        save(folder, reader, computed, base)

    return write


def test_an_update_of_masks_saved_in_format_6_writes_format_7(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A facet file without value counts (format 6, an earlier release) is patched by the
    next update, which counts the values and writes the whole file in the new format."""
    import marshal

    papers = [
        replace(p, sources=(Source(FILES[i % 3], line=i),))
        for i, p in enumerate(make_library(60).papers)
    ]
    writer.build_into(tmp_path, papers, None)
    saved = tmp_path / facet_store.FACETS_FILE
    whole = marshal.loads(saved.read_bytes())
    whole["format"] = 6
    del whole["counts"]
    saved.write_bytes(marshal.dumps(whole, 4))
    facet_store.forget()
    papers[0] = replace(papers[0], abstract=papers[0].abstract + " edited", venue="Venue 9")
    full = facet_build.computed_facets
    with monkeypatch.context() as patched:  # the saved masks are patched, not computed
        patched.setattr(facet_build, "computed_facets", _forbidden)
        _update(tmp_path, papers, {FILES[0]})
    facet_store.forget()
    again = marshal.loads(saved.read_bytes())
    assert again["format"] == 7 and isinstance(again["counts"], bytes)
    assert not (tmp_path / facet_store.CHANGES_FILE).exists()
    ix = whoosh_index.open_dir(str(tmp_path))
    with ix.reader() as reader:
        read = facet_store.read_saved_facets(tmp_path, reader)
        computed = full(reader)
        assert read is not None and read.masks.state() == computed.masks.state()
        assert read.counts == computed.counts
    ix.close()
