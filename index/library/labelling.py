"""The topic and hardware labels of one load's papers, each computed at most once.

Tagging is deterministic in what `tag_digest` covers, so a label is looked for first in
the last load's labels (the library cache), then among the papers tagged *ahead*: with
workers, the parsed papers are sent to be tagged before dedupe, which runs meanwhile in
this process (20,000 papers: ~10 s of dedupe, ~15 s of tagging on one core). A paper
dedupe left as it was finds its labels there by digest; a merged or curated one, whose
text changed, is tagged afterwards. Identical texts are tagged once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from index.library.cache import Tags, tag_digest
from index.library.parallel import LoadPool
from index.models import Paper, replace

__all__ = ["TAG_PROGRESS_EVERY", "Labelling"]

TAG_PROGRESS_EVERY = 1000
Progress = Callable[[str, int, int], None]  # `index.library.load.LoadProgress`


class Labelling:
    """Labels for one load: `start` before dedupe, `finish` on the deduplicated papers."""

    def __init__(self, pool: LoadPool, known: dict[bytes, Tags], progress: Progress) -> None:
        self._pool = pool
        self._known = known  # the last load's labels by digest
        self._progress = progress
        self._ahead: Iterator[Tags] | None = None
        self._ahead_digests: list[bytes] = []
        self.digests: list[bytes] = []  # the finished papers' digests, for the cache

    def start(self, papers: Sequence[Paper]) -> None:
        """Sends the papers whose labels are not known to the workers, if worth it."""
        if not self._pool.sends(len(papers)):
            return  # too few even if none is known: no digests to compute
        fresh: dict[bytes, Paper] = {}
        for paper in papers:
            digest = tag_digest(paper)
            if digest not in self._known:
                fresh.setdefault(digest, paper)
        self._ahead = self._pool.tag_ahead(list(fresh.values()))
        if self._ahead is not None:
            self._ahead_digests = list(fresh)

    def finish(self, papers: list[Paper], digests: bool) -> list[Paper]:
        """The papers with their labels; `digests`: keep theirs in `self.digests`.

        `progress` hears ("tagging", done, total) every `TAG_PROGRESS_EVERY` papers and at
        the end, counting the papers whose labels are in hand.
        """
        if digests or self._known or self._ahead is not None:
            self.digests = [tag_digest(paper) for paper in papers]
        labels = [self._known.get(d) for d in self.digests] or [None] * len(papers)
        self._known = {}  # freed before the library cache is written
        count = _Count(self._progress, len(papers))
        count.start(sum(tags is not None for tags in labels))
        if self._ahead is not None:
            needed = Counter(d for d, tags in zip(self.digests, labels) if tags is None)
            early: dict[bytes, Tags] = {}
            for digest, tags in zip(self._ahead_digests, self._ahead):
                early[digest] = tags
                count.add(needed.pop(digest, 0))
            labels = [
                tags if tags is not None else early.get(digest)
                for tags, digest in zip(labels, self.digests)
            ]
        missing = [i for i, tags in enumerate(labels) if tags is None]
        for i, tags in zip(missing, self._pool.tag([papers[i] for i in missing])):
            labels[i] = tags
            count.add(1)
        return [
            replace(paper, topics=tags[0], hardware=tags[1])
            for paper, tags in zip(papers, labels)
            if tags is not None
        ]


class _Count:
    """Tells `progress` how many papers have labels, every so many and at the end."""

    def __init__(self, progress: Progress, total: int) -> None:
        self._progress = progress
        self.total = total
        self.done = 0

    def start(self, done: int) -> None:
        self.done = done
        if done or not self.total:
            self._progress("tagging", done, self.total)

    def add(self, n: int) -> None:
        if not n:
            return
        before, self.done = self.done, self.done + n
        if self.done // TAG_PROGRESS_EVERY > before // TAG_PROGRESS_EVERY or (
            self.done == self.total
        ):
            self._progress("tagging", self.done, self.total)
