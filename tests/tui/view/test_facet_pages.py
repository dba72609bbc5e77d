"""The long sections' first page: the most values that keep the most headings in view."""

from __future__ import annotations

from tui.view.facet_pages import LEAST, MOST, SectionSize, fitting_page


def test_eight_values_each_when_everything_fits() -> None:
    sections = [SectionSize("year", 4), SectionSize("venue", 3), SectionSize("author", 2)]
    assert fitting_page(sections, first_line=2, height=40, shown={}) == MOST


def test_fewer_values_bring_the_last_sections_heading_into_view() -> None:
    # biblatex's examples at 80x24: 18 lines, Topics and Hardware folded above Year.
    sections = [
        SectionSize("year", 49, extra=0),
        SectionSize("venue", 15, cut=True),
        SectionSize("author", 60),
    ]
    page = fitting_page(sections, first_line=2, height=18, shown={})
    assert page == 5  # Year 2..8, Venue 9..15, Author's heading 16 and first value 17
    assert fitting_page(sections, first_line=2, height=16, shown={}) == 4


def test_when_nothing_fits_the_page_stays_whole() -> None:
    sections = [SectionSize("year", 30), SectionSize("venue", 30), SectionSize("author", 30)]
    assert fitting_page(sections, first_line=30, height=18, shown={}) == MOST
    # But as many as can be shown are: Venue's heading comes into view at four values.
    assert fitting_page(sections, first_line=10, height=18, shown={}) == 4
    assert fitting_page(sections, first_line=11, height=18, shown={}) == LEAST


def test_a_folded_section_and_one_opened_further_count_as_drawn() -> None:
    sections = [
        SectionSize("year", 40, expanded=False),
        SectionSize("venue", 20),
        SectionSize("author", 20),
    ]
    assert fitting_page(sections, first_line=0, height=14, shown={}) == MOST
    assert fitting_page(sections, first_line=0, height=14, shown={"venue": 16}) == MOST
    opened = [SectionSize("year", 40), *sections[1:]]
    assert fitting_page(opened, first_line=0, height=14, shown={"year": 16}) == MOST
