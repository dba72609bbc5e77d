"""Facets and query fields that live outside the index: the user's layer and the source's tags.

Tags, reading status and notes change while the app runs, far more often than papers, so
they are never written into the Whoosh index (that would mean re-indexing a paper for every
tag). The engine is handed them as plain values instead (a `UserLayer`: facet -> value ->
paper ids, and note texts by paper id) and turns them into document masks once per change;
from then on `tag:toread`, `status:read`, `note:word` and the facets' counts are the same
mask intersections as every other facet (index.search.bitsets). Zotero collections are
read from the library the same way, as the `collection` facet. The source's own tags
(BibTeX `keywords`, Zotero tags) are not the layer's: the index holds them, as the
`keyword` facet, counted and matched (`keyword:gpus`) from its masks, so they work
without the library loaded too; they stay apart from the user's `tag`.

Notes are matched word by word with the abstract's analyzer, so a plain word finds a paper
whose note holds it (the engine ORs the note mask into that word's match set) and
`note:word` finds only notes. A scan of the notes when they change is simplest and fast at
the scale of notes a person writes (thousands, not millions); a Whoosh RAM index would
add a second searcher to keep in step for no gain at that size.

The source's notes (Zotero child notes, notes in a Better BibTeX JSON export) are the
user's notes too, written in another program, so they are searched the same way: plain
words and `note:`. They change only when the library does, so their masks are built once
per library (`NoteMasks.build` over `source_notes`) and merged into each layer, never
re-read when a tag changes. They stay out of the Whoosh index for the same reasons as the
user's notes: a note is not the paper's text, so it should neither score, nor feed the
spelling lexicon, nor need a schema change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

from index.models import READING_STATUSES, FacetCount, Paper, SearchRequest
from index.schema.analysis import fold_analyzer, stem_analyzer
from index.search.bitsets import bits, mask_of
from index.search.counting import value_limit

__all__ = [
    "LAYER_FACETS",
    "LAYER_FIELDS",
    "LayerMasks",
    "NoteMasks",
    "UserLayer",
    "live_docnums",
    "normalize_status",
    "source_facets",
    "source_notes",
]

# The facets answered from the layer (their request fields: index.models.FACET_FIELDS).
LAYER_FACETS = ("tag", "status", "collection")
# Query fields answered from the layer, not the index ("note" is the notes' words).
LAYER_FIELDS = (*LAYER_FACETS, "note")
_STATUS_ALIASES = {"toread": "to-read", "to_read": "to-read", "todo": "to-read", "new": "unread"}
# Facet values shown at most, per facet (selected ones are always shown).
LAYER_LISTED_VALUES = 30


def normalize_status(text: str) -> str | None:
    """The reading status `text` names (`toread`, `To-Read` -> `to-read`), or None."""
    value = text.strip().lower().replace(" ", "-")
    value = _STATUS_ALIASES.get(value, value)
    return value if value in READING_STATUSES else None


@dataclass(frozen=True)
class UserLayer:
    """The user's own data as plain values, handed to `SearchEngine.set_user_layer`.

    Attributes:
        facets: facet (`tag`, `status`) -> value -> ids of the papers that have it. Papers
            with no status are `unread`; it need not be listed.
        notes: paper id -> the text of its note.
    """

    facets: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)


def _collection_paths(collections: Iterable[str]) -> list[str]:
    """`Thesis/Chapter 2` and its ancestors (`Thesis`), so a parent counts its children."""
    out: list[str] = []
    for path in collections:
        parts = [p for p in path.split("/") if p]
        out += ["/".join(parts[: n + 1]) for n in range(len(parts))]
    return list(dict.fromkeys(out))


class Tagged(Protocol):
    """What the source facets read of a paper (a `Paper`, or its saved `PaperKeys`)."""

    @property
    def id(self) -> str: ...

    @property
    def collections(self) -> tuple[str, ...]: ...


def source_facets(papers: Iterable[Tagged]) -> dict[str, dict[str, set[str]]]:
    """The source's collections as facet -> value -> paper ids (its tags are the index's)."""
    collections: dict[str, set[str]] = {}
    for paper in papers:
        if not paper.collections:  # most papers: no call (25 ms of an open at 100,000)
            continue
        for path in _collection_paths(paper.collections):
            collections.setdefault(path, set()).add(paper.id)
    return {"collection": collections}


def source_notes(papers: Iterable[Paper]) -> dict[str, str]:
    """Paper id -> the text of the notes its source carries (Zotero child notes)."""
    return {paper.id: "\n\n".join(paper.source_notes) for paper in papers if paper.source_notes}


def live_docnums(ids: Sequence[str], live: int) -> dict[str, int]:
    """Paper id -> document number, for the index's live documents only.

    The live set's bits are read once (`live >> number` per document copies the whole
    100,000-bit mask each time: 0.3 s of an engine's opening at 100,000 papers).
    """
    return {ids[number]: number for number in bits(live) if number < len(ids)}


@dataclass(frozen=True)
class NoteMasks:
    """The words of some notes as document masks: stems for words, folded words for prefixes."""

    stems: Mapping[str, int] = field(default_factory=dict)
    words: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, notes: Mapping[str, str], docnum: Mapping[str, int], size: int) -> NoteMasks:
        """The masks of `notes` (paper id -> text); notes of papers not in `docnum` are left out."""
        stems: dict[str, set[int]] = {}
        words: dict[str, set[int]] = {}
        stem, fold = stem_analyzer(), fold_analyzer()
        for paper_id, text in notes.items():
            doc = docnum.get(paper_id)
            if doc is None or not text:
                continue
            for token in stem(text):
                stems.setdefault(token.text, set()).add(doc)
            for token in fold(text):
                words.setdefault(token.text, set()).add(doc)
        return cls(
            {k: mask_of(sorted(v), size) for k, v in stems.items()},
            {k: mask_of(sorted(v), size) for k, v in words.items()},
        )

    def merged(self, other: NoteMasks) -> NoteMasks:
        """Both sets of notes' masks, OR-ed word by word."""
        if not other.stems:
            return self
        if not self.stems:
            return other
        return NoteMasks(_or_masks(self.stems, other.stems), _or_masks(self.words, other.words))


