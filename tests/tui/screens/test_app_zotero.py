"""Pilot tests for a Zotero library in the app: child notes searched, group collections
kept apart in the facet panel, and edits made in Zotero picked up while it runs."""

from __future__ import annotations

from pathlib import Path

from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from tests.fixtures.zotero import ZoteroFixture, better_bibtex
from tests.tui.app_pilot import WIDE, facet_node, results, search, settle
from tests.tui.screens.test_app_reload import notices, wait_for
from tui.app import PaperscopeApp, make_app
from tui.services.config import AppSettings
from tui.widgets.facet_panel import FacetPanel


def zotero_library(folder: Path) -> tuple[ZoteroFixture, int]:
    """The user's library and a group, each with a collection named "Reading"; returns
    the builder (Zotero, still running) and the item id of the paper with a note."""
    z = ZoteroFixture(folder, wal=True)
    mine = z.collection("Reading")
    group = z.group("Lab group")
    theirs = z.collection("Reading", library=group)
    loom = z.item(
        "journalArticle",
        {"title": "Loom Scheduling", "citationKey": "loom", "abstractNote": "Looms and cards."},
        collections=[mine],
    )
    z.note(loom, "<p>Compare with the <b>quokka</b> trials.</p>")
    for n, title in enumerate(["Shared Cards", "Shared Looms"]):
        z.item(
            "journalArticle",
            {"title": title, "citationKey": f"shared{n}", "abstractNote": f"{title} in a lab."},
            collections=[theirs],
            library=group,
        )
    return z, loom


def start(folder: Path, taxonomy: Taxonomy) -> PaperscopeApp:
    settings = AppSettings.from_environment()
    library = load_library([folder], taxonomy, cache_dir=settings.cache_dir / "library")
    app = make_app(settings, library=library, taxonomy=taxonomy, corpus=[folder])
    app.watch_interval = 0.1
    return app


def collection_counts(app: PaperscopeApp) -> dict[str, int]:
    result = app.main_screen.result
    assert result is not None
    return {c.value: c.count for c in result.facets.get("collection", ())}


async def test_a_word_only_in_a_child_note_finds_the_paper(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    z, _ = zotero_library(tmp_path / "Zotero")
    app = start(tmp_path / "Zotero", taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        assert [h.paper.id for h in results(app).hits] == ["loom"]
        await pilot.press("ctrl+u", *"note:quokka")
        await settle(pilot)
        assert [h.paper.id for h in results(app).hits] == ["loom"]
    z.close()


async def test_group_collections_are_their_own_facet_values_with_live_counts(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    z, _ = zotero_library(tmp_path / "Zotero")
    app = start(tmp_path / "Zotero", taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert collection_counts(app) == {"Lab group": 2, "Lab group/Reading": 2, "Reading": 1}
        await search(pilot, "cards")  # the loom paper's abstract has "cards" too
        assert collection_counts(app) == {"Lab group": 1, "Lab group/Reading": 1, "Reading": 1}
        panel = app.main_screen.query_one(FacetPanel)
        panel.focus()
        panel.cursor_line = facet_node(panel, "collection", "Lab group").line
        await pilot.press("l")  # unfold the group: its collections are under it
        await settle(pilot)
        label = str(facet_node(panel, "collection", "Lab group/Reading").label)
        assert "Reading" in label and "Lab group" not in label  # its own name, under the group
        panel.cursor_line = facet_node(panel, "collection", "Lab group/Reading").line
        await pilot.press("enter")
        await settle(pilot)
        assert [h.paper.id for h in results(app).hits] == ["shared0"]
        # The user's own "Reading" still counts its paper (counts are disjunctive).
        assert collection_counts(app)["Reading"] == 1
    z.close()


async def test_a_note_added_in_zotero_is_searchable_within_seconds(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    z, loom = zotero_library(tmp_path / "Zotero")
    app = start(tmp_path / "Zotero", taxonomy)
    engine_before = None
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        engine_before = app.engine
        await search(pilot, "wombat")
        assert results(app).hits == ()
        # Zotero, still running, writes the note: it sits in the write-ahead log.
        z.note(loom, "<p>A <i>wombat</i> reviewer asked for more.</p>")
        await wait_for(pilot, lambda: app.engine is not engine_before, seconds=10)
        await wait_for(pilot, lambda: [h.paper.id for h in results(app).hits] == ["loom"])
    z.close()


async def test_zotero_bookkeeping_is_not_a_reload_but_a_renamed_collection_is(
    tmp_path: Path, taxonomy: Taxonomy
) -> None:
    z, _ = zotero_library(tmp_path / "Zotero")
    app = start(tmp_path / "Zotero", taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        engine = app.engine
        # What Zotero writes while it runs (a sync time, a feed item): no paper changes.
        z.db.execute("INSERT INTO settings VALUES ('sync', 'lastSync', 1)")
        z.db.execute(
            "INSERT INTO libraries (libraryID, type, editable, filesEditable) "
            "VALUES (9, 'feed', 0, 0)"
        )
        z.db.commit()
        z.item("journalArticle", {"title": "A Feed Item"}, library=9)
        await pilot.pause(1.0)  # ten polls
        await settle(pilot)
        assert app.engine is engine
        assert not any("zotero.sqlite" in n for n in notices(app))
        # A renamed collection changes no item, but the facet must follow it.
        z.db.execute("UPDATE collections SET collectionName = 'Read soon' WHERE libraryID = 1")
        z.db.commit()
        await wait_for(pilot, lambda: "Read soon" in collection_counts(app))
        assert "Reading" not in collection_counts(app)
    z.close()


async def test_a_key_better_bibtex_changes_is_picked_up(tmp_path: Path, taxonomy: Taxonomy) -> None:
    z, loom = zotero_library(tmp_path / "Zotero")
    z.db.execute(
        "DELETE FROM itemData WHERE itemID = ? AND fieldID = ?", (loom, z.fields["citationKey"])
    )
    z.db.commit()
    (key,) = z.db.execute("SELECT key FROM items WHERE itemID = ?", (loom,)).fetchone()
    bbt = better_bibtex(z.folder, [(loom, key, 1, "byron2020loom")], wal=True)
    app = start(tmp_path / "Zotero", taxonomy)

    def keys() -> set[str | None]:
        return {p.citation_key for p in app.library.papers} if app.library else set()

    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert "byron2020loom" in keys()
        # The user changes the key in Zotero: only Better BibTeX's database changes.
        bbt.execute("UPDATE citationkey SET citationKey = 'lovelace2020loom'")
        bbt.commit()
        await wait_for(pilot, lambda: "lovelace2020loom" in keys())
    bbt.close()
    z.close()
