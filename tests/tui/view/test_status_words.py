"""The status line's leading words while the index is built or changed files are read."""

from __future__ import annotations

from tui.view.facets import (
    build_message,
    build_stage,
    completing_stage,
    reading_again,
    step_counted,
)


def test_reading_again_names_one_file_and_counts_several() -> None:
    assert reading_again(["/home/ada/papers/refs.bib"]) == "Reading refs.bib"
    assert reading_again(["/a/one.bib", "/a/two.ris", "/b/three.json"]) == (
        "Reading 3 changed files"
    )


def test_the_build_says_writing_once_every_paper_is_in() -> None:
    assert build_stage(350, 1000) == "Indexing 35%"
    assert build_stage(1000, 1000) == "Writing the index"
    assert build_message(5, 1000) == "Indexing… 5 of 1,000 papers"
    assert build_message(1, 1) == "Writing the index (1 paper)…"


def test_a_step_of_the_load_says_how_far_it_got_and_a_step_of_one_has_no_count() -> None:
    """A first start reads the library in the app: its steps lead the status line."""
    assert build_message(3, 10, "reading files") == "Reading files… 3 of 10"
    assert build_stage(3, 10, "reading files") == "Reading files 30%"
    assert build_message(5000, 20000, "tagging") == "Tagging… 5,000 of 20,000"
    assert build_stage(19000, 20000, "tagging") == "Tagging 95%"
    assert build_message(0, 1, "merging duplicates") == "Merging duplicates…"
    assert build_stage(0, 1, "merging duplicates") == "Merging duplicates"
    assert build_message(10, 10, "reading files") == "Reading files… 10 of 10"  # not "Writing"
    assert step_counted(10) and not step_counted(1)


def test_the_full_build_behind_a_lean_index_says_it_completes_the_index() -> None:
    """Every paper answers already (index.store.lean): short, for a 40-column pane."""
    assert completing_stage(0, 20000) == "Completing the index 0%"
    assert completing_stage(7000, 20000) == "Completing the index 35%"
    assert completing_stage(20000, 20000) == "Writing the full index"
    assert len(completing_stage(19999, 20000)) <= 24
