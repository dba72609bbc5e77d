"""The papers a big first load shows before it has merged its duplicates.

Dedupe is most of a first load (20,000 papers: ~8 s of ~12 s), and before it nothing is
searchable. The load hands its caller an even sample of the parsed records (tagged, with
their final ids) before dedupe starts; the app indexes it and serves "results so far".

A record in the sample must be named what the finished library names it, so only records
whose id is settled before dedupe are taken:

- its raw id (an arXiv id, a BibTeX key, a curated id) is one no other record has: the
  pipeline then gives that id to that record's paper and to no other, even when dedupe
  merges the record into another one (`settled_ids`, applied by `_assign_ids`);
- its citation key as the record alone would have it is one no other record would have.
  Dedupe may still change it: a record merged with one that has a BibTeX key of its own
  takes that key. A copy made from the sample therefore waits for the finished library
  (the app's `tui.first_start.FirstStart.as_loaded`); searching and reading do not.

A record without an id of its own (a text file's paragraph) gets a slug that depends on
the others, and is left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from index.citations.keys import base_key
from index.facets.tagger import tag_papers
from index.facets.taxonomy import Taxonomy
from index.library.ids import slugify
from index.models import Paper, replace

__all__ = [
    "SAMPLE_LIKELY_BYTES",
    "SAMPLE_MIN_PAPERS",
    "SAMPLE_PAPERS",
    "Sample",
    "SampleAhead",
    "early_sample",
    "even_spread",
    "raw_ids",
    "settled_ids",
]

# What a load tells the early sample to (`index.library.load.load_library`'s `sample`),
# and what it tells ahead, while the files are read (`sample_ahead`).
Sample = Callable[[list[Paper]], None]
SampleAhead = Callable[[], None]
T = TypeVar("T")

# The first rows of a big first start wait for this many to be indexed (~1 ms each in a
# build process: the real exports' 1,000 took 1.1 s, 400 take 0.55 s).
SAMPLE_PAPERS = 400
# Smaller loads are done in a second or two: no sample. A library of a few thousand papers
# (most researchers' own) waited for its whole index before its first rows: 3,670 papers
# (a Better BibTeX export) ~10 s, against ~2 s for its files to be read (issue 50).
SAMPLE_MIN_PAPERS = 1000
# Files to parse this big may hold SAMPLE_MIN_PAPERS (real BibTeX exports: ~570 bytes a
# record) and are told ahead (`SampleAhead`); a sample that does not come then costs the
# caller what it started for nothing (the app: an idle interpreter, ~0.1 s of CPU).
SAMPLE_LIKELY_BYTES = 500_000


def raw_ids(papers: Sequence[Paper]) -> list[str]:
    """Each record's raw id as an id (slugified; "" for none), computed once per load:
    ~3 µs a record, which `settled_ids` and `early_sample` both need."""
    return [slugify(paper.id) for paper in papers]


def settled_ids(ids: Sequence[str]) -> set[str]:
    """The raw ids (`raw_ids`) that exactly one record has."""
    counts = Counter(ids)
    counts.pop("", None)
    return {slug for slug, count in counts.items() if count == 1}


def early_sample(
    papers: Sequence[Paper], ids: Sequence[str], settled: set[str], taxonomy: Taxonomy
) -> list[Paper]:
    """An even spread of up to `SAMPLE_PAPERS` of the records whose ids are settled
    (`ids`: their `raw_ids`), tagged and named as the finished library names them; [] for
    a small load."""
    if len(papers) < SAMPLE_MIN_PAPERS:
        return []
    keys = [base_key(paper) for paper in papers]  # once each: ~4 µs a paper
    shared = Counter(keys)
    eligible = [
        (paper, slug)
        for paper, slug, key in zip(papers, ids, keys)
        if slug in settled and shared[key] == 1
    ]
    chosen = even_spread(eligible, SAMPLE_PAPERS)
    return list(tag_papers([replace(paper, id=slug) for paper, slug in chosen], taxonomy))


def even_spread(items: Sequence[T], count: int) -> list[T]:
    """`count` of `items` spread evenly over them, in order (all of them if no more): a
    sample that shows every part of a library, not its first file. The preview of a
    first index build (`index.store.preview`) takes its sample the same way."""
    total = len(items)
    if total <= count:
        return list(items)
    return [items[i * total // count] for i in range(count)]
