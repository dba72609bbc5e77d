"""Duplicate detection at scale: the indexed candidate search finds what all pairs find.

`dedupe` only scores a text against earlier texts sharing enough rare shingles (or, for a
short text, the same opening words). These tests generate libraries full of the cases that
matter (truncated openings, lightly and heavily edited copies, spliced halves, very short
and empty abstracts, stock phrases shared by everyone) and check the result against
scoring every pair.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

import pytest

from index.library.dedupe import (
    _COMMON_SHINGLE,
    MERGE_AT,
    RELATE_AT,
    SHINGLE,
    _score,
    _scored_pairs,
    _Texts,
    dedupe,
    pause_merging,
    resume_merging,
    similarity,
)
from index.library.evidence import is_placeholder
from index.library.normalize import words
from index.models import Paper, replace

_STOCK = "in this paper we propose a novel approach that".split()


def _library(size: int, seed: int, stock: bool = False) -> list[Paper]:
    rng = random.Random(seed)
    # A skewed vocabulary (a few common words, a long tail) like real abstracts, and with
    # `stock` a stock opening held by half the texts, beyond the rare-shingle limit.
    vocabulary = [f"w{n}" for n in range(20_000)]
    weights = [1 / (rank + 10) for rank in range(len(vocabulary))]

    def abstract() -> list[str]:
        body = rng.choices(vocabulary, weights, k=rng.randint(60, 160))
        return (_STOCK if stock and rng.random() < 0.5 else []) + body

    texts: list[list[str]] = []
    for _ in range(size):
        kind = rng.random()
        if not texts or kind < 0.55:
            texts.append(abstract())
            continue
        base = list(rng.choice(texts)) or abstract()
        if kind < 0.62:  # a truncated opening, sometimes very short
            texts.append(base[: rng.choice([1, 2, 3, 5, 9, 10, 11, 20, 40])])
        elif kind < 0.72:  # a lightly or heavily edited copy
            for _ in range(rng.randint(1, max(1, len(base) // 2))):
                base[rng.randrange(len(base))] = rng.choice(vocabulary)
            texts.append(base)
        elif kind < 0.80:  # half of one paper, half of another (a related version)
            other = rng.choice(texts)
            texts.append(base[: len(base) // 2] + other[len(other) // 2 :])
        elif kind < 0.85:
            texts.append([])
        elif kind < 0.90:  # a short text that shares words but is no prefix
            texts.append(rng.sample(base, min(len(base), 10)) if base else [])
        else:
            texts.append(abstract())
    return [
        Paper(id=f"p{n}", title=f"Paper {n}", abstract=" ".join(words))
        for n, words in enumerate(texts)
    ]


def test_the_generated_library_exercises_the_limits() -> None:
    papers = _library(400, 1, stock=True)
    lengths = [len(p.abstract.split()) for p in papers]
    assert sum(1 for p in papers if p.abstract.startswith(" ".join(_STOCK))) > 64
    assert {0, 1, 2, 10} <= set(lengths)


def _brute_force(papers: list[Paper]) -> list[tuple[int, int, float]]:
    """Every pair scored, with the same score as `similarity` (texts prepared once);
    placeholder and very short abstracts are no evidence, as in `dedupe`."""
    texts = _Texts()
    grams = [
        texts.add("" if is_placeholder(paper.abstract) else paper.abstract) for paper in papers
    ]
    return [
        (i, j, score)
        for i in range(len(papers))
        for j in range(i)
        if (score := _score(texts.ids[i], grams[i], texts.ids[j], grams[j])) >= RELATE_AT
    ]


def test_the_prepared_score_is_similarity() -> None:
    papers = _library(60, 5)
    texts = _Texts()
    grams = [texts.add(paper.abstract) for paper in papers]
    for i in range(len(papers)):
        for j in range(i):
            assert _score(texts.ids[i], grams[i], texts.ids[j], None) == similarity(
                papers[i].abstract, papers[j].abstract
            )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_indexed_pairs_equal_all_pairs(seed: int) -> None:
    papers = _library(400, seed)
    found = list(_scored_pairs(papers))
    expected = _brute_force(papers)
    assert found == expected
    assert any(score >= MERGE_AT for _, _, score in expected)  # the cases really occur
    assert any(score < MERGE_AT for _, _, score in expected)


def test_a_stock_phrase_alone_relates_nothing() -> None:
    """Shingles half the library holds ("in this paper we propose") are not evidence.

    All-pairs scoring would relate a 20-word opening to every paper that starts with the
    same stock phrase. The index ignores shingles held by more than `_COMMON_SHINGLE`
    texts, so every pair it misses shares too few of the other, rarer shingles.
    """
    papers = _library(400, 1, stock=True)
    found = set(_scored_pairs(papers))
    expected = set(_brute_force(papers))
    assert found <= expected and expected - found
    shingles = [_shingles(p.abstract) for p in papers]
    holders = Counter(gram for grams in shingles for gram in grams)
    for i, j, _ in expected - found:
        rare = {g for g in shingles[i] & shingles[j] if holders[g] <= _COMMON_SHINGLE}
        assert len(rare) < RELATE_AT / 2 * min(len(shingles[i]), len(shingles[j]))
    assert any(score >= MERGE_AT for _, _, score in found)


def _shingles(text: str) -> set[tuple[str, ...]]:
    tokens = words(text)
    return {tuple(tokens[k : k + SHINGLE]) for k in range(len(tokens) - SHINGLE + 1)}


def test_merges_and_links_follow_the_pairs() -> None:
    # Text-only records (inferred titles): the texts alone decide, as for abstract lists.
    papers = [replace(p, title_inferred=True) for p in _library(300, 7)]
    merged, links, _ = dedupe(papers)
    parent = list(range(len(papers)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j, score in _brute_force(papers):
        if score >= MERGE_AT:
            parent[find(i)] = find(j)
    groups = {find(i) for i in range(len(papers))}
    assert len(merged) == len(groups) < len(papers)
    assert links and all(a < b < len(merged) for a, b in links)


def test_empty_abstracts_never_merge_and_stay_cheap() -> None:
    papers = [Paper(id=f"e{n}", title=f"Entry {n}") for n in range(20_000)]
    merged, links, _ = dedupe(papers)  # was quadratic: every empty text scanned all others
    assert len(merged) == 20_000 and links == []


def test_a_paused_merge_waits_and_resumed_gives_the_same_result() -> None:
    """`pause_merging` (an app exiting after handing its start off) stops a merge under
    way at its next few texts, holding nothing; resumed, it ends as if never paused."""
    papers = _library(600, 3)
    expected = dedupe(papers)
    out: list[Any] = []
    pause_merging()
    try:
        merging = threading.Thread(target=lambda: out.append(dedupe(papers)), daemon=True)
        merging.start()
        merging.join(0.5)
        assert merging.is_alive() and not out  # waiting, not merging
    finally:
        resume_merging()
    merging.join(60)
    assert out == [expected]
