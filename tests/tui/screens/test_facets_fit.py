"""Pilot tests: the facet panel fits the library it shows (issue 47).

A library outside ML systems (law, psychology) has no topic or hardware label: those
sections fold to one line each, so Year, Venue, Author and Source tags show at 80x24.
After `M` (marked only) the counts describe the marked papers. Unfolding the GPU group
keeps the cursor on screen.
"""

from __future__ import annotations

from pathlib import Path

from index.facets.tagger import tag_papers
from index.facets.taxonomy import load_taxonomy
from index.models import Paper
from index.search.engine import SearchEngine
from tests.tui.app_pilot import app_with, build, facet_node, screen_text, settle, shown
from tui.widgets.facet_panel import FacetPanel

NARROW = (80, 24)


def _law_library() -> list[Paper]:
    """Law review articles: no ML-systems word, but a statute's "K40" and "serving"."""
    papers = [
        Paper(
            id=f"law{n}",
            title=f"Sentencing reform and the K40 amendments, part {n}",
            abstract="Judges serving on state courts applied the K40 provisions unevenly; "
            "we compiled their opinions and read the dialogue between the courts.",
            authors=(f"Author {n}",),
            year=1980 + n,
            venue=("Yale Law Journal", "Harvard Law Review", "Stanford Law Review")[n % 3],
            keywords=("sentencing", "criminal law") if n % 2 else ("appellate review",),
        )
        for n in range(14)
    ]
    return list(tag_papers(papers, load_taxonomy()))


def _cursor(panel: FacetPanel) -> tuple[str, str | None]:
    node = panel.cursor_node
    assert node is not None and node.data is not None
    return node.data


def _visible(panel: FacetPanel) -> bool:
    top = panel.scroll_offset.y
    return top <= panel.cursor_line < top + panel.scrollable_content_region.height


async def test_a_library_with_no_labels_folds_topics_and_hardware(tmp_path: Path) -> None:
    app = app_with(tmp_path, _law_library())
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert app.library is not None
        assert not any(p.topics or p.hardware for p in app.library.papers)
        text = screen_text(app)
        assert "Topics: none" in text and "Hardware: none" in text
        # Fourteen years and authors: each long section lists its first few and "more…",
        # so the last one's heading and first value are on screen too.
        for section in ("Year", "Venue", "Author", "Source tags", "appellate", "more…"):
            assert section in text, section
        assert "Yale Law" in text and "NVIDIA" not in text and "Training" not in text
        # The folded line is not a value: enter on it does nothing, the hint says why,
        # and the wider panel (it has the focus) says it in full.
        await pilot.press("f")
        panel = app.main_screen.query_one(FacetPanel)
        assert _cursor(panel) == ("year", "1993")
        await pilot.press("k", "k", "k")  # the Year heading, then the folded lines
        assert _cursor(panel)[0] == "topic"
        await pilot.press("enter")
        await settle(pilot)
        assert shown(app).request.topics == frozenset()
        text = screen_text(app)
        assert "Topics: none in this library" in text
        assert "none in the whole library" in text


async def test_values_no_paper_has_are_not_listed(tmp_path: Path) -> None:
    papers = _law_library()
    papers[0] = tag_papers(
        [
            Paper(
                id="ml",
                title="Serving LLMs on A10 GPUs",
                abstract="A serving system for language models on NVIDIA A10 GPUs.",
                year=2024,
            )
        ],
        load_taxonomy(),
    )[0]
    app = app_with(tmp_path, papers)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        facets = shown(app).facets
        assert {c.value for c in facets["topic"]} == {"inference", "none"}
        assert {c.value for c in facets["hardware"]} == {"gpu", "nvidia-gpu"}
        text = screen_text(app)
        assert "Inference" in text and "Training systems" not in text
        assert "none in this library" not in text


async def test_counts_follow_the_marked_only_view(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        everything = {c.value: c.count for c in shown(app).facets["year"]}
        await pilot.press("r", "m", "down", "m")  # mark the first two papers
        await settle(pilot)
        marked = set(app.marks.ids)
        assert len(marked) == 2
        await pilot.press("M")
        await settle(pilot)
        result = shown(app)
        assert {hit.paper.id for hit in result.hits} == marked
        years = {c.value: c.count for c in result.facets["year"]}
        assert sum(years.values()) == 2 and years != everything
        papers = [engine.paper(paper_id) for paper_id in marked]
        expected: dict[str, int] = {}
        for paper in papers:
            assert paper is not None
            key = str(paper.year) if paper.year else "0"
            expected[key] = expected.get(key, 0) + 1
        assert {y: n for y, n in years.items() if n} == expected
        # Back to every paper, the counts are the search's again.
        await pilot.press("M")
        await settle(pilot)
        assert {c.value: c.count for c in shown(app).facets["year"]} == everything


async def test_unfolding_the_gpu_group_keeps_the_cursor_in_view(engine: SearchEngine) -> None:
    app = build(engine)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        panel = app.main_screen.query_one(FacetPanel)
        await pilot.press("f")
        while panel.cursor_node is None or panel.cursor_node.data != ("hardware", "gpu"):
            await pilot.press("j")  # down to GPU, the last line in view at 80x24
        assert _visible(panel)
        await pilot.press("l")  # unfold GPU
        await settle(pilot)
        assert panel.cursor_node is not None and panel.cursor_node.data == ("hardware", "gpu")
        assert _visible(panel)
        # What unfolded is shown too, as far as the cursor stays in view.
        assert facet_node(panel, "hardware", "nvidia-gpu").line < panel.scroll_offset.y + 16
        assert "NVIDIA GPU" in screen_text(app)
        await pilot.press("l")  # into the group
        await settle(pilot)
        assert panel.cursor_node is not None and panel.cursor_node.parent is not None
        assert panel.cursor_node.parent.data == ("hardware", "gpu")
        assert _visible(panel)
        await pilot.press("h")  # back up to GPU
        await settle(pilot)
        assert panel.cursor_node is not None and panel.cursor_node.data == ("hardware", "gpu")
        assert _visible(panel)
