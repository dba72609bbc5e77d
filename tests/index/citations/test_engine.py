"""The CSL engine: pandoc's citeproc behind one long-lived process, a cache and parts."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import index.citations.engine as engine
from index.citations import StyleFileError, format_citation
from index.citations.csl import CSL_DIR, CSL_FILES, engine_reference
from index.citations.custom import read_csl_style
from index.citations.engine import (
    BibEntry,
    EngineError,
    EngineStyle,
    EngineUnavailable,
    Reference,
    partition,
    render_bibliography,
    render_entry,
    wire,
)
from index.citations.engine.process import PandocProcess
from index.models import Paper, SourceRecord, json_fields, replace
from tests.index.citations.citation_papers import dynapipe

APA = CSL_DIR / CSL_FILES["apa"]
IEEE = CSL_DIR / CSL_FILES["ieee"]
MLA = CSL_DIR / CSL_FILES["mla"]

# A BibLaTeX entry with what it needs from the rest of its file: a macro and a parent.
KNUTH = BibEntry(
    "knuth:ct:a",
    "@string{aw = {Addison-Wesley}}\n"
    "@book{knuth:ct:a, author = {Knuth, Donald E.}, title = {The {\\TeX}book},"
    " crossref = {knuth:ct}, volume = {A}, edition = {2}, date = {1984}}\n"
    "@mvbook{knuth:ct, author = {Knuth, Donald E.}, maintitle = {Computers \\& Typesetting},"
    " publisher = aw, location = {Reading, Mass.}}",
)


def _article(id_: str, family: str, year: int, title: str) -> dict[str, Any]:
    return {
        "id": id_,
        "type": "article-journal",
        "title": title,
        "author": [{"family": family, "given": "A."}],
        "issued": {"date-parts": [[year]]},
        "container-title": "J. Things",
    }


def test_a_biblatex_entry_is_read_by_pandoc_with_its_macros_and_parents() -> None:
    """The parent lends its fields (publisher through @string) but is not an entry."""
    entries = render_bibliography([KNUTH], APA)
    assert entries == [
        (
            "knuth:ct:a",
            "Knuth, D. E. (1984). Computers & typesetting: A. The TeXbook (By D. E. Knuth; "
            "2nd ed.). Addison-Wesley.",
        )
    ]


def test_csl_items_and_biblatex_entries_share_one_sorted_bibliography() -> None:
    items: list[Reference] = [
        _article("z", "Zed", 2001, "Last"),
        KNUTH,
        _article("a", "Abel", 2001, "First"),
    ]
    assert [id_ for id_, _ in render_bibliography(items, APA)] == ["a", "knuth:ct:a", "z"]
    # IEEE does not sort: the given order, numbered.
    numbered = render_bibliography(items, IEEE)
    assert [text[:4] for _, text in numbered] == ["[1] ", "[2] ", "[3] "]
    assert [id_ for id_, _ in numbered] == ["z", "knuth:ct:a", "a"]


def test_markdown_keeps_the_styles_italics() -> None:
    item = _article("a", "Abel", 2001, "First")
    assert "*J. Things*" in render_entry(item, APA, "markdown")
    assert "*" not in render_entry(item, APA)


def test_a_style_pandoc_rejects_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.csl"
    path.write_text(
        '<?xml version="1.0"?>\n<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0">'
        "<info><title>Bad</title></info><citation><layout><text variable='title'/></layout>"
        "</citation><bibliography><layout><bogus/></layout></bibliography></style>",
        encoding="utf-8",
    )
    with pytest.raises(EngineError, match='unknown element "bogus"'):
        render_entry(_article("a", "Abel", 2001, "T"), path)
    with pytest.raises(StyleFileError) as caught:
        format_citation([dynapipe()], read_csl_style(path))
    assert str(caught.value).startswith(f"{path}: pandoc cannot render this style")
    assert "\n" not in str(caught.value)


def test_a_long_bibliography_in_a_broken_style_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `CHUNK` papers the style is read for its sort; a broken one still says why."""
    monkeypatch.setattr(partition, "CHUNK", 2)
    path = tmp_path / "broken.csl"
    path.write_text("<style>", encoding="utf-8")
    with pytest.raises(EngineError):
        render_bibliography([_article(f"b{i}", "Bee", 2000, f"T{i}") for i in range(3)], path)


def test_a_missing_pandoc_is_one_line() -> None:
    process = PandocProcess(Path("/nonexistent/pandoc"))
    with pytest.raises(EngineUnavailable) as caught:
        engine.request([_article("a", "Abel", 2001, "T")], EngineStyle(APA), process=process)
    assert str(caught.value).startswith("citation engine unavailable: cannot run /nonexistent")


def test_a_process_that_died_is_started_again() -> None:
    process = PandocProcess()
    try:
        item = [_article("a", "Abel", 2001, "T")]
        first = engine.request(item, EngineStyle(APA), process=process)
        assert process._process is not None
        process._process.kill()
        process._process.wait()
        assert engine.request(item, EngineStyle(APA), process=process) == first
    finally:
        process.close()


def test_threads_share_the_process_and_each_gets_its_own_answer() -> None:
    items = [_article(f"t{i}", f"Fam{i}", 2000 + i, f"Thread {i}") for i in range(6)]
    results: dict[str, str] = {}

    def render(item: dict[str, Any]) -> None:
        results[item["id"]] = engine.request([item], EngineStyle(APA))[0][1]

    threads = [threading.Thread(target=render, args=(item,)) for item in items]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(f"Thread {i}" in results[f"t{i}"] for i in range(6))


