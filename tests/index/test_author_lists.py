"""`author_list`: the one place an author list is cut and marked "et al."."""

from __future__ import annotations

from index.author_lists import author_list
from index.citations.plain import plain_line
from index.models import Paper


def paper(*authors: str, complete: bool = True) -> Paper:
    return Paper(id="p", title="T", authors=authors, authors_complete=complete)


def test_a_long_list_is_cut_after_the_limit_and_says_et_al() -> None:
    assert author_list(paper("A", "B", "C", "D"), 3) == "A, B, C, et al."
    assert author_list(paper("A", "B", "C"), 3) == "A, B, C"
    assert author_list(paper("A", "B", "C", "D")) == "A, B, C, D"


def test_a_source_that_said_and_others_is_et_al_even_when_nothing_is_cut() -> None:
    assert author_list(paper("A", complete=False), 3) == "A, et al."
    assert author_list(paper("A", "B", complete=False)) == "A, B, et al."


def test_no_authors_is_the_callers_word_never_a_bare_et_al() -> None:
    assert author_list(paper(), 3, unknown="authors unknown") == "authors unknown"
    assert author_list(paper(complete=False), unknown="?") == "?"
    assert author_list(paper()) == ""


def test_prose_joins_the_last_two_names_and_a_row_may_show_one() -> None:
    def prose(*authors: str) -> str:
        return author_list(paper(*authors), 3, et_al=" et al.", last=" and ")

    assert prose("A", "B", "C") == "A, B and C"
    assert prose("A", "B") == "A and B"
    assert prose("A") == "A"
    assert prose("A", "B", "C", "D") == "A, B, C et al."
    assert author_list(paper("A", "B"), 1, et_al=" et al.") == "A et al."
    assert author_list(paper("A"), 1, et_al=" et al.") == "A"


def test_each_shown_name_is_passed_through_and_only_those() -> None:
    seen: list[str] = []

    def upper(name: str) -> str:
        seen.append(name)
        return name.upper()

    assert author_list(paper("a", "b", "c", "d"), 2, each=upper) == "A, B, et al."
    assert seen == ["a", "b"]


def test_the_plain_line_uses_the_prose_form() -> None:
    assert plain_line(paper("Ann Bee", "Cy Dee")).startswith("Ann Bee and Cy Dee. T.")
    assert plain_line(paper()).startswith("Unknown authors. T.")
