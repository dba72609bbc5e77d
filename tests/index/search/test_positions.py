"""The papers' current places saved beside an updated index (index.search.positions): a
line per paper, each parsed when a decode asks for it, and an older paperscope's file."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from index.models import Source
from index.search.positions import (
    POSITIONS_FILE,
    read_positions,
    updated_positions,
    write_positions,
)

PLACES = {
    "plain2020": (Source("refs.bib", 22),),
    "two-sources": (Source("refs.bib", 7), Source("more.ris", None, 3)),
    # An id JSON escapes (a tab, a quote, a backslash, beyond ASCII): the line still splits.
    'odd\tid "with" \\ ü': (Source("refs.bib", 40),),
}


def test_what_is_written_is_read_back_paper_by_paper(tmp_path: Path) -> None:
    write_positions(tmp_path, PLACES)
    read = read_positions(tmp_path)
    assert dict(read.items()) == PLACES
    assert read.get("plain2020") == (Source("refs.bib", 22),)
    assert read.get("absent") is None and len(read) == 3


def test_an_older_paperscopes_json_is_read_and_replaced_on_the_next_write(tmp_path: Path) -> None:
    old = tmp_path / "positions.json"
    papers = {"plain2020": [[0, 22, None]], "two-sources": [[0, 7, None], [1, None, 3]]}
    old.write_text(json.dumps({"paths": ["refs.bib", "more.ris"], "papers": papers}))
    assert read_positions(tmp_path) == {k: PLACES[k] for k in papers}
    write_positions(tmp_path, PLACES)
    assert not old.exists() and dict(read_positions(tmp_path).items()) == PLACES


def test_a_damaged_file_shows_the_stored_lines_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write_positions(tmp_path, PLACES)
    path = tmp_path / POSITIONS_FILE
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = [line.replace("22", "22,") if "plain2020" in line else line for line in lines]
    path.write_text("".join(damaged), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        read = read_positions(tmp_path)
        assert read.get("plain2020") is None  # its row no longer parses: the stored line
        assert read.get("two-sources") == PLACES["two-sources"]
    assert "plain2020" in caplog.text
    # The next update keeps the other records and drops the damaged one.
    kept = updated_positions(read, [], set(), set(PLACES))
    assert kept == {k: v for k, v in PLACES.items() if k != "plain2020"}
    path.write_text("not a list of paths\n", encoding="utf-8")
    assert read_positions(tmp_path) == {}
