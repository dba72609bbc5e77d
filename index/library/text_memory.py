"""Dedupe's text pairs remembered between runs: a changed file is compared, not everything.

Scoring every abstract against a shingle index of all the others is most of a start after
one file changed (100,000 papers: ~30 s, issue 15), although nearly every text is the one
scored last time. Whether two texts are a pair, and their score, depends only on the two
texts, so the pairs are remembered by the texts' digests, with each text's word ids and
the vocabulary that gave them. The next run then:

- takes the pairs between texts it already knows from memory, dropping the texts that
  are gone (a record removed, or no longer a duplicate because its text changed);
- tokenises only the new texts and looks for their partners with one pass over the
  remembered word ids (a shingle set lookup per known text, in C), then scores the
  candidates exactly, as `index.library.dedupe` does;
- hands `dedupe` the pairs in the order its own scoring yields them, so the grouping,
  the evidence rules and the merged papers are those of a full run.

The candidate rule for a new text is a superset of the full run's (every shared shingle
counts, not only the rare ones), so no pair the full run finds is missed; the only
difference is the rare pair whose shared shingles are all stock phrases held by more than
64 texts, which the full run skips and this may find.
"""

from __future__ import annotations

import hashlib
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from index.library.dedupe import (
    _COMMON_SHINGLE,
    _SHORT,
    RELATE_AT,
    _indexed_pairs,
    _score,
    _scored_pairs,
    _Texts,
)
from index.library.shared_shingles import SharedShingles
from index.library.shingles import SHINGLE, keys
from index.models import Paper

__all__ = ["TextMemory", "remembered_pairs", "text_digest"]

Pair = tuple[int, int, float]
_WIDTH = array("I").itemsize


@dataclass
class TextMemory:
    """What one run's dedupe knew about its texts, for the next run (pickled by the cache).

    Attributes:
        vocabulary: word -> id, the ids `words` is written in.
        digests: the texts' `text_digest`s, in storage order.
        words: every text's word ids, concatenated (empty for a placeholder).
        offsets: where each text's ids start in `words`, plus the end.
        sizes: each text's number of distinct shingles.
        pairs: `(later, earlier)` digests -> score, for texts scoring at least `RELATE_AT`;
            "later" is the text that came later in the run that scored them.
    """

    vocabulary: dict[str, int] = field(default_factory=dict)
    digests: list[bytes] = field(default_factory=list)
    words: array[int] = field(default_factory=lambda: array("I"))
    offsets: array[int] = field(default_factory=lambda: array("Q", [0]))
    sizes: array[int] = field(default_factory=lambda: array("I"))
    pairs: dict[tuple[bytes, bytes], float] = field(default_factory=dict)

    def ids(self, number: int) -> array[int]:
        """The word ids of the `number`-th stored text."""
        return self.words[self.offsets[number] : self.offsets[number + 1]]