def _shared_names() -> list[dict[str, Any]]:
    """Same authors, same years, across what the parts split: suffixes and "———" at stake."""
    items = []
    for i in range(14):
        family = ("Bee", "Cee", "Dee")[i % 3]
        items.append(_article(f"i{i}", family, 2000 + i % 2, f"Work {i:02d}"))
    items.append({"id": "anon", "type": "book", "title": "Anonymous Work"})
    return items


def test_parts_split_by_year_only_where_a_year_keeps_citations_apart() -> None:
    item = _article("a", "Bee", 2000, "T")
    assert partition.group_key(item) == "bee"
    assert partition.group_key(item, by_year=True) == "bee\x002000"
    assert partition.group_key({"id": "n", "title": "Nameless"}, by_year=True) == ""
    assert partition.style_facts(APA).by_year  # "(Bee, 2000)"
    assert not partition.style_facts(MLA).by_year  # "———" joins a name's years


@pytest.mark.parametrize("path", [APA, IEEE, MLA, CSL_DIR / CSL_FILES["chicago"]])
def test_a_bibliography_in_parts_is_the_bibliography_in_one(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Year suffixes (APA), numbers (IEEE) and "———" (MLA) survive the split."""
    items = _shared_names()
    whole = engine.request(items, EngineStyle(path))
    monkeypatch.setattr(partition, "CHUNK", 4)
    requests: list[int] = []
    real = wire.request

    def counting(references: Any, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        requests.append(len(references))
        return real(references, *args, **kwargs)

    monkeypatch.setattr(wire, "request", counting)
    assert partition.render_large(items, EngineStyle(path), "plain") == whole
    assert len(requests) > 2
    assert any("2000a" in text for _, text in whole) or path != APA
    assert any(text.startswith("———") for _, text in whole) or path != MLA


def _kept(record: SourceRecord, title: str, year: int) -> Paper:
    """A paper as the loader reads `record`, keeping it."""
    return Paper(id=record.key, title=title, year=year, records=(record,))


def test_a_kept_bibtex_record_is_read_by_pandoc_with_its_macros_and_parent() -> None:
    parent = SourceRecord.of(
        "bibtex", "book", "proc", (("title", "{Proceedings of X}"), ("publisher", "pub"))
    )
    record = SourceRecord.of(
        "bibtex",
        "inbook",
        "same",
        (
            ("author", "{Bee, Ann}"),
            ("title", "{A Chapter}"),
            ("crossref", "{proc}"),
            ("year", "2001"),
            ("location", "{Cambridge}"),
        ),
        strings=(("pub", "{MIT Press}"),),
        parents=(parent,),
    )
    other = SourceRecord.of("bibtex", "misc", "same", (("title", "{Another}"), ("year", "1999")))
    reference = engine_reference(_kept(record, "A Chapter", 2001), "p0")
    assert isinstance(reference, BibEntry) and reference.key == "p0"
    second = engine_reference(_kept(other, "Another", 1999), "p1")
    entries = dict(render_bibliography([reference, second], APA))
    # pandoc sentence-cases an English title for APA, as its BibLaTeX reading does.
    assert entries["p0"] == "Bee, A. (2001). A chapter. In Proceedings of x. MIT Press."
    assert entries["p1"] == "Another. (1999)."  # one key in two files: two entries


def test_an_entry_paperscope_repaired_or_pandoc_cannot_parse_goes_as_read() -> None:
    """A DOI in the volume field is cited as a DOI, not as pandoc would print the field;
    Mendeley's `@book_section` (pandoc stops at the underscore) still gets a citation."""
    doi = SourceRecord.of(
        "bibtex",
        "article",
        "k",
        (("title", "{T}"), ("volume", "{10.5281/zenodo.1}"), ("year", "2021")),
    )
    paper = replace(_kept(doi, "T", 2021), doi="10.5281/zenodo.1", journal="Zenodo")
    assert isinstance(engine_reference(paper, "p0"), dict)
    assert "vol." not in format_citation([paper], "ieee")
    mendeley = SourceRecord.of("bibtex", "book_section", "m", (("title", "{T}"), ("year", "2010")))
    assert isinstance(engine_reference(_kept(mendeley, "T", 2010), "p0"), dict)


def test_a_kept_csl_json_record_is_the_item_pandoc_reads() -> None:
    item = {
        "type": "legal_case",
        "title": "Brown v. Board of Education",
        "authority": "Supreme Court",
        "container-title": "U.S.",
        "volume": "347",
        "page": "483",
        "issued": {"date-parts": [[1954]]},
    }
    case = SourceRecord.of("csl-json", "legal_case", "brown", json_fields(item))
    reference = engine_reference(replace(dynapipe(), records=(case,)), "p0")
    assert isinstance(reference, dict) and reference["id"] == "p0"
    assert render_entry(reference, APA) == (
        "Brown v. Board of Education, 347 U.S. 483 (Supreme Court 1954)."
    )


def test_an_entry_pandoc_rejects_costs_no_citation(monkeypatch: pytest.MonkeyPatch) -> None:
    """pandoc's BibTeX reader stops the whole request at an entry it cannot parse; the
    papers are then rendered as paperscope read them."""
    import index.citations.csl as csl

    real = csl.render_bibliography

    def strict(references: Any, style: Any, fmt: str) -> list[tuple[str, str]]:
        if any(isinstance(reference, BibEntry) for reference in references):
            raise EngineError("Error at (line 1, column 6): unexpected '_'")
        return real(references, style, fmt)

    monkeypatch.setattr(csl, "render_bibliography", strict)
    record = SourceRecord.of("bibtex", "article", "k", (("title", "{Kept}"), ("year", "2021")))
    assert format_citation([_kept(record, "Kept", 2021)], "apa") == "Kept. (2021)."