def _by_name(paths: Mapping[str, int]) -> dict[str, int]:
    """Lowercase collection paths, plus each collection's own name ("chapter 2" for
    "thesis/chapter 2") for every name that is no whole path: a Zotero user knows a
    collection by its name. Collections sharing a name are found together; a whole path
    wins over a name (`collection:Reading` is the top-level Reading, not a group's)."""
    out = dict(paths)
    names: dict[str, int] = {}
    for path, path_mask in paths.items():
        if "/" in path:
            name = path.rsplit("/", 1)[-1]
            names[name] = names.get(name, 0) | path_mask
    for name, name_mask in names.items():
        out.setdefault(name, name_mask)
    return out


def _or_masks(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) | value
    return out


class LayerMasks:
    """The layer's values as document masks over one open index.

    Args:
        layer: the user's data.
        source: the library's own collections (`source_facets`).
        ids: document number -> paper id (index.search.bitsets.FacetMasks.ids).
        live: the index's live documents.
        notes: the source's notes as masks over the same index (`NoteMasks.build`).
    """

    def __init__(
        self,
        layer: UserLayer,
        source: Mapping[str, Mapping[str, Iterable[str]]],
        ids: Sequence[str],
        live: int,
        notes: NoteMasks | None = None,
    ) -> None:
        size = len(ids)
        self.live = live

        # Made when first needed: an empty layer (no tags, notes or collections yet, every
        # start of a new user) never needs it, and at 100,000 papers it is 0.1 s.
        @cache
        def numbers() -> dict[str, int]:
            return live_docnums(ids, live)

        def mask(paper_ids: Iterable[str]) -> int:
            docnum = numbers()
            return mask_of([docnum[p] for p in paper_ids if p in docnum], size)

        self.papers_mask = mask  # the documents of some paper ids (`SearchRequest.within`)

        self.masks: dict[str, dict[str, int]] = {}
        for facet in LAYER_FACETS:
            values = (layer.facets if facet in ("tag", "status") else source).get(facet) or {}
            self.masks[facet] = {value: mask(members) for value, members in values.items()}
        statuses = self.masks["status"]
        statuses.pop("unread", None)
        anything = 0
        for value_mask in statuses.values():
            anything |= value_mask
        statuses["unread"] = live & ~anything
        self.statuses_in_use = bool(anything)
        for status in READING_STATUSES:  # every status is a facet row, even when empty
            statuses.setdefault(status, 0)
        self._lookup = {
            facet: {value.lower(): m for value, m in values.items()}
            for facet, values in self.masks.items()
        }
        self._lookup["collection"] = _by_name(self._lookup["collection"])
        own = NoteMasks.build(layer.notes, numbers(), size) if layer.notes else NoteMasks()
        masks = own.merged(notes or NoteMasks())
        self.note_stems: Mapping[str, int] = masks.stems
        self.note_words: Mapping[str, int] = masks.words

    @property
    def has_notes(self) -> bool:
        """Whether any note has words (the engine then ORs notes into plain words)."""
        return bool(self.note_stems)

    def term(self, fieldname: str, text: str) -> int:
        """The documents matching `field:text` for a layer field (`tag:toread`)."""
        if fieldname == "note":
            return self.note_stems.get(text, 0)
        if fieldname == "status":
            text = normalize_status(text) or text
        return self._lookup.get(fieldname, {}).get(text.lower(), 0)

    def note_prefix(self, prefix: str) -> int:
        """The documents whose note has a word starting with `prefix` (folded)."""
        out = 0
        for word, word_mask in self.note_words.items():
            if word.startswith(prefix):
                out |= word_mask
        return out

    def selections(self, request: SearchRequest) -> dict[str, int]:
        """Facet -> documents allowed by that facet's selection (selected facets only)."""
        out: dict[str, int] = {}
        for facet in LAYER_FACETS:
            chosen = request.selected(facet)
            if chosen:
                allowed = 0
                for value in chosen:
                    allowed |= self.term(facet, value)
                out[facet] = allowed
        return out

    def counts(
        self, request: SearchRequest, base: int, selected: Mapping[str, int]
    ) -> tuple[dict[str, tuple[FacetCount, ...]], frozenset[str]]:
        """Each layer facet's counts over `base`, disjunctively (its own selection left out),
        and the facets listed only in part (`request.facet_limits` lists more)."""
        out: dict[str, tuple[FacetCount, ...]] = {}
        cut: set[str] = set()
        for facet in LAYER_FACETS:
            if facet == "status" and not self.statuses_in_use:
                continue  # nobody has set a status: every paper is unread, nothing to show
            within = base
            for other, other_mask in selected.items():
                if other != facet:
                    within &= other_mask
            chosen = request.selected(facet)
            rows = [
                (value, (value_mask & within).bit_count())
                for value, value_mask in self.masks[facet].items()
            ]
            if facet == "status":
                order = {value: n for n, value in enumerate(READING_STATUSES)}
                rows.sort(key=lambda row: order.get(row[0], len(order)))
            else:
                rows.sort(key=lambda row: (-row[1], row[0].lower()))
                limit = value_limit(request, facet, LAYER_LISTED_VALUES)
                if any(row[1] for row in rows[limit:]):
                    cut.add(facet)
                rows = rows[:limit] + [row for row in rows[limit:] if row[0] in chosen]
                rows = [row for row in rows if row[1] or row[0] in chosen]
            out[facet] = tuple(
                FacetCount(
                    facet,
                    value,
                    # A collection is shown by its own name under its parent ("Reading"
                    # under "Lab group"); its value is the whole path, as typed.
                    value.rsplit("/", 1)[-1] if facet == "collection" else value,
                    count,
                    value in chosen,
                    value.rsplit("/", 1)[0] if facet == "collection" and "/" in value else None,
                )
                for value, count in rows
            )
        return out, frozenset(cut)
