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

Libraries reach 100,000 papers, so no text is compared with all others: an index from
shingles to the texts holding them yields the few candidates worth scoring, and texts are
held as arrays of word ids rather than strings and shingle sets (see `_scored_pairs`). The
index holds only the shingles a second text may share (`index.library.shared_shingles`):
at 100,000 abstracts 0.7 GB instead of 1.8 GB, for the same pairs.
"""

from __future__ import annotations

import threading
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from index.library.evidence import arxiv_key, doi_key, is_placeholder
from index.library.grouping import MergeGroups
from index.library.normalize import words
from index.library.shared_shingles import SharedShingles
from index.library.shingles import SHINGLE, keys
from index.models import Paper, replace

__all__ = [
    "MERGE_AT",
    "RELATE_AT",
    "dedupe",
    "merge_group",
    "pause_merging",
    "resume_merging",
    "similarity",
]

# Shared fraction of the shorter text's shingles at which two texts are one paper. On the
# bundled corpus, same-paper pairs score 0.72 and up, distinct papers 0.28 and below.
MERGE_AT = 0.6
# ...and at which two distinct texts are probably versions of each other (linked).
RELATE_AT = 0.2
_MIN_SHINGLES = 8  # below this, only an exact or prefix match counts
_SHORT = SHINGLE + _MIN_SHINGLES  # texts of fewer words are matched by their openings
# A shingle shared by this many texts ("in this paper") says nothing about sameness and
# would make candidate search quadratic, so it is not used to find candidates.
_COMMON_SHINGLE = 64
_SMALL = 80  # shingles of a text the candidate search looks up among the small ones
# Set while merges may run (`pause_merging`); looked at every `_PAUSE_EVERY` texts.
_RUNNING = threading.Event()
_RUNNING.set()
_PAUSE_EVERY = 64
_T = TypeVar("_T")


def pause_merging() -> None:
    """Every merge under way in this process stops at its next few texts and waits,
    holding no lock, until `resume_merging`.

    For a process about to exit whose load is no longer wanted (the app quit during a
    first start and handed it to a process of its own, `tui.first_start`). A merge is
    pure Python for seconds (14 s at 20,000 papers on a busy machine): running, it held
    the interpreter lock against the app's shutdown, which waited its turn at every
    switch (1.0 s from `q` to the shell prompt at 20,000 papers, 1.67 s at 6,315 once).
    """
    _RUNNING.clear()


def resume_merging() -> None:
    """Merges paused by `pause_merging` go on (an app that exits without `os._exit`,
    as under tests, lets its load end)."""
    _RUNNING.set()


def _pausable(items: Iterable[_T]) -> Iterator[_T]:
    """`items`, waiting whenever merges are paused (`pause_merging`)."""
    for n, item in enumerate(items):
        if not n % _PAUSE_EVERY:
            _RUNNING.wait()
        yield item


class _Vocabulary(dict[str, int]):
    """Word -> id, a new word getting the next id (`map` can look words up in C)."""

    def __missing__(self, word: str) -> int:
        self[word] = number = len(self)
        return number


class _Texts:
    """Every abstract as an array of word ids: the one copy of the texts dedupe keeps.

    Words become small integers (4 bytes each instead of a str object per occurrence) and
    a shingle becomes one integer packing its three word ids (`index.library.shingles`),
    so two shingles are equal exactly when their words are. Shingle sets are built only
    while a text is compared, never for all papers at once: at 100,000 abstracts they
    would be gigabytes.
    """

    def __init__(self, vocabulary: dict[str, int] | None = None) -> None:
        # A remembered vocabulary (`index.library.text_memory`) keeps earlier word ids valid.
        self.vocabulary = _Vocabulary(vocabulary or {})
        self.ids: list[array[int]] = []
        self.sizes = array("I")  # distinct shingles per text

    def add(self, abstract: str) -> frozenset[int]:
        """Store one text; returns its shingle set for the caller's immediate use."""
        return self._sized(self._add_words(words(abstract)))

    def add_evidence(self, abstract: str) -> frozenset[int]:
        """`add`, storing a placeholder ("Not Available": shared stubs are not sameness)
        as no text, as `add("")` would."""
        return self._sized(self.tokenise_evidence(abstract))

    def tokenise_evidence(self, abstract: str) -> array[int]:
        """`add_evidence` without the shingles (nor `sizes`): the word ids alone, stored."""
        tokens = words(abstract)
        return self._add_words([] if is_placeholder(abstract, len(tokens)) else tokens)

    def _add_words(self, tokens: list[str]) -> array[int]:
        ids = array("I", map(self.vocabulary.__getitem__, tokens))
        self.ids.append(ids)
        return ids

    def _sized(self, ids: array[int]) -> frozenset[int]:
        grams = _shingles(ids)
        self.sizes.append(len(grams))
        return grams


