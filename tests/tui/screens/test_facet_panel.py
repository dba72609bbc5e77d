"""Pilot tests for the facet panel: the cursor's value read whole, "more…" to the last value,
and labels that are never cut in the middle of a word."""

from __future__ import annotations

from typing import Any

import pytest
from rich.style import Style

from index.search.engine import SearchEngine
from tests.tui.app_pilot import WIDE, build, facet_node, results, screen_text, settle, shown
from tui.widgets.facet_column import FacetHint
from tui.widgets.facet_panel import MORE, FacetPanel

NARROW = (80, 24)


def hint(app: Any) -> str:
    widget = app.main_screen.query_one(FacetHint)
    return str(widget.render())


async def test_the_cursor_value_is_shown_whole_with_its_query_id(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        assert not app.main_screen.query_one(FacetHint).display or "topic:" not in screen_text(app)
        await pilot.press("f")
        panel.cursor_line = facet_node(panel, "topic", "compilers").line
        await pilot.pause()
        count = next(c for c in shown(app).facets["topic"] if c.value == "compilers")
        text = screen_text(app)
        # The row itself is cut to fit; the line under the panel has it all.
        row = next(line for line in text.splitlines() if "○ Compilers" in line)
        assert "Compilers and tensor…" in row
        assert "Compilers and tensor programs" in text
        assert f"topic:compilers · {count.count} papers" in text
        # Hardware children name the id to type; the count follows the counts' changes.
        gpu = facet_node(panel, "hardware", "gpu")
        panel.cursor_line = gpu.line
        await pilot.press("l", "l")  # unfold GPU, go into it
        await pilot.pause()
        node = panel.cursor_node
        assert node is not None and node.data is not None and node.data[0] == "hardware"
        assert f"hw:{node.data[1]} · " in hint(app)
        # An author's id is quoted, as the query needs it.
        author = next(
            n
            for n in panel._walk()
            if n.data and n.data[0] == "author" and n.data[1] not in (None, MORE)
        )
        panel.cursor_line = author.line
        await pilot.pause()
        assert author.data is not None and f'author:"{author.data[1]}"' in hint(app)
        # Back on the results, the line is gone (there is no cursor to describe).
        await pilot.press("r")
        await pilot.pause()
        assert "author:" not in screen_text(app)


async def test_more_reaches_every_author(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        every = engine.search(
            app.main_screen.request.__class__(facet_limits=(("author", 100_000),), limit=0)
        ).facets["author"]
        assert len(every) > 40  # far more than the engine lists by default (15)
        panel.focus()
        for _ in range(len(every)):
            more = [n for n in panel._walk() if n.data == ("author", MORE)]
            if not more:
                break
            panel.cursor_line = more[0].line
            await pilot.press("enter")
            await settle(pilot)
        values = [
            n.data[1] for n in panel._walk() if n.data and n.data[0] == "author" and n.data[1]
        ]
        assert MORE not in values
        assert sorted(values) == sorted(c.value for c in every if c.count)
        # The cursor of the results did not move while the panel asked for more.
        assert results(app).cursor == 0


@pytest.mark.parametrize("focused", [False, True])
async def test_labels_are_never_cut_mid_word_at_80x24(engine: SearchEngine, focused: bool) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        if focused:
            await pilot.press("f")
            await pilot.pause()
        for node in panel._walk():
            node.expand()
        await pilot.pause()
        checked = 0
        for node in panel._walk():
            value = panel._counts.get(node.data) if node.data else None
            if value is None:
                continue
            label = panel.render_label(node, Style(), Style()).plain
            start = max(label.find("○ "), label.find("● ")) + 2  # after an unfold icon, if any
            name = label[start:].rstrip().rsplit(" ", 1)[0].rstrip()
            full = " ".join((value.label or value.value).split())
            checked += 1
            if name == full:
                continue
            if name.startswith("…"):  # cut from the front: its siblings share the front
                kept = name[1:]
                assert full.endswith(kept) and full[-len(kept) - 1] in " ,;:-/", (label, full)
                continue
            assert name.endswith("…"), (label, full)
            kept = name[:-1]
            assert full.startswith(kept) and full[len(kept)] in " ,;:-/", (label, full)
        assert checked > 40  # every topic, the hardware the corpus has, years, names


async def test_siblings_that_would_look_alike_are_cut_from_the_front(
    engine: SearchEngine,
) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        accelerator = facet_node(panel, "hardware", "accelerator")
        accelerator.expand()
        await pilot.pause()
        rows = {
            node.data[1]: panel.render_label(node, Style(), Style()).plain
            for node in accelerator.children
            if node.data is not None
        }
        assert "…Trainium" in rows["aws-trainium"] and "…Inferentia" in rows["aws-inferentia"]
        assert "Google TPU" in rows["google-tpu"]  # a name that fits stays whole


async def test_the_year_section_lists_only_years_with_matches(engine: SearchEngine) -> None:
    """A query on a library spanning decades listed every empty year above the ones
    with papers (the real exports: 2026 down to 2012 at 0 before "2011 1")."""
    from tests.tui.app_pilot import search

    app = build(engine)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        await search(pilot, "pipeline")
        counts = {c.value: c.count for c in shown(app).facets["year"]}
        assert 0 in counts.values()  # the engine counts every year...
        nodes = (panel.get_node_at_line(line) for line in range(panel.last_line + 1))
        listed = [
            node.data[1]
            for node in nodes
            if node is not None
            and node.data
            and node.data[0] == "year"
            and node.data[1] not in (None, MORE)
        ]
        # ...the panel lists those with papers, newest first.
        with_papers = sorted((y for y, n in counts.items() if n > 0), reverse=True)
        assert listed == with_papers and listed
