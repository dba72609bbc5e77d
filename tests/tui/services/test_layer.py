"""The user's layer is the same whether its papers are walked, read from the index's
saved keys, or found in the index's table of identities and note names."""

from __future__ import annotations

import marshal
from pathlib import Path

from index.models import Paper
from index.search.key_lookup import KeyLookup, lookup_section
from index.store.writer import keys_of
from tui.services.annotations import Annotations
from tui.services.layer import (
    build_user_layer,
    build_user_layer_from_keys,
    build_user_layer_from_lookup,
)
from tui.services.notes import create_note

# Two records the user made on papers that shared nothing; the library then has one paper
# carrying the DOI of the first and the key of the second: the strongest identity decides.
TAGGED_BY_DOI = Paper(id="a", title="First", year=2020, doi="10.1/first")
TAGGED_BY_KEY = Paper(id="b", title="Second", year=2021, citation_key="Smith:2021/x")
LIBRARY = (
    Paper(id="p1", title="Merged", year=2022, doi="10.1/first", citation_key="Smith:2021/x"),
    Paper(id="p2", title="Keyed", year=2021, citation_key="Smith:2021/x"),
    Paper(id="p3", title="Second", year=2021),  # the second record's title and year
    Paper(id="p4", title="Untouched", year=2019, citation_key="solo"),
    Paper(id="p5", title="No key", year=2018),
)


def user_annotations(tmp_path: Path) -> Annotations:
    store = Annotations(tmp_path / "annotations.json")
    store.change_tags([TAGGED_BY_DOI], add=["by-doi"])
    store.set_status([TAGGED_BY_DOI], "reading")
    store.change_tags([TAGGED_BY_KEY], add=["by-key"])
    store.set_status([TAGGED_BY_KEY], "read")
    store.change_tags([LIBRARY[4]], add=["plain"])
    return store


def user_notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    create_note(folder, LIBRARY[1])  # Smith_2021_x.md: p1 and p2 share the key
    create_note(folder, LIBRARY[4])  # p5.md, by id
    (folder / "nobody.md").write_text("a note no paper has", encoding="utf-8")
    return folder


def test_the_three_ways_give_one_layer(tmp_path: Path) -> None:
    store, folder = user_annotations(tmp_path), user_notes(tmp_path)
    keys = [keys_of(paper) for paper in LIBRARY]
    lookup = KeyLookup(marshal.loads(marshal.dumps(lookup_section(keys), 4)))
    walked = build_user_layer(store, LIBRARY, folder)
    assert build_user_layer_from_keys(store, keys, folder) == walked
    assert build_user_layer_from_lookup(store, lookup, folder) == walked
    # What the layer says, so the three agreeing is not three empty answers.
    assert walked.facets["tag"] == {
        "by-doi": frozenset({"p1"}),
        "by-key": frozenset({"p2", "p3"}),
        "plain": frozenset({"p5"}),
    }
    assert walked.facets["status"] == {
        "reading": frozenset({"p1"}),
        "read": frozenset({"p2", "p3"}),
    }
    assert set(walked.notes) == {"p1", "p2", "p5"}
    assert walked.notes["p1"] == walked.notes["p2"]


def test_no_notes_folder_and_no_annotations_give_an_empty_layer(tmp_path: Path) -> None:
    store = Annotations(tmp_path / "annotations.json")
    keys = [keys_of(paper) for paper in LIBRARY]
    lookup = KeyLookup(lookup_section(keys))
    layer = build_user_layer_from_lookup(store, lookup, tmp_path / "no-notes")
    assert layer == build_user_layer(store, LIBRARY, tmp_path / "no-notes")
    assert layer.notes == {} and not any(layer.facets.values())