def _shingles(ids: array[int]) -> frozenset[int]:
    """A text's distinct shingles, as `index.library.shingles` keys."""
    return frozenset(keys(ids))


def _score(
    a: array[int], a_grams: frozenset[int] | None, b: array[int], b_grams: frozenset[int] | None
) -> float:
    """Containment of the shorter text (by words) in the longer; grams built if not given."""
    if not a or not b:
        return 0.0
    if len(a) <= len(b):
        short, short_grams, long, long_grams = a, a_grams, b, b_grams
    else:
        short, short_grams, long, long_grams = b, b_grams, a, a_grams
    if long[: len(short)] == short:
        return 1.0  # a truncated opening, however short
    if short_grams is None:
        short_grams = _shingles(short)
    if len(short_grams) < _MIN_SHINGLES:
        return 0.0
    if long_grams is None:
        long_grams = _shingles(long)
    return len(short_grams & long_grams) / len(short_grams)


def similarity(first: str, second: str) -> float:
    """How much of the shorter abstract the longer one contains, from 0 to 1."""
    texts = _Texts()
    first_grams, second_grams = texts.add(first), texts.add(second)
    return _score(texts.ids[0], first_grams, texts.ids[1], second_grams)


# The lists a merged paper holds every member's values of, each value once.
_LISTS = (
    "sources",
    "keywords",
    "related",
    "collections",
    "attachments",
    "source_notes",
    "categories",
    "merge_reasons",
    "records",  # every source's own record, each once
)


def _distinct_lists(paper: Paper) -> bool:
    """True when none of the lists `merge_group` de-duplicates holds a value twice."""
    for name in _LISTS:
        values = getattr(paper, name)
        if not isinstance(values, tuple):
            return False
        try:
            if len(values) > 1 and len(set(values)) != len(values):
                return False
        except TypeError:  # an unhashable value: let merge_group decide
            return False
    return True


def merge_group(papers: Sequence[Paper], reasons: Sequence[str] = ()) -> Paper:
    """Several records of one paper -> one, keeping every source and every known fact.

    The first record wins for each field it knows, except the abstract: a text that is
    much shorter than another (a truncated opening) gives way to the longer one. Curated
    or bibliographic records (real titles) are preferred over text-only ones. `reasons`
    (why the records are one paper) are kept on the result, so `show` can explain it.
    """
    if len(papers) == 1 and not reasons and _distinct_lists(papers[0]):
        return papers[0]  # what merging it with nothing gives: itself (and no copy)
    ordered = sorted(papers, key=lambda p: p.title_inferred)  # stable: real titles first
    merged = ordered[0]
    longest = max((p.abstract for p in papers), key=len)
    abstract = next((p.abstract for p in papers if p.abstract), "")
    if len(abstract) < 0.8 * len(longest):
        abstract = longest
    updates: dict[str, object] = {"abstract": abstract}
    for paper in ordered[1:]:
        for name in (
            "short_name",
            "year",
            "month",
            "venue",
            "booktitle",
            "journal",
            "volume",
            "number",
            "pages",
            "publisher",
            "doi",
            "arxiv",
            "url",
            "citation_key",
            "note",
            "isbn",
            "pmid",
        ):
            if updates.get(name, getattr(merged, name)) is None and getattr(paper, name):
                updates[name] = getattr(paper, name)
        if not merged.authors and paper.authors and "authors" not in updates:
            updates["authors"] = paper.authors
            updates["names"] = paper.names  # the same people in parts, when known
            updates["authors_complete"] = paper.authors_complete
        elif (
            not merged.names
            and paper.names
            and "names" not in updates
            and paper.authors == updates.get("authors", merged.authors)
        ):
            updates["names"] = paper.names
        if not merged.editors and paper.editors and "editors" not in updates:
            updates["editors"] = paper.editors
    sources = []
    for paper in papers:
        sources += [s for s in paper.sources if s not in sources]
    lists: dict[str, list[str]] = {name: [] for name in _LISTS if name != "sources"}
    for paper in ordered:
        for name, values in lists.items():
            values += [v for v in getattr(paper, name) if v not in values]
    lists["merge_reasons"] += [r for r in reasons if r not in lists["merge_reasons"]]
    updates.update(sources=tuple(sources), **{name: tuple(v) for name, v in lists.items()})
    return replace(merged, **updates)  # type: ignore[arg-type]


