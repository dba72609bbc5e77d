"""Every way `top_counts` counts gives what counting each document gives."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from index.search import bitsets, counting
from index.search.bitsets import LIST_FACETS, FacetMasks, bits, mask_of
from index.search.counting import top_counts

SIZE = 400


def columns(
    rng: random.Random, twice: bool = True
) -> tuple[list[str], dict[str, list[tuple[str, ...]]]]:
    """Skewed venues (some papers without one) and author lists, with `twice` a name
    sometimes twice on one paper (a real .bib has two "Wei Wang"s); no keyword or
    category anywhere."""
    venues = [
        rng.choice(["", "OSDI", "SOSP", "MLSys", "ATC", "NSDI"][: rng.randint(1, 6)])
        for _ in range(SIZE)
    ]
    names = [f"Author {n:03d}" for n in range(120)]
    authors = []
    for _ in range(SIZE):
        chosen = [names[min(int(rng.expovariate(0.05)), 119)] for _ in range(rng.randint(0, 5))]
        authors.append(tuple(chosen if twice else dict.fromkeys(chosen)))
    return venues, {"author": authors, "keyword": [()] * SIZE, "category": [()] * SIZE}


def facet_state(
    venues: list[str], lists: dict[str, list[tuple[str, ...]]], size: int = SIZE
) -> FacetMasks:
    """The masks as the build makes them: the `TOP_MASKS` most frequent values of each
    large facet (index.search.facet_build), over the columns."""
    venue_lists: list[tuple[str, ...]] = [(v,) if v else () for v in venues]
    documents = {"venue": venue_lists, **lists}
    masks: dict[str, dict[str, int]] = {"topic": {}, "hardware": {}, "year": {}}
    for facet, column in documents.items():
        counted = Counter(value for values in column for value in values)
        top = sorted(counted.items(), key=lambda item: (-item[1], item[0]))[: bitsets.TOP_MASKS]
        masks[facet] = {
            value: mask_of([d for d, values in enumerate(column) if value in values], size)
            for value, _ in top
        }
    return FacetMasks.restored(
        {
            "size": size,
            "live": (1 << size) - 1,
            "ids": [f"p{d}" for d in range(size)],
            "venues": venues,
            "lists": lists,
            "masks": masks,
            "year_of": [0] * size,
            "titles": [""] * size,
            "order_title": list(range(size)),
            "order_year": list(range(size)),
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
    for twice in (True, False, False):
        venues, lists = columns(rng, twice)
        masks = facet_state(venues, lists)
        for _ in range(25):
            share = rng.choice([0.0, 0.01, 0.1, 0.5, 1.0])
            within = mask_of([d for d in range(SIZE) if rng.random() < share], SIZE)
            for facet in ("venue", *LIST_FACETS):
                for limit in (1, 3, 15, 500):
                    expected = as_before(masks, facet, within, limit)
                    assert top_counts(masks, facet, within, limit) == expected, (facet, limit)


def test_the_cheap_paths_leave_the_columns_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small match set's venues are one `&` per value, and a large enough one's top
    authors too when no other name can reach them: the match set is never walked."""
    walked: list[int] = []

    def walking(mask: int) -> list[int]:
        walked.append(mask)
        return bits(mask)

    monkeypatch.setattr(counting, "bits", walking)
    venues, lists = columns(random.Random(1), twice=False)
    masks = facet_state(venues, lists)
    masks.venues = []  # a venue count that read the column would fail
    within = mask_of(range(0, SIZE, 7), SIZE)
    top, more = top_counts(masks, "venue", within, 15)
    assert sum(count for _, count in top) == sum(1 for d in range(0, SIZE, 7) if venues[d])
    assert not more and not walked
    everything = masks.live
    authors, more = top_counts(masks, "author", everything, 3)
    expected = Counter(name for names in lists["author"] for name in names)
    assert authors == sorted(expected.items(), key=lambda item: (-item[1], item[0]))[:3]
    assert more and not walked
    # A name twice on one paper: only the columns count it as the panel always has.
    lists["author"][0] = (*lists["author"][0], "Author 000", "Author 000")
    masks = facet_state(venues, lists)
    assert top_counts(masks, "author", everything, 3) == as_before(masks, "author", everything, 3)
    assert walked == [everything]


def test_a_name_without_a_mask_is_never_outranked_by_the_masked_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four masks (A on 10 papers, B 8, C 7, D 6) and E on 6 papers without one: when a
    search leaves C and D on fewer papers than E is on, or leaves only A and B, the top
    list and its 'more' flag are the columns' own."""
    monkeypatch.setattr(bitsets, "TOP_MASKS", 4)
    authors: list[tuple[str, ...]] = []
    for name, papers in (("A", 10), ("B", 8), ("C", 7), ("D", 6), ("E", 6)):
        authors += [(name,)] * papers
    size = len(authors)
    nothing: list[tuple[str, ...]] = [()] * size
    lists = {"author": authors, "keyword": nothing, "category": nothing}
    masks = facet_state([""] * size, lists, size)
    assert set(masks.masks["author"]) == {"A", "B", "C", "D"}

    def papers_of(name: str) -> list[int]:
        return [d for d, names in enumerate(authors) if names == (name,)]

    fewer_c_d = masks.live & ~mask_of(papers_of("C")[:3] + papers_of("D")[:2], size)
    only_a_b = mask_of(papers_of("A") + papers_of("B"), size)
    for within in (fewer_c_d, only_a_b, masks.live):
        for limit in (1, 2, 3):
            expected = as_before(masks, "author", within, limit)
            assert top_counts(masks, "author", within, limit) == expected, (within, limit)
    assert top_counts(masks, "author", fewer_c_d, 3) == ([("A", 10), ("B", 8), ("E", 6)], True)
    assert top_counts(masks, "author", only_a_b, 2) == ([("A", 10), ("B", 8)], False)
