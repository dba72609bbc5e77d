"""Zotero's own database as a corpus: items to papers, a live (locked) library, damage.

Every database here is built by `tests/fixtures/zotero.py` with Zotero 7's table and
column names; none is a real user's library.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from index.facets.taxonomy import load_taxonomy
from index.library.load import load_library
from index.library.loaders import discover, load_file
from index.library.loaders.html_text import html_to_text
from index.library.loaders.zotero import fingerprint, load_zotero
from index.library.loaders.zotero_prefs import base_attachment_dir, default_data_dir, read_prefs
from index.library.loaders.zotero_snapshot import SnapshotError, snapshot, stat_fingerprint
from index.models import Name, Paper
from tests.fixtures.zotero import ZoteroFixture, better_bibtex

TAXONOMY = load_taxonomy()
ABSTRACT = (
    "We present Loomwork, a system that schedules jacquard looms across a weaving mill "
    "so that every pattern card is punched exactly once and shared by all looms."
)


def build_library(folder: Path, ids: str = "fresh", **options: object) -> ZoteroFixture:
    """One of each kind of thing the loader reads; returns the open builder."""
    z = ZoteroFixture(folder, ids=ids, **options)  # type: ignore[arg-type]
    thesis = z.collection("Thesis")
    chapter = z.collection("Chapter 2", thesis)
    old = z.collection("Old ideas")
    z.trash_collection(old)
    loop = z.collection("Loop")  # a damaged database: its own parent
    z.db.execute(
        "UPDATE collections SET parentCollectionID = ? WHERE collectionID = ?", (loop, loop)
    )
    paper = z.item(
        "conferencePaper",
        {
            "title": "Fast Looms",
            "abstractNote": ABSTRACT,
            "date": "2019-06-00 June 2019",
            "proceedingsTitle": "Proceedings of OSDI",
            "conferenceName": "OSDI '19",
            "DOI": "https://doi.org/10.1145/ABC.123",
            "pages": "100–112",
            "volume": "7",
            "publisher": "USENIX",
            "url": "https://example.org/looms",
            "extra": "Citation Key: vanderberg2019looms\ntex.note: kept",
        },
        creators=[
            ("Ann", "van der Berg", 0, "author"),
            ("", "CERN Collaboration", 1, "author"),
            ("Ed", "Itor", 0, "editor"),
            ("Con", "Tributor", 0, "contributor"),
            ("Tra", "Nslator", 0, "translator"),
        ],
        tags=["weaving", "Scheduling"],
        collections=[chapter, thesis, old, loop],
    )
    z.note(
        paper,
        '<div data-schema-version="9"><p>Read <b>twice</b> &amp; cite.</p>'
        "<ul><li>looms &lt;3</li><li>cards</li></ul><script>alert(1)</script></div>",
    )
    trashed_note = z.note(paper, "<p>deleted thought</p>")
    z.trash(trashed_note)
    z.note(None, "<p>a standalone note is not a paper</p>")
    stored = z.attachment(paper, "storage:Fast Looms.pdf", key="ATTKEY01")
    z.annotation(stored)
    z.attachment(paper, "/papers/linked.pdf", link_mode=2)
    z.attachment(paper, "attachments:Looms/relative.pdf", link_mode=2)
    z.attachment(paper, "https://example.org/looms.html", link_mode=3)
    cards = z.item(
        "journalArticle",
        {
            "title": "Pattern Cards",
            "abstractNote": "Cards punched once.",
            "date": "2021-00-00 2021",
            "publicationTitle": "Journal of Weaving",
            "volume": "3",
            "issue": "2",
            "DOI": "doi:10.5555/cards",
            "citationKey": "native2021cards",
            "extra": "Citation Key: ignored2021",
        },
        creators=[("Grace", "Hopper", 0, "author"), ("Rev", "Iewer", 0, "reviewedAuthor")],
    )
    z.attachment(cards, "storage:../../outside.pdf")  # a damaged row must not leave storage/
    z.attachment(cards, "storage:.zotero-ft-cache")
    z.item(
        "bookSection",
        {
            "title": "A Chapter",
            "bookTitle": "The Book of Looms",
            "date": "2018-03-15 March 15, 2018",
            "publisher": "Loom Press",
        },
        creators=[
            ("Chap", "Ter", 0, "author"),
            ("Book", "Editor", 0, "editor"),
            ("Whole", "Book", 0, "bookAuthor"),
        ],
    )
    z.item(
        "thesis",
        {"title": "A Thesis", "university": "MIT", "thesisType": "Master's thesis", "date": "2015"},
        creators=[("Stu", "Dent", 0, "author")],
    )
    z.item(
        "report",
        {
            "title": "A Report",
            "institution": "NASA",
            "reportNumber": "TR-7",
            "reportType": "Technical report",
        },
        creators=[("Rep", "Orter", 0, "author")],
    )
    z.item(
        "preprint",
        {
            "title": "A Preprint",
            "repository": "arXiv",
            "archiveID": "arXiv:2101.00001",
            "url": "http://arxiv.org/abs/2101.00001v2",
            "DOI": "10.48550/arXiv.2101.00001",
        },
        creators=[("Pre", "Print", 0, "author")],
    )
    z.item(
        "webpage",
        {
            "title": "A Page",
            "websiteTitle": "Loom Blog",
            "url": "https://l.example",
            "extra": "original-date: 2001\nDOI: 10.9999/page",
        },
    )
    z.item(
        "computerProgram",
        {"title": "loomctl", "company": "Loom Inc."},
        creators=[("Pro", "Grammer", 0, "programmer"), ("Con", "Tributor", 0, "contributor")],
    )
    z.item(
        "presentation",
        {"title": "A Talk", "sessionTitle": "Keynotes"},
        creators=[("Pre", "Senter", 0, "presenter"), ("Ch", "Air", 0, "chair")],
    )
    gone = z.item("journalArticle", {"title": "In the Trash"})
    z.trash(gone)
    z.item("book", {})  # neither title nor abstract: nothing to show
    group = z.group("Lab Group")
    shared = z.collection("Shared", library=group)
    z.item(
        "journalArticle",
        {"title": "Group Paper", "publicationTitle": "J. Groups"},
        creators=[("Gro", "Up", 0, "author")],
        collections=[shared],
        library=group,
    )
    z.db.execute(
        "INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (9, 'feed', 0, 0)"
    )
    z.item("journalArticle", {"title": "From an RSS Feed"}, library=9)  # not the user's
    return z


def by_title(papers: list[Paper]) -> dict[str, Paper]:
    return {paper.title: paper for paper in papers}


@pytest.fixture
def library_db(tmp_path: Path) -> Path:
    return build_library(tmp_path / "Zotero").close()


def test_regular_items_of_every_library_and_nothing_else(library_db: Path) -> None:
    papers, warnings = load_zotero(library_db, "zotero.sqlite", home=library_db.parent)
    assert warnings == []
    assert sorted(by_title(papers)) == [
        "A Chapter",
        "A Page",
        "A Preprint",
        "A Report",
        "A Talk",
        "A Thesis",
        "Fast Looms",
        "Group Paper",
        "Pattern Cards",
        "loomctl",
    ]
    assert all(p.sources[0].path == "zotero.sqlite" and p.sources[0].line is None for p in papers)
    assert all(p.note is None for p in papers)


def test_a_group_items_record_names_its_group(library_db: Path) -> None:
    """Zotero's link to a group's item names the group (`zotero://select/groups/ID/...`),
    so the record keeps the group's id beside the item key; a user's item has none."""
    papers = by_title(load_zotero(library_db, "z", home=library_db.parent)[0])
    with closing(sqlite3.connect(library_db)) as db:
        (group_id,) = db.execute("SELECT groupID FROM groups").fetchone()
    shared, own = papers["Group Paper"].records[0], papers["Fast Looms"].records[0]
    assert shared.get("groupID") == str(group_id) and shared.key.isalnum()
    assert own.get("groupID") is None


def test_item_types_and_base_fields(library_db: Path) -> None:
    papers = by_title(load_zotero(library_db, "z", home=library_db.parent)[0])
    fast = papers["Fast Looms"]
    assert (fast.entry_type, fast.booktitle, fast.journal, fast.venue) == (
        "inproceedings",
        "Proceedings of OSDI",
        None,
        "Proceedings of OSDI",
    )
    assert (fast.year, fast.month, fast.doi, fast.pages, fast.volume, fast.publisher) == (
        2019,
        6,
        "10.1145/ABC.123",
        "100-112",
        "7",
        "USENIX",
    )
    assert fast.url == "https://example.org/looms" and fast.abstract == ABSTRACT
    cards = papers["Pattern Cards"]
    assert (cards.entry_type, cards.journal, cards.number, cards.doi, cards.year, cards.month) == (
        "article",
        "Journal of Weaving",
        "2",
        "10.5555/cards",
        2021,
        None,
    )
    chapter = papers["A Chapter"]
    assert (chapter.entry_type, chapter.booktitle, chapter.year, chapter.month) == (
        "incollection",
        "The Book of Looms",
        2018,
        3,
    )
    thesis = papers["A Thesis"]
    assert (thesis.entry_type, thesis.publisher, thesis.venue, thesis.year) == (
        "mastersthesis",
        "MIT",
        "MIT",
        2015,
    )
    report = papers["A Report"]
    assert (report.entry_type, report.publisher, report.number) == ("techreport", "NASA", "TR-7")
    preprint = papers["A Preprint"]
    assert (preprint.entry_type, preprint.arxiv, preprint.publisher, preprint.number) == (
        "misc",
        "2101.00001",
        "arXiv",
        None,
    )
    page = papers["A Page"]
    assert (page.entry_type, page.venue, page.doi) == ("misc", "Loom Blog", "10.9999/page")
    assert papers["A Talk"].venue == "Keynotes"
    assert papers["loomctl"].publisher == "Loom Inc."


def test_creators_keep_their_parts_and_roles(library_db: Path) -> None:
    papers = by_title(load_zotero(library_db, "z", home=library_db.parent)[0])
    fast = papers["Fast Looms"]
    assert fast.names == (
        Name(family="Berg", given="Ann", particle="van der"),
        Name(literal="CERN Collaboration"),
    )
    assert fast.authors == ("Ann van der Berg", "CERN Collaboration")
    assert fast.editors == (Name(family="Itor", given="Ed"),)  # contributor, translator: neither
    assert papers["Pattern Cards"].authors == ("Grace Hopper",)  # not the reviewed author
    chapter = papers["A Chapter"]
    assert chapter.authors == ("Chap Ter",) and chapter.editors == (Name("Editor", "Book"),)
    assert papers["loomctl"].authors == ("Pro Grammer",)  # the primary type for software
    assert papers["A Talk"].authors == ("Pre Senter",)  # and for talks: not the chair


def test_citation_key_native_field_then_extra_then_none(library_db: Path) -> None:
    papers = by_title(load_zotero(library_db, "z", home=library_db.parent)[0])
    assert papers["Pattern Cards"].citation_key == "native2021cards"
    assert papers["Fast Looms"].citation_key == "vanderberg2019looms"
    assert papers["A Thesis"].citation_key is None


def test_tags_collections_notes_and_attachments(library_db: Path, tmp_path: Path) -> None:
    papers = by_title(load_zotero(library_db, "z", home=tmp_path / "nohome")[0])
    fast = papers["Fast Looms"]
    assert fast.keywords == ("Scheduling", "weaving")
    assert fast.collections == ("Thesis", "Thesis/Chapter 2")  # not the trashed collection
    assert fast.source_notes == ("Read twice & cite.\nlooms <3\ncards",)
    data_dir = library_db.parent
    assert fast.attachments == (
        str(data_dir / "storage" / "ATTKEY01" / "Fast Looms.pdf"),
        "/papers/linked.pdf",
        "attachments:Looms/relative.pdf",
    )  # no base folder set: kept as stored
    assert Path(fast.attachments[0]).is_file()
    assert papers["Group Paper"].collections == ("Lab Group/Shared",)  # under its group
    assert papers["Pattern Cards"].attachments == ()


def test_relative_attachments_use_zotero_base_folder(library_db: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    profile = home / ".zotero" / "zotero" / "abc.default"
    profile.mkdir(parents=True)
    (profile.parent / "profiles.ini").write_text(
        "[General]\nStartWithLastProfile=1\n\n"
        "[Profile0]\nName=default\nIsRelative=1\nPath=abc.default\nDefault=1\n"
    )
    (profile / "prefs.js").write_text(
        "// Mozilla User Preferences\n"
        'user_pref("extensions.zotero.baseAttachmentPath", "/mnt/papers");\n'
        'user_pref("extensions.zotero.dataDir", "/elsewhere/Zotero \\"x\\"");\n'
        'user_pref("extensions.zotero.useDataDir", true);\n'
    )
    assert base_attachment_dir(home, "linux") == Path("/mnt/papers")
    assert read_prefs(profile / "prefs.js")["extensions.zotero.dataDir"] == '/elsewhere/Zotero "x"'
    papers = by_title(load_zotero(library_db, "z", home=home)[0])
    assert "/mnt/papers/Looms/relative.pdf" in papers["Fast Looms"].attachments


def test_default_data_dir_prefers_the_profile_setting(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert default_data_dir(home, "linux") is None
    ZoteroFixture(home / "Zotero").close()
    assert default_data_dir(home, "linux") == home / "Zotero"
    moved = tmp_path / "moved"
    ZoteroFixture(moved).close()
    root = home / "Library" / "Application Support" / "Zotero"
    (root / "Profiles" / "p").mkdir(parents=True)
    (root / "profiles.ini").write_text("[Profile0]\nPath=Profiles/p\nIsRelative=1\nDefault=1\n")
    (root / "Profiles" / "p" / "prefs.js").write_text(
        f'user_pref("extensions.zotero.dataDir", {str(moved)!r});\n'.replace("'", '"')
        + 'user_pref("extensions.zotero.useDataDir", true);\n'
    )
    assert default_data_dir(home, "darwin") == moved


def test_ids_differ_between_installations_but_papers_do_not(tmp_path: Path) -> None:
    fresh = build_library(tmp_path / "fresh").close()
    legacy = build_library(tmp_path / "legacy", ids="legacy").close()

    def comparable(path: Path) -> list[dict[str, object]]:
        papers = load_zotero(path, "z", home=tmp_path)[0]
        rows = [
            {**p.to_dict(), "attachments": [a.replace(str(path.parent), "") for a in p.attachments]}
            for p in papers
        ]
        return sorted(rows, key=lambda row: str(row["title"]))

    assert comparable(fresh) == comparable(legacy)


def test_newer_schema_loads_and_warns_once(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero", userdata_version=140)
    z.item("journalArticle", {"title": "Still Here"})
    z.db.execute("DROP TABLE itemTags")  # a newer Zotero renamed it
    path = z.close()
    papers, warnings = load_zotero(path, "zotero.sqlite")
    assert [p.title for p in papers] == ["Still Here"]
    assert [str(w) for w in warnings] == [
        "zotero.sqlite: schema version 140 has not been tested with paperscope (tested: 123-129)",
        "zotero.sqlite: could not read tags; loaded the items without them",
    ]


@pytest.mark.parametrize("damage", ["text", "truncated", "no items table", "empty"])
def test_damaged_database_is_one_warning(tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "Zotero"
    path = build_library(folder).close()
    if damage == "text":
        path.write_text("this is not a database\n" * 50)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:3000])
    elif damage == "no items table":
        with sqlite3.connect(path) as db:
            db.execute("DROP TABLE items")
        db.close()
    else:
        path.write_bytes(b"")
    result = load_file(path, "zotero.sqlite")
    assert result.papers == []
    (warning,) = result.warnings
    assert str(warning).startswith("zotero.sqlite: ") and "\n" not in str(warning)
    if damage == "no items table":
        assert str(warning) == "zotero.sqlite: not a Zotero database (no table items)"


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


# Plays Zotero: the database in WAL mode under an exclusive lock, one item committed to the
# write-ahead log and never checkpointed, and a write transaction left open.
_ZOTERO_PROCESS = textwrap.dedent("""
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("PRAGMA locking_mode=EXCLUSIVE")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("BEGIN IMMEDIATE")
    (type_id,) = db.execute(
        "SELECT itemTypeID FROM itemTypes WHERE typeName = 'journalArticle'").fetchone()
    (field_id,) = db.execute("SELECT fieldID FROM fields WHERE fieldName = 'title'").fetchone()
    item = db.execute("INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, 'NEWITEM1')",
                      (type_id,)).lastrowid
    value = db.execute("INSERT INTO itemDataValues (value) VALUES ('Only In The Log')").lastrowid
    db.execute("INSERT INTO itemData VALUES (?, ?, ?)", (item, field_id, value))
    db.execute("COMMIT")
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE settings SET value = 1 WHERE 0")
    print("ready", flush=True)
    sys.stdin.readline()
    db.execute("ROLLBACK")
    db.close()
