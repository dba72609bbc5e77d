"""Inline math in titles and abstracts reads as text: CrO$_2$ is CrO₂, and is found by cro2."""

from __future__ import annotations

import pytest

from index.library.latex_context import make_converter
from index.models import Paper, SearchRequest
from index.search.engine import SearchEngine
from tests.index.search.small_engines import engine_on


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("Magnetism of CrO$_2$ films", "Magnetism of CrO₂ films"),
        ("H$_2$O and CO$_2$", "H₂O and CO₂"),
        ("$x_{12}^{n+1}$", "x₁₂ⁿ⁺¹"),
        ("$10^{-3}$ s", "10⁻³ s"),
        ("$1/F^2$ noise", "1/F² noise"),
        ("$\\mathbb{R}^n$", "ℝⁿ"),
        ("\\TeX{} and $\\alpha$-helices", "TeX and α-helices"),
        ("$\\mathrm{SAM^{Med}}$ and $\\mathrm{x_{ij}}$", "SAMᴹᵉᵈ and xᵢⱼ"),
        # A script Unicode has no form for keeps its marker, bracketed when longer than one
        # character, as pandoc's plain text writes it: never silently glued to its base.
        ("$T_c = 300$ K", "T_c = 300 K"),
        ("$T_{eff}$", "T_(eff)"),
        ("$\\alpha_{\\beta}$", "α_β"),
        # Text outside math is left alone: an escaped underscore is an underscore.
        ("snake\\_case x\\_1", "snake_case x_1"),
    ],
)
def test_inline_math_scripts_read_as_text(latex: str, text: str) -> None:
    assert make_converter().latex_to_text(latex) == text


PAPERS = [
    Paper(id="cro2", title="Magnetism of CrO₂ films", abstract="Spin in x² fields."),
    Paper(id="other", title="Magnetism of iron films", abstract="Spin."),
]
engine = engine_on(PAPERS, "math-scripts")


@pytest.mark.parametrize("query", ["cro2", "CrO₂", "cro₂", "x2"])
def test_a_script_is_found_by_its_plain_characters(engine: SearchEngine, query: str) -> None:
    result = engine.search(SearchRequest(query=query))
    assert [hit.paper.id for hit in result.hits] == ["cro2"]
