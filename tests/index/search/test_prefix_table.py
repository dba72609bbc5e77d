"""The build-time table of short-prefix completions, and what an in-place update adds to it."""

from __future__ import annotations

import json
from pathlib import Path

from whoosh.index import create_in
from whoosh.reading import IndexReader

from index.schema.fields import build_schema
from index.search.tables import TABLE_FILE, add_terms, read_table


def _reader_with(folder: Path, abstracts: list[str]) -> IndexReader:
    """An index of these abstracts in `folder`.

    On disk, not in a RamStorage: Whoosh's writer keeps a RAM index's temporary segments
    in one shared `/tmp/MAIN.tmp`, which tests running side by side removed from under
    each other.
    """
    folder.mkdir()
    ix = create_in(str(folder), build_schema())
    with ix.writer() as writer:
        for n, abstract in enumerate(abstracts):
            writer.add_document(id=f"p{n}", abstract=abstract)
    return ix.reader()


def test_an_update_puts_its_terms_in_complete_lists_and_earned_places_in_capped_ones(
    tmp_path: Path,
) -> None:
    table = {
        "abstract": {
            "q": [["quorum", 5], ["query", 1]],  # complete
            "b": [["batch", 9], ["buffer", 7], ["bison", 6], ["", 40]],  # 3 of 40
        }
    }
    (tmp_path / TABLE_FILE).write_text(json.dumps(table), encoding="utf-8")
    reader = _reader_with(
        tmp_path / "index",
        ["quokka bandicoot", "bandicoot", "bandicoot", "bandicoot"] * 2 + ["bilby"],
    )
    add_terms(tmp_path, reader, [{"abstract": "quokka bandicoot bilby"}], cap=3)
    updated = read_table(tmp_path)
    assert updated is not None
    listed = updated["abstract"]
    assert listed["q"] == [["quorum", 5], ["quokka", 2], ["query", 1]]
    assert ["quokka", 2] in listed["qu"]  # a prefix the table did not have
    assert listed["b"] == [["batch", 9], ["bandicoot", 8], ["buffer", 7], ["", 40]]  # not bilby
    assert listed["bi"] == [["bilbi", 1]]  # as the stemmer indexed it


def test_no_table_is_left_alone(tmp_path: Path) -> None:
    add_terms(
        tmp_path, _reader_with(tmp_path / "index", ["quokka"]), [{"abstract": "quokka"}], cap=2
    )
    assert not (tmp_path / TABLE_FILE).exists()
