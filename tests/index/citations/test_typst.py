"""Typst itself reads what paperscope writes: the Hayagriva file and the `typst` key format.

The `typst` package on PyPI bundles the Typst compiler, so this is the real parser and
Hayagriva, not our reading of their documentation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from index.citations import citation_keys, format_citation
from index.citations.hayagriva import hayagriva_yaml
from index.models import Paper
from tests.index.citations.citation_papers import five
from tests.index.citations.test_hayagriva import CHAPTER, EDITED, INSTITUTION, UNTITLED

typst = pytest.importorskip("typst")

ODD_KEYS = [
    Paper(
        id="odd1",
        title="Odd $key$ {one}",
        authors=("Ann Bee",),
        year=2020,
        citation_key="smith2020.",
    ),
    Paper(id="odd2", title="Slash", authors=("Cy Dee",), year=2021, citation_key="a/b"),
    Paper(id="odd3", title="Colon", authors=("Cy Dee",), year=2022, citation_key="x:y-z_w"),
]


@pytest.mark.parametrize("style", ["ieee", "apa"])
def test_typst_compiles_a_document_citing_every_paper_from_the_hayagriva_file(
    tmp_path: Path, style: str
) -> None:
    papers = [*five(), INSTITUTION, UNTITLED, CHAPTER, EDITED, *ODD_KEYS]
    keys = citation_keys(papers)
    (tmp_path / "refs.yml").write_text(hayagriva_yaml(papers, keys), encoding="utf-8")
    citations = format_citation(papers, "typst", keys=keys)
    assert '#cite(label("smith2020."))' in citations and "@x:y-z_w" in citations
    document = tmp_path / "paper.typ"
    document.write_text(
        f'{citations}\n\n#bibliography("refs.yml", style: "{style}")\n', encoding="utf-8"
    )
    pdf = typst.compile(str(document))  # raises on a YAML, Hayagriva or label error
    assert pdf.startswith(b"%PDF")
