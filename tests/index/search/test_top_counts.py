"""Every way `FacetMasks.top_counts` counts gives what counting each document gives."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from index.search import bitsets
from index.search.bitsets import LIST_FACETS, FacetMasks, bits, mask_of

SIZE = 400


def columns(rng: random.Random) -> tuple[list[str], dict[str, list[tuple[str, ...]]]]:
    """Skewed venues (some papers without one) and author lists, a name sometimes twice
    on one paper (a real .bib has two "Wei Wang"s); no keyword or category anywhere."""
    venues = [
        rng.choice(["", "OSDI", "SOSP", "MLSys", "ATC", "NSDI"][: rng.randint(1, 6)])
        for _ in range(SIZE)
    ]
    names = [f"Author {n:03d}" for n in range(120)]
    authors = []
    for _ in range(SIZE):
        chosen = [names[min(int(rng.expovariate(0.05)), 119)] for _ in range(rng.randint(0, 5))]
        authors.append(tuple(chosen))
    return venues, {"author": authors, "keyword": [()] * SIZE, "category": [()] * SIZE}


def facet_state(venues: list[str], lists: dict[str, list[tuple[str, ...]]]) -> FacetMasks:
    """The masks as the build makes them: the `TOP_MASKS` most frequent values of each
    large facet (index.search.facet_build), over the columns."""
    documents = {"venue": [(v,) if v else () for v in venues], **lists}
    masks: dict[str, dict[str, int]] = {"topic": {}, "hardware": {}, "year": {}}
    for facet, column in documents.items():
        counted = Counter(value for values in column for value in values)
        top = sorted(counted.items(), key=lambda item: (-item[1], item[0]))[: bitsets.TOP_MASKS]
        masks[facet] = {
            value: mask_of([d for d, values in enumerate(column) if value in values], SIZE)
            for value, _ in top
        }
    return FacetMasks.restored(
        {
            "size": SIZE,
            "live": (1 << SIZE) - 1,
            "ids": [f"p{d}" for d in range(SIZE)],
            "venues": venues,
            "lists": lists,
            "masks": masks,
            "year_of": [0] * SIZE,
            "titles": [""] * SIZE,
            "order_title": list(range(SIZE)),
            "order_year": list(range(SIZE)),
        }
    )


def as_before(
    masks: FacetMasks, facet: str, within: int, limit: int
) -> tuple[list[tuple[str, int]], bool]:
    """`top_counts` as it was before issue 50: the reference the paths must equal."""
    total = within.bit_count()
    if total == 0:
        return [], False
    facet_masks = masks.masks[facet]
    every_value_masked = len(facet_masks) < bitsets.TOP_MASKS
    if total <= bitsets.EXACT_COUNT_LIMIT or (limit > len(facet_masks) and not every_value_masked):
        counter: Counter[str] = Counter()
        for docnum in bits(within):
            if facet in LIST_FACETS:
                counter.update(masks.lists[facet][docnum])
            else:
                counter[masks.venues[docnum]] += 1
        counter.pop("", None)
        ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
        return ranked[:limit], len(ranked) > limit
    counts = [(value, (mask & within).bit_count()) for value, mask in facet_masks.items()]
    ranked = sorted((c for c in counts if c[1]), key=lambda item: (-item[1], item[0]))
    return ranked[:limit], len(ranked) > limit or not every_value_masked


@pytest.mark.parametrize(("top_masks", "exact_limit"), [(256, 4000), (40, 100), (3, 0), (8, 50)])
def test_every_path_counts_as_before(
    monkeypatch: pytest.MonkeyPatch, top_masks: int, exact_limit: int
) -> None:
    """Venues by their masks (any size of match set), empty list facets not at all,
    authors by the columns or the masks: the same lists and the same 'more' flag."""
    monkeypatch.setattr(bitsets, "TOP_MASKS", top_masks)
    monkeypatch.setattr(bitsets, "EXACT_COUNT_LIMIT", exact_limit)
    rng = random.Random(top_masks)
    for _ in range(4):
        venues, lists = columns(rng)
        masks = facet_state(venues, lists)
        for _ in range(25):
            share = rng.choice([0.0, 0.01, 0.1, 0.5, 1.0])
            within = mask_of([d for d in range(SIZE) if rng.random() < share], SIZE)
            for facet in ("venue", *LIST_FACETS):
                for limit in (1, 3, 15, 500):
                    expected = as_before(masks, facet, within, limit)
                    assert masks.top_counts(facet, within, limit) == expected, (facet, limit)


def test_a_venue_counts_from_its_masks_and_authors_from_the_columns() -> None:
    """What makes the new paths cheap: a small match set's venues are one `&` per
    value (the columns are not read), its authors still counted per document."""
    venues, lists = columns(random.Random(1))
    masks = facet_state(venues, lists)
    within = mask_of(range(0, SIZE, 7), SIZE)
    masks.venues = []  # a venue count that read the column would fail
    top, more = masks.top_counts("venue", within, 15)
    assert sum(count for _, count in top) == sum(1 for d in range(0, SIZE, 7) if venues[d])
    assert not more
    authors, _ = masks.top_counts("author", within, 15)
    expected = Counter(name for d in range(0, SIZE, 7) for name in lists["author"][d])
    assert authors == sorted(expected.items(), key=lambda item: (-item[1], item[0]))[:15]