def dedupe(
    papers: Sequence[Paper],
    pinned: Sequence[bool] | None = None,
    scored: Iterable[tuple[int, int, float]] | None = None,
) -> tuple[list[Paper], list[tuple[int, int]], list[bool]]:
    """Merge duplicate papers conservatively; return them, the pairs to link, and which are pinned.

    Records are grouped transitively when they share a DOI or arXiv id (unless a shared
    DOI comes with clearly different titles: a book's chapters), or when their abstracts
    score at least `MERGE_AT` and their titles agree; placeholder abstracts are no evidence
    (see `index.library.evidence`). Records with different DOIs, arXiv ids or curated ids
    are never merged, only linked; pairs scoring at least `RELATE_AT` are linked too.
    Every merged paper records why in `Paper.merge_reasons`.

    Args:
        papers: the loaded papers, in load order.
        pinned: for each paper, whether its id is curated (a sidecar's id).
        scored: the text pairs `(i, j, score)`, `j < i`, in `(i, j)` order, when the
            caller already has them (`index.library.text_memory` remembers them between
            runs); None scores the texts here.

    Returns:
        the merged papers in first-seen order, index pairs `(i, j)` into that list to
        link, and for each merged paper whether its id is curated.
    """
    pinned = list(pinned) if pinned is not None else [False] * len(papers)
    groups = MergeGroups(papers, pinned)
    for name, label in (("doi", "same DOI"), ("arxiv", "same arXiv id")):
        key = doi_key if name == "doi" else arxiv_key
        first_with: dict[str, int] = {}
        for i, paper in enumerate(papers):
            value = key(getattr(paper, name))
            if value:
                groups.union(i, first_with.setdefault(value, i), f"{label} {value}", False)
    for i, j, score in _scored_pairs(papers) if scored is None else scored:
        if score >= MERGE_AT:
            groups.union(i, j, f"abstracts {score:.0%} the same", True)
        else:
            groups.related.append((j, i))

    members_of: dict[int, list[int]] = {}
    for i in range(len(papers)):
        members_of.setdefault(groups.find(i), []).append(i)
    why: dict[int, list[str]] = {}
    for member, reason in groups.reasons:
        why.setdefault(groups.find(member), []).append(reason)
    order = sorted(members_of.items(), key=lambda item: item[1][0])
    position = {i: n for n, (_, members) in enumerate(order) for i in members}
    merged = [
        _keep_curated_id(
            merge_group([papers[i] for i in members], why.get(root, ())),
            [papers[i] for i in members if pinned[i]],
        )
        for root, members in _pausable(order)
    ]
    links = sorted(
        {
            (min(position[a], position[b]), max(position[a], position[b]))
            for a, b in groups.related
            if position[a] != position[b]
        }
    )
    return merged, links, [any(pinned[i] for i in members) for _, members in order]


def _keep_curated_id(merged: Paper, pinned: list[Paper]) -> Paper:
    """A group holding a curated paper keeps the curated id, whoever supplied the title."""
    return replace(merged, id=pinned[0].id) if pinned else merged


