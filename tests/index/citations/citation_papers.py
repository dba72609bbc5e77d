"""Five bundled-like papers, built from the curated facts in `seed_metadata.json`.

Each covers one case the style guides treat differently: a conference paper, a journal
article (29 authors, an article number), an arXiv preprint, an author list known to be
incomplete, and a paper whose title is not known. The venue strings in the seed file are
free text; the split into booktitle/journal/pages is written out here, as the loader does.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from index.models import Paper, replace

SEED = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "seed_metadata.json"


@lru_cache(maxsize=1)
def seed() -> dict[str, dict[str, Any]]:
    return {record["id"]: record for record in json.loads(SEED.read_text(encoding="utf-8"))}


def from_seed(paper_id: str, **venue: Any) -> Paper:
    """A paper with the seed's title, authors, year and identifiers, and the given venue."""
    record = seed()[paper_id]
    return Paper(
        id=paper_id,
        title=record["title"],
        short_name=record["short_name"],
        authors=tuple(record["authors"] or ()),
        year=record["year"],
        doi=record["doi"],
        arxiv=record["arxiv"],
        url=record["url"],
        **venue,
    )


def dynapipe() -> Paper:
    """Conference paper: EuroSys '24, pp. 542-559, with a DOI, an arXiv id and a code URL."""
    return from_seed(
        "dynapipe",
        entry_type="inproceedings",
        booktitle="Proceedings of the Nineteenth European Conference on Computer Systems",
        pages="542-559",
        publisher="ACM",
    )


def bids_apps() -> Paper:
    """Journal article: PLOS Computational Biology 13(3): e1005209, 29 authors."""
    return from_seed(
        "bids-apps",
        entry_type="article",
        journal="PLOS Computational Biology",
        volume="13",
        number="3",
        pages="e1005209",
        publisher="Public Library of Science",
    )


def sam_med() -> Paper:
    """arXiv preprint, with a `^` in its title."""
    return from_seed("sam-med", venue="arXiv preprint")


def hawq_v3_from_author_line() -> Paper:
    """HAWQ-V3 as the plain-text corpus alone knows it: "Zhewei Yao, Zhen Dong, Zhangcheng
    Zheng et al." is an author line cut after three names."""
    record = seed()["hawq-v3"]
    names = record["author_line"].removesuffix(" et al.").split(", ")
    paper = from_seed(
        "hawq-v3",
        entry_type="inproceedings",
        booktitle="Proceedings of the 38th International Conference on Machine Learning",
        publisher="PMLR",
        authors_complete=False,
    )
    return replace(paper, authors=tuple(names))


def rt_fcma() -> Paper:
    """No known title, authors, venue or year (003:23): the title is derived from the text."""
    record = seed()["rt-fcma"]
    assert record["title"] is None and record["authors"] is None and record["year"] is None
    return Paper(
        id="rt-fcma",
        title="Real-time full correlation matrix analysis (FCMA) for rtfMRI",
        title_inferred=True,
        short_name=record["short_name"],
        authors_complete=False,
    )


def five() -> list[Paper]:
    return [dynapipe(), bids_apps(), sam_med(), hawq_v3_from_author_line(), rt_fcma()]
