"""An edit of a `.bib` read alone (index.library.bib_delta): only the changed entries are
parsed, with the file's lines, and what needs a full read says so (None).

Each case runs with the real block size and with a tiny one, so the stretch found by the
blocks is narrower than the file (as in a big file) and not only the whole file.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from index.library import bib_delta as module
from index.library.bib_delta import BibEntries, bib_delta
from index.library.loaders.bibtex import load_bibtex

ENTRIES = [
    f"@article{{paper{n},\n  author = {{Author{n}, Ann}},\n  title = {{Title number {n}}},\n"
    f"  journal = jnl,\n  year = {{{2000 + n}}},\n}}\n"
    for n in range(40)
]
BASE = '% a comment\n@string{jnl = "Journal of Tests"}\n\n' + "\n".join(ENTRIES)


@pytest.fixture(autouse=True, params=[module.BLOCK, 64], ids=["block-16k", "block-64"])
def block(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(module, "BLOCK", request.param)
    yield request.param


def _delta(before: str, after: str) -> module.BibDelta | None:
    return bib_delta(BibEntries.scan(before.encode()), after.encode(), "refs.bib")


def test_a_retitled_entry_is_parsed_alone_with_its_line() -> None:
    after = BASE.replace("Title number 25", "A new title")
    delta = _delta(BASE, after)
    assert delta is not None
    assert [p.title for p in delta.papers] == ["A new title"]
    assert delta.gone == {"paper25"}
    full, _ = load_bibtex(after, "refs.bib")
    expected = next(p for p in full if p.citation_key == "paper25")
    assert delta.papers[0].sources == expected.sources
    assert delta.papers[0].records[0].source == expected.records[0].source
    assert delta.papers[0].venue == "Journal of Tests"  # the file's @string, resolved


def test_an_added_and_a_removed_entry() -> None:
    added = BASE + "\n@book{newbook,\n  title = {Brand New},\n  year = {2024},\n}\n"
    delta = _delta(BASE, added)
    assert delta is not None and [p.citation_key for p in delta.papers] == ["newbook"]
    assert delta.gone == frozenset()
    assert delta.papers[0].sources[0].line == added.count("\n", 0, added.index("@book")) + 1
    removed = BASE.replace(ENTRIES[3], "")
    delta = _delta(BASE, removed)
    assert delta is not None and delta.papers == () and delta.gone == {"paper3"}


def test_the_first_entry_of_a_file_that_starts_with_one() -> None:
    before = "\n".join(ENTRIES)
    delta = _delta(before, before.replace("Title number 0}", "Changed}"))
    assert delta is not None and [p.title for p in delta.papers] == ["Changed"]
    assert delta.papers[0].sources[0].line == 1


def test_nothing_changed_is_an_empty_delta() -> None:
    delta = _delta(BASE, BASE)
    assert delta is not None and not delta.papers and not delta.gone


def test_a_broken_entry_is_a_warning_with_the_files_line() -> None:
    after = BASE.replace("  title = {Title number 30},\n", "  title = {Unclosed\n")
    delta = _delta(BASE, after)
    assert delta is not None and delta.warnings
    assert delta.warnings[0].line == after.count("\n", 0, after.index("@article{paper30")) + 1


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (BASE, BASE.replace('"Journal of Tests"', '"Journal of Proofs"')),  # @string
        (BASE, BASE.replace("  year = {2007},", "  crossref = {paper8},")),  # inherits
        (
            BASE.replace("  year = {2007},", "  crossref = {paper8},"),
            BASE.replace("  year = {2007},", "  crossref = {paper8},").replace(
                "Title number 8}", "Parent changed}"
            ),
        ),  # a parent of another entry
        (BASE, BASE.replace("Title number", "Name number")),  # more than MAX_CHANGED
    ],
    ids=["string", "crossref", "parent", "too-much"],
)
def test_what_needs_a_full_read_is_none(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(module, "MAX_CHANGED", 10)
    assert _delta(before, after) is None
