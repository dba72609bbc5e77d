"""The status line's leading words while the index is built or changed files are read."""

from __future__ import annotations

from tui.view.facets import build_message, build_stage, reading_again


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