""")


def test_loads_while_zotero_holds_its_exclusive_lock(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero", wal=True)
    z.item("journalArticle", {"title": "Checkpointed Long Ago"})
    path = z.close()
    wal = path.with_name(path.name + "-wal")
    zotero = subprocess.Popen(
        [sys.executable, "-c", _ZOTERO_PROCESS, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert zotero.stdout is not None and zotero.stdout.readline().strip() == "ready"
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            plain = sqlite3.connect(path, timeout=0.1)
            try:
                plain.execute("SELECT COUNT(*) FROM items").fetchone()
            finally:
                plain.close()
        assert wal.stat().st_size > 0
        without_log = tmp_path / "db-only.sqlite"  # the new item is in the log, not the db
        shutil.copyfile(path, without_log)
        with sqlite3.connect(without_log) as copy:
            assert copy.execute("SELECT COUNT(*) FROM items WHERE key = 'NEWITEM1'").fetchone() == (
                0,
            )
        copy.close()
        before = (_digest(path), _digest(wal))
        papers, warnings = load_zotero(path, "zotero.sqlite")
        after = (_digest(path), _digest(wal))
        assert warnings == []
        assert sorted(p.title for p in papers) == ["Checkpointed Long Ago", "Only In The Log"]
        assert before == after  # not a byte of Zotero's files changed
        assert not path.with_name(path.name + "-shm").exists()
    finally:
        if zotero.stdin is not None:
            zotero.stdin.write("done\n")
            zotero.stdin.flush()
        zotero.wait(timeout=30)


def test_the_private_copy_is_removed_and_retried_while_zotero_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = build_library(tmp_path / "Zotero").close()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    import index.library.loaders.zotero_snapshot as snap

    real_copy = snap.copy_database
    calls: list[Path] = []

    def copy_while_zotero_writes(source: Path, target: Path) -> None:
        calls.append(source)
        if len(calls) == 1:  # Zotero appends to the database mid-copy, once
            with open(path, "ab") as handle:
                handle.write(b"\0" * 4096)
        real_copy(source, target)

    monkeypatch.setattr(snap, "copy_database", copy_while_zotero_writes)
    with snapshot(path) as copy:
        assert copy.is_file() and len(calls) == 2
    assert list(scratch.iterdir()) == []
    with pytest.raises(SnapshotError, match="no such file"), snapshot(tmp_path / "missing.sqlite"):
        pass
    assert list(scratch.iterdir()) == []


def test_library_cache_sees_items_that_are_only_in_the_log(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero", wal=True)
    z.item("journalArticle", {"title": "First Paper", "abstractNote": ABSTRACT})
    path = z.close()
    cache = tmp_path / "cache"
    first = load_library([path.parent], TAXONOMY, cache_dir=cache)
    assert [p.title for p in first.papers] == ["First Paper"]
    assert str(path.resolve()) + "-wal" in first.files
    db_state = (path.stat().st_size, path.stat().st_mtime_ns)
    writer = sqlite3.connect(path, isolation_level=None)  # Zotero, still running
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        (type_id,) = writer.execute(
            "SELECT itemTypeID FROM itemTypes WHERE typeName = 'journalArticle'"
        ).fetchone()
        (title,) = writer.execute("SELECT fieldID FROM fields WHERE fieldName = 'title'").fetchone()
        writer.execute("BEGIN")
        item = writer.execute(
            "INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, 'N2')", (type_id,)
        ).lastrowid
        value = writer.execute(
            "INSERT INTO itemDataValues (value) VALUES ('Second Paper')"
        ).lastrowid
        writer.execute("INSERT INTO itemData VALUES (?, ?, ?)", (item, title, value))
        writer.execute("COMMIT")
        assert (path.stat().st_size, path.stat().st_mtime_ns) == db_state  # only the log grew
        second = load_library([path.parent], TAXONOMY, cache_dir=cache)
    finally:
        writer.close()
    assert sorted(p.title for p in second.papers) == ["First Paper", "Second Paper"]


def test_data_folder_beside_a_bib_file_and_a_damaged_one(tmp_path: Path) -> None:
    path = build_library(tmp_path / "Zotero").close()
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{loom2020, title={Jacquard Cards}, author={Jo Weaver}, "
        "year={2020}, abstract={Punched cards drive a loom's pattern.}}\n"
    )
    library = load_library([path.parent, bib], TAXONOMY)
    assert library.warnings == ()
    titles = {p.title for p in library.papers}
    assert {"Jacquard Cards", "Fast Looms", "Group Paper"} <= titles
    assert str(path.resolve()) in library.files
    assert not any("storage" in f for f in library.files)  # the PDFs are not corpus files
    fast = next(p for p in library.papers if p.title == "Fast Looms")
    assert fast.id == "vanderberg2019looms" and fast.collections == ("Thesis", "Thesis/Chapter 2")

    duplicate = tmp_path / "dup.bib"  # the same paper, read first: Zotero's facts survive
    duplicate.write_text(
        "@inproceedings{berg19, title={Fast Looms}, author={Berg, Ann van der "
        "and {CERN Collaboration}}, year={2019}, abstract={" + ABSTRACT + "}}\n"
    )
    merged = next(
        p for p in load_library([duplicate, path], TAXONOMY).papers if p.title == "Fast Looms"
    )
    assert len(merged.sources) == 2 and merged.collections == ("Thesis", "Thesis/Chapter 2")
    assert merged.editors == (Name(family="Itor", given="Ed"),) and merged.source_notes
    assert merged.authors == ("Ann van der Berg", "CERN Collaboration")
    assert merged.names[1] == Name(literal="CERN Collaboration")  # same people: parts kept

    broken = tmp_path / "Broken"
    broken.mkdir()
    (broken / "zotero.sqlite").write_bytes(b"\x00garbage" * 100)
    library = load_library([broken, bib], TAXONOMY)
    assert [p.title for p in library.papers] == ["Jacquard Cards"]
    (warning,) = library.warnings
    assert str(warning).startswith(f"{broken / 'zotero.sqlite'}: cannot read as a Zotero database")


def test_html_notes_become_plain_text() -> None:
    assert html_to_text("<p>a<br>b</p><p>x &lt;b&gt; y</p><style>p{}</style>") == "a\nb\nx <b> y"
    assert html_to_text('<p title="a > b">kept</p><!-- <p>comment</p> -->') == "kept"
    assert html_to_text("<p>\x1b[31mred</p>") == "red"  # escapes never reach a terminal


def test_fingerprints_tell_item_changes_from_bookkeeping(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    z.item("journalArticle", {"title": "One"})
    stats, content = stat_fingerprint(z.path), fingerprint(z.path)
    z.db.execute("INSERT INTO settings VALUES ('sync', 'lastSync', 1)")  # Zotero syncing
    z.db.commit()
    assert stat_fingerprint(z.path) != stats and fingerprint(z.path) == content
    z.item("journalArticle", {"title": "Two"})
    assert fingerprint(z.path) != content
    z.close()
    assert fingerprint(tmp_path / "missing.sqlite") is None


def test_a_walked_folder_reads_a_data_folder_as_its_library(tmp_path: Path) -> None:
    ZoteroFixture(tmp_path / "papers" / "Zotero").close()
    storage = tmp_path / "papers" / "Zotero" / "storage" / "ABCD1234"
    storage.mkdir(parents=True)
    (storage / "snapshot.txt").write_text("An attachment's text, not an abstract list.")
    (tmp_path / "papers" / "Zotero" / "better-bibtex.sqlite").write_bytes(b"")
    (tmp_path / "papers" / "notes.txt").write_text(ABSTRACT)
    found, warnings = discover([tmp_path / "papers"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "papers/Zotero/zotero.sqlite",
        "papers/notes.txt",
    ]
    assert warnings == []


def test_the_fingerprint_follows_what_papers_are_made_of(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    reading = z.collection("Reading")
    group = z.group("Lab")
    item = z.item("journalArticle", {"title": "One"}, tags=["a"], collections=[reading])
    note = z.note(item, "<p>first</p>")
    seen = {fingerprint(z.path)}

    def changes(sql: str, *args: object) -> bool:
        z.db.execute(sql, args)
        z.db.commit()
        now = fingerprint(z.path)
        new = now not in seen
        seen.add(now)
        return new

    # Bookkeeping: a sync (versions), settings, a feed's items.
    assert not changes("UPDATE items SET version = version + 7, synced = 1")
    assert not changes("INSERT INTO settings VALUES ('sync', 'x', 1)")
    z.db.execute(
        "INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (9, 'feed', 0, 0)"
    )
    z.item("journalArticle", {"title": "Feed"}, library=9)
    assert fingerprint(z.path) in seen
    # Edits, even in the same second as the last one.
    value = z._value("Two")
    assert changes("UPDATE itemData SET valueID = ? WHERE itemID = ?", value, item)
    assert changes("UPDATE itemNotes SET note = '<p>first, then more</p>' WHERE itemID = ?", note)
    assert changes(
        "UPDATE collections SET collectionName = 'Later' WHERE collectionID = ?", reading
    )
    assert changes("UPDATE tags SET name = 'b'")
    assert changes("UPDATE groups SET name = 'Lab 2' WHERE libraryID = ?", group)
    assert changes("INSERT INTO deletedItems (itemID) VALUES (?)", item)
    z.close()


def test_a_reload_converts_only_the_items_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import index.library.loaders.zotero as zotero

    z = ZoteroFixture(tmp_path / "Zotero", wal=True)
    ids = [z.item("journalArticle", {"title": f"Paper {n}"}, tags=["t"]) for n in range(5)]
    first, _ = load_zotero(z.path, "z")
    converted: list[str] = []
    real = zotero.item_to_paper

    def counting(item: object, *args: object, **kwargs: object) -> object:
        converted.append(item.fields["title"])  # type: ignore[attr-defined]
        return real(item, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(zotero, "item_to_paper", counting)
    assert load_zotero(z.path, "z")[0] == first and converted == []
    z.note(ids[1], "<p>a new note</p>")  # a child changes its parent's paper
    z.db.execute("UPDATE itemData SET valueID = ? WHERE itemID = ?", (z._value("Renamed"), ids[3]))
    z.db.commit()
    second, _ = load_zotero(z.path, "z")
    assert sorted(converted) == ["Paper 1", "Renamed"]
    assert [p.title for p in second] == ["Paper 0", "Paper 1", "Paper 2", "Renamed", "Paper 4"]
    assert second[1].source_notes == ("a new note",)
    monkeypatch.setattr(zotero, "item_to_paper", real)
    zotero._converted.clear()
    assert load_zotero(z.path, "z")[0] == second  # the same as converting everything
    z.close()


def test_schema_129_client_version_is_a_change_even_in_the_same_second(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    item = z.item("journalArticle", {"title": "One"})
    before = fingerprint(z.path)
    z.db.execute("UPDATE items SET clientVersion = clientVersion + 1 WHERE itemID = ?", (item,))
    z.db.commit()
    assert fingerprint(z.path) != before
    z.close()


def test_better_bibtex_keys_from_its_own_database(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    native = z.item("journalArticle", {"title": "Native", "citationKey": "native1"}, key="NATIVE01")
    pinned = z.item(
        "journalArticle", {"title": "Pinned", "extra": "Citation Key: pinned1"}, key="PINNED01"
    )
    auto = z.item("journalArticle", {"title": "Auto"}, key="AUTOKEY1")
    group = z.group("Lab")
    shared = z.item("journalArticle", {"title": "Shared"}, key="AUTOKEY1", library=group)
    z.item("journalArticle", {"title": "Unknown"}, key="NOBBT001")
    z.close()
    better_bibtex(
        z.folder,
        [
            (native, "NATIVE01", 1, "bbt-native"),
            (pinned, "PINNED01", 1, "pinned1"),
            (auto, "AUTOKEY1", 1, "ada2020auto"),
            (shared, "AUTOKEY1", group, "lab2021shared"),
            (999, "NOBBT001", 7, "from-another-library"),  # not this library's row
        ],
    ).close()
    papers, warnings = load_zotero(z.path, "z")
    assert warnings == []
    keys = {p.title: p.citation_key for p in papers}
    assert keys == {
        "Native": "native1",  # Zotero's own field first
        "Pinned": "pinned1",
        "Auto": "ada2020auto",  # only in Better BibTeX's database
        "Shared": "lab2021shared",  # same item key, other library
        "Unknown": None,
    }


def test_a_damaged_better_bibtex_database_is_one_warning(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    z.item("journalArticle", {"title": "Auto"})
    z.close()
    (z.folder / "better-bibtex.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x07" * 200)
    papers, warnings = load_zotero(z.path, "z")
    assert [p.title for p in papers] == ["Auto"]
    assert len(warnings) == 1
    assert "could not read Better BibTeX's citation keys" in warnings[0].message


def test_group_collections_carry_their_group_name(tmp_path: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    mine = z.collection("Reading")
    lab = z.group("Lab group")
    theirs = z.collection("Reading", library=lab)
    week = z.collection("Week 1", parent=theirs, library=lab)
    slashed = z.group("A/B testing")
    other = z.collection("Reading", library=slashed)
    z.item("journalArticle", {"title": "Mine"}, collections=[mine])
    z.item("journalArticle", {"title": "Theirs"}, collections=[week], library=lab)
    z.item("journalArticle", {"title": "Slashed"}, collections=[other], library=slashed)
    z.close()
    papers = by_title(load_zotero(z.path, "z")[0])
    assert papers["Mine"].collections == ("Reading",)
    assert papers["Theirs"].collections == ("Lab group/Reading/Week 1",)
    assert papers["Slashed"].collections == ("A\u2215B testing/Reading",)  # one level


def test_the_copy_never_reads_sqlites_lock_byte_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Windows Zotero's exclusive lock makes the page at 1 GiB unreadable; it holds no
    data, so the copy writes zeros there. Simulated with the page moved to 8 KiB."""
    import index.library.loaders.zotero_snapshot as snap

    page = 1024
    source = tmp_path / "big.sqlite"
    header = bytearray(b"SQLite format 3\x00" + page.to_bytes(2, "big") + bytes(82))
    body = bytes(header) + bytes(range(256)) * 60  # 15,460 bytes: past the locked page
    source.write_bytes(body)
    reads: list[tuple[int, int]] = []
    real_open = open

    class Watched:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def read(self, n: int = -1) -> bytes:
            start = self.handle.tell()
            data = self.handle.read(n)
            reads.append((start, start + len(data)))
            return bytes(data)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.handle, name)

        def __enter__(self) -> Watched:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

    def watched_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(path, mode, *args, **kwargs)
        return Watched(handle) if "r" in mode and Path(path) == source else handle

    monkeypatch.setattr("builtins.open", watched_open)
    snap.copy_database(source, tmp_path / "copy.sqlite", lock_offset=8192)
    monkeypatch.undo()
    copy = (tmp_path / "copy.sqlite").read_bytes()
    assert len(copy) == len(body)
    assert copy[8192 : 8192 + page] == bytes(page)
    assert copy[:8192] == body[:8192] and copy[8192 + page :] == body[8192 + page :]
    assert not any(start < 8192 + page and end > 8192 for start, end in reads)


def test_the_record_keeps_every_field_and_every_creator_with_its_role(library_db: Path) -> None:
    fast = by_title(load_zotero(library_db, "z", home=library_db.parent)[0])["Fast Looms"]
    (record,) = fast.records
    assert (record.format, record.type) == ("zotero", "conferencePaper")
    item = record.item()
    assert item["conferenceName"] == "OSDI '19" and item["extra"].startswith("Citation Key:")
    assert [c["creatorType"] for c in item["creators"]] == [
        "author",
        "author",
        "editor",
        "contributor",
        "translator",  # kept in the record though the paper lists only authors and editors
    ]
    assert item["creators"][1] == {"creatorType": "author", "name": "CERN Collaboration"}
    assert sorted(item["tags"]) == ["Scheduling", "weaving"]
