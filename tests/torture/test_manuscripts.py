"""Drafts full of unclosed citations: `cited` reads them in linear work and still finds
the citations that do close (issue 46: `\\cite{` x20,000 took 401 s).

The work is counted, not timed: the lines of `index.citations.manuscripts` run for a
draft (a line-tracing count, the same on a loaded machine as on an idle one) grow with
the draft, not with its square. The seconds are measured by `benchmarks/cited_drafts.py`.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest

from index.citations import manuscripts
from index.citations.manuscripts import cited_keys

# (syntax, an opener never closed, a citation that closes, what 3 openers and it cite)
DRAFTS = {
    "latex \\cite{": ("latex", "\\cite{", "\\cite{good}", ["good"]),
    "latex \\cite[": ("latex", "\\cite[", "\\cite[p. 3]{good}", ["good"]),
    "latex \\cites{a}(": ("latex", "\\cites{a}(", "\\citep{good}", ["a", "a", "a", "good"]),
    "latex \\cite{[": ("latex", "\\cite{[", "\\cite{good}", ["good"]),
    "markdown <!--": ("markdown", "<!-- ", "[@good]", ["good"]),
    # Org reads `[cite:...` up to the first `]`: the unclosed ones join the last.
    "org [cite:": ("org", "[cite:@a ", "[cite:@good]", ["a", "a", "a", "good"]),
    "org #+begin_src": ("org", "#+begin_src x\n", "[cite:@good]", ["good"]),
    "typst /*": ("typst", "x /* ", "@good", []),
}


def steps(text: str, syntax: str) -> int:
    """Lines of the manuscripts module run while reading `text`."""
    count = 0
    source = manuscripts.__file__

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != source:
            return None
        if event == "line":
            count += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        cited_keys(text, syntax)
    finally:
        sys.settrace(previous)
    return count


@pytest.mark.parametrize("name", list(DRAFTS))
def test_an_unclosed_opener_repeated_costs_linear_work(name: str) -> None:
    syntax, unit, _, _ = DRAFTS[name]
    small, large = steps(unit * 200, syntax), steps(unit * 800, syntax)
    # Linear: 4x the draft, about 4x the steps; the old scan made about 16x.
    assert large <= 5 * max(small, 1), (small, large)


@pytest.mark.parametrize("name", list(DRAFTS))
def test_the_citations_that_close_are_still_found(name: str) -> None:
    syntax, unit, closed, expected = DRAFTS[name]
    assert [cited.key for cited in cited_keys(unit * 3 + closed, syntax)] == expected