def text_digest(paper: Paper) -> bytes:
    """What identifies a text to dedupe: a digest of the abstract as loaded."""
    return hashlib.blake2b(paper.abstract.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def remembered_pairs(
    papers: Sequence[Paper], memory: TextMemory | None
) -> tuple[list[Pair], TextMemory]:
    """The text pairs `dedupe` would score for `papers`, and the memory for the next run.

    Args:
        papers: the papers about to be deduplicated, in load order.
        memory: what the last run remembered, or None to score everything afresh.

    Returns:
        the pairs `(i, j, score)`, `j < i`, in `(i, j)` order, and the new memory.
    """
    digests = [text_digest(paper) for paper in papers]
    if memory is None:
        return _full(papers, digests)
    return _incremental(papers, digests, memory)


def _full(papers: Sequence[Paper], digests: list[bytes]) -> tuple[list[Pair], TextMemory]:
    texts = _Texts()
    found = list(_scored_pairs(papers, texts))
    memory = TextMemory(vocabulary=dict(texts.vocabulary))
    number: dict[bytes, int] = {}
    for i, digest in enumerate(digests):
        if digest not in number:
            number[digest] = len(memory.digests)
            _store(memory, digest, texts.ids[i], texts.sizes[i])
    for i, j, score in found:
        # One entry per two texts, whichever way round: records of two texts can
        # alternate (x, y, x), and each pair of records must come back once.
        if digests[i] != digests[j] and (digests[j], digests[i]) not in memory.pairs:
            memory.pairs.setdefault((digests[i], digests[j]), score)
    return found, memory


def _store(memory: TextMemory, digest: bytes, ids: array[int], size: int) -> None:
    memory.digests.append(digest)
    memory.words.extend(ids)
    memory.offsets.append(len(memory.words))
    memory.sizes.append(size)


def _incremental(
    papers: Sequence[Paper], digests: list[bytes], memory: TextMemory
) -> tuple[list[Pair], TextMemory]:
    known = {digest: n for n, digest in enumerate(memory.digests)}
    positions: dict[bytes, list[int]] = {}
    for i, digest in enumerate(digests):
        positions.setdefault(digest, []).append(i)
    texts = _Texts(memory.vocabulary)
    ids: dict[bytes, array[int]] = {}
    sizes: dict[bytes, int] = {}
    grams: dict[bytes, frozenset[int]] = {}
    new: list[bytes] = []
    for digest, where in positions.items():
        if digest in known:
            ids[digest] = memory.ids(known[digest])
            sizes[digest] = memory.sizes[known[digest]]
            continue
        grams[digest] = texts.add_evidence(papers[where[0]].abstract)
        ids[digest], sizes[digest] = texts.ids[-1], texts.sizes[-1]
        new.append(digest)
    scores = {
        pair: score
        for pair, score in memory.pairs.items()
        if pair[0] in positions and pair[1] in positions
    }
    scores.update(_new_against_known(new, grams, ids, sizes, [d for d in positions if d in known]))
    scores.update(_new_among_themselves(new, ids, sizes))
    following = TextMemory(vocabulary=dict(texts.vocabulary), pairs=scores)
    for digest in positions:
        _store(following, digest, ids[digest], sizes[digest])
    return _record_pairs(positions, ids, scores), following


def _new_against_known(
    new: list[bytes],
    grams: dict[bytes, frozenset[int]],
    ids: dict[bytes, array[int]],
    sizes: dict[bytes, int],
    known: list[bytes],
) -> dict[tuple[bytes, bytes], float]:
    """Scores of new texts with known ones, candidates found by one pass over the known."""
    holders: dict[int, list[bytes]] = {}  # a new text's shingle -> the new texts holding it
    openings: dict[bytes, list[bytes]] = {}  # a short new text's first words -> such texts
    prefixes: dict[bytes, list[bytes]] = {}  # a new text's openings short texts could be
    for digest in new:
        text = ids[digest]
        if not text:
            continue
        for gram in grams[digest]:
            holders.setdefault(gram, []).append(digest)
        raw = text.tobytes()
        if len(text) < _SHORT:
            openings.setdefault(raw[: SHINGLE * _WIDTH], []).append(digest)
        for k in range(1, min(len(text), _SHORT)):
            prefixes.setdefault(raw[: k * _WIDTH], []).append(digest)
    if not holders:
        return {}
    wanted = set(holders)
    threshold = RELATE_AT / 2
    found: dict[tuple[bytes, bytes], float] = {}
    for old in known:
        text = ids[old]
        if not text:
            continue
        raw = text.tobytes()
        shared = wanted.intersection(keys(text))  # no set per text
        candidates = set(openings.get(raw[: SHINGLE * _WIDTH], ()))
        if len(text) < _SHORT:
            candidates.update(prefixes.get(raw, ()))
        if shared:
            pool: Counter[bytes] = Counter()
            for gram in shared:
                if len(holders[gram]) <= _COMMON_SHINGLE:
                    pool.update(holders[gram])
            size, short = sizes[old], len(text) < _SHORT
            candidates.update(
                digest
                for digest, count in pool.items()
                # a short text is a candidate by any shingle it shares
                if short
                or len(ids[digest]) < _SHORT
                or count >= threshold * min(size, sizes[digest])
            )
        for digest in candidates:
            score = _score(ids[digest], grams[digest], text, None)
            if score >= RELATE_AT:
                found[(digest, old)] = score
    return found


def _new_among_themselves(
    new: list[bytes], ids: dict[bytes, array[int]], sizes: dict[bytes, int]
) -> dict[tuple[bytes, bytes], float]:
    """Scores among the new texts: the full search, over them alone (they are few)."""
    if len(new) < 2:
        return {}
    texts = _Texts()
    texts.ids = [ids[d] for d in new]
    shared = SharedShingles(sum(sizes[d] for d in new), len(new))
    for text in texts.ids:
        shared.add(text)
    return {(new[i], new[j]): score for i, j, score in _indexed_pairs(texts, shared)}


def _record_pairs(
    positions: dict[bytes, list[int]],
    ids: dict[bytes, array[int]],
    scores: dict[tuple[bytes, bytes], float],
) -> list[Pair]:
    """The text pairs as paper pairs, each scored the way round the full run scores it."""
    found: list[Pair] = []
    for digest, where in positions.items():
        if len(where) > 1 and ids[digest]:  # one text, several records: a prefix of itself
            found += [(i, j, 1.0) for n, i in enumerate(where) for j in where[:n]]
    for (first, second), score in scores.items():
        for a in positions[first]:
            for b in positions[second]:
                later, earlier = (a, b) if a > b else (b, a)
                if later != a and len(ids[first]) == len(ids[second]):
                    # Equal lengths: the later text is "the shorter" one; score it that way.
                    score_here = _score(ids[second], None, ids[first], None)
                else:
                    score_here = score
                if score_here >= RELATE_AT:
                    found.append((later, earlier, score_here))
    found.sort()
    return found
