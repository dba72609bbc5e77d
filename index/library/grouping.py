"""The groups `dedupe` builds: union-find that refuses a merge it cannot justify.

Kept apart from the text scoring in `dedupe` because this is where the rules of
`index.library.evidence` are applied to whole groups: a merge made through a third record
(A like T, T like B) must not join two records that could never be joined directly.
"""

from __future__ import annotations

from collections.abc import Sequence

from index.library.evidence import (
    arxiv_key,
    doi_key,
    has_real_title,
    titles_agree,
    titles_clearly_differ,
)
from index.models import Paper

__all__ = ["MergeGroups"]


class MergeGroups:
    """Union-find over the papers that refuses a merge it cannot justify.

    Each group remembers its curated ids, its DOI and arXiv id, and its first member with a
    real title; two groups whose curated ids, DOIs or arXiv ids differ, or whose titles do
    not fit the kind of evidence, stay apart and are linked as related instead.
    """

    def __init__(self, papers: Sequence[Paper], pinned: Sequence[bool]) -> None:
        self.papers = papers
        self.parent = list(range(len(papers)))
        self.curated = [{p.id} if pinned[i] else set() for i, p in enumerate(papers)]
        self.dois = [doi_key(p.doi) for p in papers]
        self.arxivs = [arxiv_key(p.arxiv) for p in papers]
        # A group's first member with a real title, -1 for none; None until asked (most
        # papers never meet another, and telling costs a tokenising of the title).
        self._titled: list[int | None] = [None] * len(papers)
        self.related: list[tuple[int, int]] = []
        self.reasons: list[tuple[int, str]] = []  # (a member, why its group merged)

    def find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _titled_member(self, root: int) -> int:
        titled = self._titled[root]
        if titled is None:  # a group of one so far
            titled = self._titled[root] = root if has_real_title(self.papers[root]) else -1
        return titled

    def _conflict(self, a: int, b: int, by_text: bool) -> bool:
        if len(self.curated[a] | self.curated[b]) > 1:
            return True
        for values in (self.dois, self.arxivs):
            if values[a] and values[b] and values[a] != values[b]:
                return True
        first, second = self._titled_member(a), self._titled_member(b)
        if first < 0 or second < 0:
            return False
        one, other = self.papers[first], self.papers[second]
        return not titles_agree(one, other) if by_text else titles_clearly_differ(one, other)

    def union(self, i: int, j: int, why: str, by_text: bool) -> None:
        """Merge the groups of `i` and `j` for reason `why`, or link them when they conflict."""
        a, b = self.find(i), self.find(j)
        if a == b:
            return
        if self._conflict(a, b, by_text):
            self.related.append((j, i))
            return
        self.parent[a] = b
        self.curated[b] |= self.curated[a]
        for values in (self.dois, self.arxivs):
            values[b] = values[b] or values[a]
        if self._titled_member(b) < 0:
            self._titled[b] = self._titled_member(a)
        first, second = self.papers[j].sources, self.papers[i].sources
        where = f"{first[0]} and {second[0]}" if first and second else "two records"
        self.reasons.append((i, f"{where}: {why}"))