def _scored_pairs(
    papers: Sequence[Paper], texts: _Texts | None = None
) -> Iterator[tuple[int, int, float]]:
    """Every pair `(i, j)`, `j < i`, scoring at least `RELATE_AT`, in (i, j) order.

    Each text is scored only against earlier texts sharing enough of its rare shingles
    (held by at most `_COMMON_SHINGLE` earlier texts): a pair at `RELATE_AT` shares at
    least that fraction of the shorter text's shingles, so counting half of it over the
    rare ones loses no real pair while skipping the many texts that share only stock
    phrases. Texts too short for shingles to decide (under `_SHORT` words) can still be
    truncated openings, found through two small indexes: texts by their first one, two
    and three words, and short texts by all their words.

    Every text is tokenised first, so that the shingle index holds only the shingles
    another text may share (`SharedShingles`). `texts`, when given (empty), is filled
    with every paper's word ids, for the caller to keep.
    """
    texts = _Texts() if texts is None else texts
    # Characters / 4 is more than the words (so the shingles) of any prose: a table sized
    # by it errs towards room.
    shared = SharedShingles(sum(len(paper.abstract) for paper in papers) // 4, len(papers))
    for paper in _pausable(papers):
        shared.add(texts.tokenise_evidence(paper.abstract))
    yield from _indexed_pairs(texts, shared)


def _indexed_pairs(texts: _Texts, shared: SharedShingles) -> Iterator[tuple[int, int, float]]:
    """`_scored_pairs` over `texts.ids`, every one counted in `shared`; fills `texts.sizes`.

    The shingle index maps a shingle to its one holder so far (an int) or to a list of
    holders, one dict entry per shingle `shared` says a second text may hold.
    """
    owners: dict[int, int | list[int]] = {}
    openings: dict[tuple[int, ...], list[int]] = {}  # first 1, 2, 3 words -> texts
    shorts: dict[tuple[int, ...], list[int]] = {}  # a short text's words -> texts
    threshold = RELATE_AT / 2
    smalls: set[int] = set()  # texts of at most `_SMALL` shingles
    small_enough = threshold * _SMALL
    sizes = texts.sizes
    del sizes[:]
    for i, ids in enumerate(_pausable(texts.ids)):
        grams, indexed = shared.among(i, ids)
        size = len(grams)
        sizes.append(size)
        if size <= _SMALL:
            smalls.add(i)
        small_size = threshold * size
        if not ids:
            continue  # an empty abstract scores 0 with everything
        pool: list[int] = []
        seen = indexed & owners.keys()  # most shingles are new: filed in one C-level call
        owners.update(dict.fromkeys(indexed - seen, i))
        for gram in seen:
            holders = owners[gram]
            if holders.__class__ is int:
                pool.append(holders)
                owners[gram] = [holders, i]
            else:
                if len(holders) <= _COMMON_SHINGLE:  # type: ignore[arg-type]
                    pool.extend(holders)  # type: ignore[arg-type]
                holders.append(i)  # type: ignore[union-attr]
        counts = Counter(pool)
        # Usually no earlier text shares a tenth of this one: a pair then needs a tenth of
        # the other text, which only a small one can have (`smalls`, looked up in C).
        most = max(counts.values(), default=0)
        near = smalls.intersection(counts) if most <= small_enough and most < small_size else counts
        candidates = {j for j in near if counts[j] >= threshold * min(size, sizes[j])}
        if shorts:  # earlier short texts this one starts with
            for k in range(1, min(len(ids), _SHORT)):
                candidates.update(shorts.get(tuple(ids[:k]), ()))
        if len(ids) < _SHORT:
            candidates.update(_short_candidates(ids, indexed, i, owners, openings))
            shorts.setdefault(tuple(ids), []).append(i)
        for k in range(1, min(len(ids), SHINGLE) + 1):
            openings.setdefault(tuple(ids[:k]), []).append(i)
        for j in sorted(candidates):
            score = _score(ids, grams, texts.ids[j], None)
            if score >= RELATE_AT:
                yield i, j, score


def _short_candidates(
    ids: array[int],
    grams: frozenset[int],
    i: int,
    owners: dict[int, int | list[int]],
    openings: dict[tuple[int, ...], list[int]],
) -> set[int]:
    """The earlier texts a short text can score anything with (a superset, never less).

    A short text scores above zero only as a prefix of a longer text (which opens with
    its first words), with a shorter text that is its prefix (the caller's `shorts`), or,
    at exactly `_SHORT - 1` words, by sharing shingles (`grams`: its indexed ones, the
    only ones another text can share).
    """
    found = set(openings.get(tuple(ids[:SHINGLE]), ()))
    for gram in grams:
        holders = owners[gram]
        found.update((holders,) if holders.__class__ is int else holders)  # type: ignore[arg-type]
    found.discard(i)
    return found
