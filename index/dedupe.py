"""One paper, several texts: merging duplicates and linking related versions.

Users collect abstracts from many places, so the same paper arrives as an arXiv copy with
LaTeX, a publisher copy with Unicode, a truncated opening pasted from a listing, or a
lightly reworded camera-ready version. Those become one `Paper` that lists every source.
A genuinely different paper on the same work (a journal extension, a follow-up) shares
some sentences but far fewer; it stays separate and is linked through `Paper.related`.

The rule only looks at the texts: word 3-shingles of the folded abstract (`normalize.words`)
and how much of the shorter text's shingles the longer one contains. Containment rather
than Jaccard, because a truncated opening is entirely contained in the full abstract while
being a small fraction of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from index.models import Paper, replace
from index.normalize import words

__all__ = ["MERGE_AT", "RELATE_AT", "similarity", "merge_group", "dedupe"]

SHINGLE = 3
# Shared fraction of the shorter text's shingles at which two texts are one paper. On the
# bundled corpus, same-paper pairs score 0.72 and up, distinct papers 0.28 and below.
MERGE_AT = 0.6
# ...and at which two distinct texts are probably versions of each other (linked).
RELATE_AT = 0.2
_MIN_SHINGLES = 8  # below this, only an exact or prefix match counts
# A shingle shared by this many texts ("in this paper") says nothing about sameness and
# would make candidate search quadratic, so it is not used to find candidates.
_COMMON_SHINGLE = 64


@dataclass(frozen=True)
class _Text:
    words: tuple[str, ...]
    shingles: frozenset[tuple[str, ...]]


def _prepare(abstract: str) -> _Text:
    tokens = tuple(words(abstract))
    grams = frozenset(tokens[i : i + SHINGLE] for i in range(len(tokens) - SHINGLE + 1))
    return _Text(tokens, grams)


def _score(a: _Text, b: _Text) -> float:
    if not a.words or not b.words:
        return 0.0
    short, long = (a, b) if len(a.words) <= len(b.words) else (b, a)
    if long.words[: len(short.words)] == short.words:
        return 1.0  # a truncated opening, however short
    if len(short.shingles) < _MIN_SHINGLES:
        return 0.0
    return len(short.shingles & long.shingles) / len(short.shingles)


def similarity(first: str, second: str) -> float:
    """How much of the shorter abstract the longer one contains, from 0 to 1."""
    return _score(_prepare(first), _prepare(second))


def merge_group(papers: Sequence[Paper]) -> Paper:
    """Several records of one paper -> one, keeping every source and every known fact.

    The first record wins for each field it knows, except the abstract: a text that is
    much shorter than another (a truncated opening) gives way to the longer one. Curated
    or bibliographic records (real titles) are preferred over text-only ones.
    """
    ordered = sorted(papers, key=lambda p: p.title_inferred)  # stable: real titles first
    merged = ordered[0]
    longest = max((p.abstract for p in papers), key=len)
    abstract = next((p.abstract for p in papers if p.abstract), "")
    if len(abstract) < 0.8 * len(longest):
        abstract = longest
    updates: dict[str, object] = {"abstract": abstract}
    for paper in ordered[1:]:
        for name in ("short_name", "year", "month", "venue", "booktitle", "journal", "volume",
                     "number", "pages", "publisher", "doi", "arxiv", "url", "citation_key",
                     "note"):
            if updates.get(name, getattr(merged, name)) is None and getattr(paper, name):
                updates[name] = getattr(paper, name)
        if not merged.authors and paper.authors and "authors" not in updates:
            updates["authors"] = paper.authors
            updates["authors_complete"] = paper.authors_complete
    sources = []
    for paper in papers:
        sources += [s for s in paper.sources if s not in sources]
    keywords = []
    related = []
    for paper in ordered:
        keywords += [k for k in paper.keywords if k not in keywords]
        related += [r for r in paper.related if r not in related]
    updates.update(sources=tuple(sources), keywords=tuple(keywords), related=tuple(related))
    return replace(merged, **updates)  # type: ignore[arg-type]


def dedupe(
    papers: Sequence[Paper], pinned: Sequence[bool] | None = None
) -> tuple[list[Paper], list[tuple[int, int]], list[bool]]:
    """Merge near-duplicate papers; return them, the pairs to link, and which are pinned.

    Papers are grouped transitively (union-find) when their abstracts score at least
    `MERGE_AT`, or when they share a DOI or arXiv id; pairs scoring at least `RELATE_AT`
    are reported as related. Two *pinned* papers (curated ids from a sidecar) with
    different ids are never merged: the curator said they are distinct, so they are
    linked instead.

    Args:
        papers: the loaded papers, in load order.
        pinned: for each paper, whether its id is curated.

    Returns:
        the merged papers in first-seen order, index pairs `(i, j)` into that list to
        link, and for each merged paper whether its id is curated.
    """
    pinned = list(pinned) if pinned is not None else [False] * len(papers)
    texts = [_prepare(p.abstract) for p in papers]
    parent = list(range(len(papers)))
    curated: dict[int, set[str]] = {i: {p.id} if pinned[i] else set() for i, p in enumerate(papers)}
    related_pairs: list[tuple[int, int]] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a == b:
            return
        if len(curated[a] | curated[b]) > 1:
            related_pairs.append((j, i))
            return
        parent[a] = b
        curated[b] |= curated.pop(a)

    # Index shingles so each text is only compared with texts it shares something with.
    owners: dict[tuple[str, ...], list[int]] = {}
    for i, text in enumerate(texts):
        shared: Counter[int] = Counter()
        for gram in text.shingles:
            holders = owners.get(gram, ())
            if len(holders) <= _COMMON_SHINGLE:
                shared.update(holders)
        # Only texts sharing enough rare shingles can reach RELATE_AT; score just those.
        candidates = {j for j, count in shared.items()
                      if count >= RELATE_AT / 2 * min(len(text.shingles), len(texts[j].shingles))}
        if len(text.words) < SHINGLE + _MIN_SHINGLES:
            candidates.update(j for j in range(i) if texts[j].words)
        for j in sorted(candidates):
            score = _score(texts[i], texts[j])
            if score >= MERGE_AT:
                union(i, j)
            elif score >= RELATE_AT:
                related_pairs.append((j, i))
        for gram in text.shingles:
            owners.setdefault(gram, []).append(i)
    for name in ("doi", "arxiv"):
        first_with: dict[str, int] = {}
        for i, paper in enumerate(papers):
            value = (getattr(paper, name) or "").strip().lower()
            if value:
                union(i, first_with.setdefault(value, i))

    groups: dict[int, list[int]] = {}
    for i in range(len(papers)):
        groups.setdefault(find(i), []).append(i)
    order = sorted(groups.values(), key=lambda members: members[0])
    position = {i: n for n, members in enumerate(order) for i in members}
    merged = [
        _keep_curated_id(merge_group([papers[i] for i in members]),
                         [papers[i] for i in members if pinned[i]])
        for members in order
    ]
    links = sorted({(min(position[a], position[b]), max(position[a], position[b]))
                    for a, b in related_pairs if position[a] != position[b]})
    return merged, links, [any(pinned[i] for i in members) for members in order]


def _keep_curated_id(merged: Paper, pinned: list[Paper]) -> Paper:
    """A group holding a curated paper keeps the curated id, whoever supplied the title."""
    return replace(merged, id=pinned[0].id) if pinned else merged
