"""The table that finds papers by identity and note name (index.search.key_lookup)."""

from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import Any

import pytest

from index.search.key_lookup import KeyLookup, lookup_section, note_stem
from index.search.paper_keys import PaperKeys

KEYS = [
    PaperKeys("p1", ("doi:10.1/a", "key:Smith:2021/x", "title:a|2021"), "Smith:2021/x", (), ()),
    PaperKeys("p2", ("key:jones22", "title:a|2021"), "jones22", (), ()),
    PaperKeys("p3", ("id:p3",), None, (), ()),
    PaperKeys("p4", ("doi:10.1/d",), "jones22", (), ()),  # the same key as p2, so one note
]


def table(keys: list[PaperKeys]) -> KeyLookup:
    """The table as a reader gets it: written by marshal and read back."""
    return KeyLookup(marshal.loads(marshal.dumps(lookup_section(keys), 4)))


def test_an_identity_gives_every_paper_that_carries_it_with_its_rank() -> None:
    lookup = table(KEYS)
    assert lookup.papers_with("doi:10.1/a") == [("p1", 0)]
    assert lookup.papers_with("key:Smith:2021/x") == [("p1", 1)]
    assert sorted(lookup.papers_with("title:a|2021")) == [("p1", 2), ("p2", 1)]
    assert lookup.papers_with("id:p3") == [("p3", 0)]
    assert lookup.papers_with("doi:10.1/zzz") == []
    assert lookup.papers_with("") == []


def test_a_note_name_gives_the_papers_it_names() -> None:
    lookup = table(KEYS)
    assert note_stem("Smith:2021/x", "p1") == "Smith_2021_x"
    assert note_stem(None, "p3") == "p3"
    assert note_stem("..hidden", "p9") == "hidden"
    assert lookup.papers_named("Smith_2021_x") == ["p1"]
    assert lookup.papers_named("p3") == ["p3"]
    assert sorted(lookup.papers_named("jones22")) == ["p2", "p4"]
    assert lookup.papers_named("Smith:2021/x") == []  # the raw key is not a file name


def test_every_pair_of_a_larger_library_is_found() -> None:
    keys = [
        PaperKeys(f"id{n}", (f"doi:10.5/{n}", f"title:paper {n % 50}|2020"), f"k{n}", (), ())
        for n in range(500)
    ]
    lookup = table(keys)
    for n in range(0, 500, 7):
        assert lookup.papers_with(f"doi:10.5/{n}") == [(f"id{n}", 0)]
        assert lookup.papers_named(f"k{n}") == [f"id{n}"]
    shared = lookup.papers_with("title:paper 3|2020")
    assert sorted(shared) == sorted((f"id{n}", 1) for n in range(3, 500, 50))


def test_an_empty_library_has_an_empty_table() -> None:
    assert table([]).papers_with("doi:10.1/a") == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s.update(sizes=[4, 4, 1]),  # written where items have other sizes
        lambda s: s.update(rows=s["rows"][:-4]),  # a column cut short
        lambda s: s.update(ids=s["ids"][:1]),  # rows without their papers
        lambda s: s.pop("digests"),
    ],
)
def test_a_table_that_is_not_what_was_written_is_refused(
    damage: Callable[[dict[str, Any]], object],
) -> None:
    section = lookup_section(KEYS)
    damage(section)
    with pytest.raises((ValueError, KeyError)):
        KeyLookup(section)
