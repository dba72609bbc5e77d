"""PLACEHOLDER until the facets issue lands: gives papers their topic and hardware labels."""

from __future__ import annotations

from collections.abc import Iterable

from index.models import Paper
from index.taxonomy import Taxonomy


def tag_paper(paper: Paper, taxonomy: Taxonomy) -> Paper:
    return paper


def tag_papers(papers: Iterable[Paper], taxonomy: Taxonomy) -> tuple[Paper, ...]:
    return tuple(tag_paper(paper, taxonomy) for paper in papers)
