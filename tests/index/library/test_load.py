"""load_library on user files: bad input, folders, sidecars, ids, merging and linking."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from index.facets.taxonomy import load_taxonomy
from index.library.dedupe import dedupe, similarity
from index.library.ids import ID_PATTERN, IdAllocator, paper_slug, slugify
from index.library.load import input_files, load_library
from index.models import Paper, Source

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "library"
TAXONOMY = load_taxonomy()
ABSTRACT = (
    "We present Loomwork, a system that schedules jacquard looms across a weaving mill "
    "so that every pattern card is punched exactly once and shared by all looms."
)


def _messages(library) -> list[str]:
    return [str(warning) for warning in library.warnings]


def test_bad_inputs_warn_and_the_rest_loads(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "binary.bib").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00binary")
    (tmp_path / "latin1.txt").write_bytes(
        ("first line\n\n" + ABSTRACT.replace("jacquard", "jacquärd")).encode("latin-1")
    )
    empty_dir = tmp_path / "nothing"
    empty_dir.mkdir()
    (empty_dir / "notes.pdf").write_bytes(b"%PDF")
    missing = tmp_path / "missing.bib"
    library = load_library(
        [
            missing,
            empty_dir,
            tmp_path / "empty.txt",
            tmp_path / "binary.bib",
            tmp_path / "latin1.txt",
            FIXTURES / "malformed.json",
        ],
        TAXONOMY,
    )
    messages = _messages(library)
    assert f"{missing}: no such file or folder" in messages
    assert any(m.startswith(f"{empty_dir}: folder holds no supported files") for m in messages)
    assert f"{tmp_path / 'empty.txt'}: file is empty" in messages
    assert f"{tmp_path / 'binary.bib'}: looks like a binary file, not text; skipped" in messages
    assert (
        f"{tmp_path / 'latin1.txt'}:3: not valid UTF-8; undecodable bytes replaced with �"
        in messages
    )
    assert any(m.startswith(f"{FIXTURES / 'malformed.json'}:3: malformed JSON") for m in messages)
    (paper,) = library.papers
    assert "jacqu�rd" in paper.abstract and paper.id == "loomwork"
    assert str((tmp_path / "latin1.txt").resolve()) in library.files


def test_folder_is_walked_recursively_and_unsupported_files_ignored() -> None:
    library = load_library([FIXTURES / "folder"], TAXONOMY)
    assert sorted(p.title for p in library.papers if not p.title_inferred) == ["Deep Things"]
    assert len(library.papers) == 2 and library.warnings == ()
    assert [Path(f).name for f in library.files] == ["a.txt", "b.bib"]
    assert input_files([FIXTURES / "folder"]) == [
        FIXTURES / "folder" / "a.txt",
        FIXTURES / "folder" / "sub" / "b.bib",
    ]


def test_sidecar_beside_a_text_file_enriches_it() -> None:
    library = load_library([FIXTURES / "notes.txt"], TAXONOMY)
    papers = library.by_id()
    assert sorted(papers) == ["analytical-engine", "difference-engine"]
    engine = papers["analytical-engine"]
    assert (engine.title, engine.title_inferred, engine.year) == (
        "Sketch of the Analytical Engine",
        False,
        1843,
    )
    assert engine.authors == ("Ada Byron", "Charles Babbage")  # the file's author line
    assert engine.related == ("difference-engine",)
    assert papers["difference-engine"].related == ("analytical-engine",)  # made symmetric
    assert papers["difference-engine"].authors == ("Charles Babbage",)
    assert [Path(f).name for f in library.files] == ["notes.txt", "notes.meta.json"]
    assert any("sidecar record 3 needs an `id`" in m for m in _messages(library))


def test_ids_are_unique_and_shell_safe_with_duplicate_bibtex_keys() -> None:
    library = load_library(
        [
            FIXTURES / "refs.bib",
            FIXTURES / "arxiv.jsonl",
            FIXTURES / "csl.json",
            FIXTURES / "messy.txt",
        ],
        TAXONOMY,
    )
    ids = [paper.id for paper in library.papers]
    assert len(ids) == len(set(ids))
    assert all(ID_PATTERN.match(paper_id) for paper_id in ids)
    assert ids[:5] == ["mueller2021fast", "dup", "dup-2", "noabstract", "biblatex2022"]
    assert "2006.06762" in ids and "wang2024hlat" in ids and "warpdrive" in ids


def test_the_same_paper_from_two_formats_is_merged(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(ABSTRACT.replace("We present", "We present\n"))
    (tmp_path / "b.jsonl").write_text(
        '{"id": "2401.00001", "title": "Loomwork: Scheduling Looms", "authors": "Ada Byron", '
        '"categories": "cs.DC", "abstract": "' + ABSTRACT[:90] + '"}\n'
    )
    library = load_library([tmp_path], TAXONOMY)
    (paper,) = library.papers
    assert paper.title == "Loomwork: Scheduling Looms" and not paper.title_inferred
    assert paper.abstract == ABSTRACT  # the truncated copy gave way to the full text
    assert len(paper.sources) == 2


def test_same_paper_without_the_sidecar_stays_one_when_copied(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "notes.txt", tmp_path / "copy.txt")
    library = load_library([FIXTURES / "notes.txt", tmp_path / "copy.txt"], TAXONOMY)
    assert len(library.papers) == 2
    assert all(len(paper.sources) == 2 for paper in library.papers)


def _paper(abstract: str, **kw) -> Paper:
    return Paper(
        id=kw.pop("id", ""),
        title="t",
        abstract=abstract,
        sources=(Source("x", kw.pop("line", 1)),),
        **kw,
    )


def test_dedupe_merges_near_copies_and_links_related_texts() -> None:
    base = ABSTRACT + " Looms share cards through a central store and finish early."
    edited = base.replace("every pattern", "each pattern").replace("early", "sooner")
    related = (
        "Loomwork schedules jacquard looms across a weaving mill so that every pattern "
        "card is punched exactly once; this extension adds dyeing vats, colour "
        "planning, thread inventory, night shifts and a new cost model for wool."
    )
    unrelated = "Quantum error correction protects fragile qubits by encoding logical qubits."
    merged, links, pinned = dedupe(
        [_paper(base), _paper(edited, line=2), _paper(related, line=3), _paper(unrelated, line=4)]
    )
    assert [len(p.sources) for p in merged] == [2, 1, 1]
    assert links == [(0, 1)] and pinned == [False, False, False]
    assert similarity(base, base.replace("$", "")) == 1.0


def test_curated_papers_are_never_merged_with_each_other() -> None:
    merged, links, _pinned = dedupe(
        [_paper(ABSTRACT, id="one"), _paper(ABSTRACT, id="two", line=2)], [True, True]
    )
    assert [p.id for p in merged] == ["one", "two"] and links == [(0, 1)]


def test_same_doi_merges_even_without_abstracts() -> None:
    merged, _, _ = dedupe([_paper("", doi="10.1/X"), _paper("", doi="10.1/x", line=2)])
    assert len(merged) == 1 and len(merged[0].sources) == 2


@pytest.mark.parametrize(
    ("text", "slug"),
    [("Kübler Matthäus", "kubler-matthaus"), ("--Weird  Key!!", "weird-key"), ("", "")],
)
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug


def test_id_allocation() -> None:
    assert paper_slug(["Chenyu Jiang"], 2024, "The DynaPipe System") == "jiang2024dynapipe"
    allocator = IdAllocator(["dup"])
    assert [allocator.allocate("dup"), allocator.allocate("dup"), allocator.allocate(None, "")] == [
        "dup-2",
        "dup-3",
        "paper",
    ]
