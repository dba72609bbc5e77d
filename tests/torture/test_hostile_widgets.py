"""Every widget that shows the user's or a file's text shows it literally (issue 46).

A saved search's name reached the terminal raw in the `W` list and the facet panel's
Saved section (`ESC ]0;...` retitled the terminal). Here each kind of untrusted text
(tags, saved-search names, notes, statuses, collections, keywords, file names in load
problems, every paper field) holds escape sequences, bidi controls and Rich markup, and
each screen that shows it is drawn: no control character reaches the output, and markup
stays characters.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from index.facets.taxonomy import load_taxonomy
from index.models import Library, LoadWarning, Paper, Source
from tests.torture.hostile import EVIL_NAME, EVIL_TEXT, forbidden
from tests.tui.app_pilot import screen_text, search, settle
from tui.app import PaperscopeApp, make_app
from tui.services.annotations import Annotations
from tui.services.config import AppSettings
from tui.services.notes import note_path

EVIL = "\x1b]0;PWNED\x07 \x1b[2J [bold]x[/bold] \u202eevil \x07"
PAPER = Paper(
    id="quokka",
    title="Quokka " + EVIL_TEXT,
    authors=("Mal " + EVIL,),
    venue="Venue " + EVIL,
    abstract="quokka " + EVIL_TEXT,
    keywords=("kw " + EVIL,),
    collections=("coll " + EVIL,),
    categories=("cs.DC",),
    citation_key="quokka2020",
    year=2020,
    sources=(Source(EVIL_NAME, 1),),
)


def hostile_app(tmp_path: Path) -> PaperscopeApp:
    data = tmp_path / "data"
    data.mkdir()
    (data / "saved_searches.json").write_text(
        json.dumps(
            {"version": 1, "searches": [{"name": "saved " + EVIL, "request": {"query": "quokka"}}]}
        ),
        encoding="utf-8",
    )
    annotations = Annotations(data / "annotations.json")
    annotations.change_tags([PAPER], add=["tag " + EVIL])
    annotations.set_status([PAPER], "reading")
    stored = json.loads((data / "annotations.json").read_text(encoding="utf-8"))
    stored["papers"][0]["status"] = "status " + EVIL  # written by another tool
    (data / "annotations.json").write_text(json.dumps(stored), encoding="utf-8")
    note = note_path(data / "notes", PAPER)
    note.parent.mkdir(parents=True)
    note.write_text("# note " + EVIL + "\n\nnote body " + EVIL_TEXT + "\n", encoding="utf-8")
    library = Library(
        papers=(PAPER,), warnings=(LoadWarning(EVIL_NAME, "problem " + EVIL_TEXT, 2),)
    )
    settings = AppSettings(tmp_path / "config.toml", data, tmp_path / "cache")
    return make_app(settings, library=library, taxonomy=load_taxonomy())


def assert_literal(app: PaperscopeApp, where: str, *expected: str) -> None:
    text = screen_text(app)
    assert forbidden(text) == [], (where, forbidden(text)[:5], text)
    for part in expected:
        assert part in text, (where, part, text)


async def look(pilot: Pilot[Any], app: PaperscopeApp, where: str, *expected: str) -> None:
    await settle(pilot)
    assert_literal(app, where, *expected)


async def test_hostile_text_in_every_widget_is_shown_literally(tmp_path: Path) -> None:
    app = hostile_app(tmp_path)
    # Wide and tall: the facet panel's cursor hint shows, and long names are not cut.
    async with app.run_test(size=(250, 50)) as pilot:
        await settle(pilot)
        await search(pilot, "quokka")
        # The results, the status line, the facet panel's Saved, Tag, Status, Keyword and
        # Collection sections, and the load-problems notice.
        await look(pilot, app, "main screen", "saved", "[bold]x[/bold]")
        await pilot.press("enter")  # the detail view: every field, the note, the sources
        await look(pilot, app, "detail", "Quokka", "[bold]x[/bold]")
        await pilot.press("escape")
        await app.screen.run_action("manage_saved")  # `W`
        await look(pilot, app, "the W list", "saved", "[bold]x[/bold]")
        await pilot.press("r")  # rename: the name offered for editing
        await look(pilot, app, "the rename dialog", "saved", "[bold]x[/bold]")
        await pilot.press("escape")
        await app.run_action("show_load_warnings")
        await look(pilot, app, "load problems", "problem", "[bold]x[/bold]")
        await pilot.press("escape")
        await app.screen.run_action("pick_status")  # `R`
        await look(pilot, app, "status picker")
        await pilot.press("escape")
        await app.screen.run_action("edit_tags")  # `t`
        await look(pilot, app, "tag editor", "tag")
        await pilot.press("escape")
        # The facet panel, focused: the cursor hint of each value (its query, its name).
        await app.screen.run_action("focus_facets")
        for _ in range(12):
            await pilot.press("j")
            await settle(pilot)
            assert_literal(app, "facet cursor")
        assert app.is_running
