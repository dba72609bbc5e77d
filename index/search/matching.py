"""The match set of a parsed query: a bitmask of the documents it matches.

A query tree is evaluated part by part, and each AND-ed part's mask is cached, so typing
one more word or letter only evaluates the new part: the previous keystroke's matches are
narrowed, never recomputed. A word's documents come from its posting list read in blocks
(or kept decoded, index.search.stored_postings), a scored word's together with its scores
(index.search.term_scores); the first keystrokes' masks come precomputed from the build
(index.search.prefixes), and a typed prefix among few candidates is checked against their
text instead of reading its completions. The user's layer (`tag:`, `note:`) and
`keyword:` are answered from masks, not from Whoosh (`MASK_FIELDS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from whoosh import query as wq
from whoosh.searching import Searcher

from index.cancel import checkpoint
from index.models import Paper
from index.schema.fields import TEXT_FIELDS
from index.search.bitsets import FacetMasks, Lru, mask_of, member_test, posting_ids
from index.search.prefixes import verified, worth_verifying
from index.search.term_scores import TermScores
from index.search.user_layer import LAYER_FIELDS, LayerMasks
from index.whoosh_ext.blocks import phrase_ids

__all__ = ["MASK_CACHE", "MASK_FIELDS", "Evaluation", "QueryMasks", "uses_layer", "without_layer"]

# Match sets (bitmasks) of query parts kept between keystrokes.
MASK_CACHE = 512
# A parsed query's typed prefixes: node -> (the prefix, the fields it completes in).
Prefixes = dict[wq.Query, tuple[str, tuple[str, ...]]]


class Evaluation(NamedTuple):
    """What one search evaluates its query with: the parse's typed prefixes, the user's
    layer, and the layer's generation (which keys the cache)."""

    prefixes: Prefixes
    layer: LayerMasks
    generation: int


# Query fields answered from masks, not Whoosh's postings: the user's layer (`tag:`,
# `note:`), `keyword:`, matched ignoring case against the index's keyword facet, and
# `fulltext:`, answered from the page index (index.search.fulltext).
MASK_FIELDS = frozenset((*LAYER_FIELDS, "keyword", "fulltext"))


def uses_layer(q: wq.Query) -> bool:
    """Whether the query names a field answered from masks (`tag:`, `note:`, `keyword:`)."""
    if getattr(q, "fieldname", None) in MASK_FIELDS:
        return True
    return not q.is_leaf() and any(uses_layer(child) for child in q.children())


def without_layer(q: wq.Query) -> wq.Query | None:
    """`q` without its mask-field parts (they filter, via the mask; they never score)."""
    if getattr(q, "fieldname", None) in MASK_FIELDS:
        return None
    if isinstance(q, (wq.And, wq.Or)):
        kept = [c for c in (without_layer(child) for child in q.subqueries) if c is not None]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else type(q)(kept, boost=q.boost)
    if isinstance(q, wq.Not):
        return None if uses_layer(q) else q  # an exclusion never scores
    if isinstance(q, wq.AndNot):
        positive = without_layer(q.a)
        if positive is None or uses_layer(q.b):
            return positive
        return wq.AndNot(positive, q.b)
    return q


class QueryMasks:
    """Evaluates parsed queries over one open index into document masks, caching the
    parts (module docstring). Thread-safe as the engine using it is: the caches lock.

    `letters`: the first keystrokes' stored masks (index.search.prefixes); `paper_at`
    gives a document's `Paper`, for checking a typed prefix against few candidates.
    """

    def __init__(
        self,
        masks: FacetMasks,
        letters: dict[str, int],
        term_scores: TermScores,
        paper_at: Callable[[Searcher, int], Paper],
    ) -> None:
        self.masks = masks
        self.letters = letters
        self.term_scores = term_scores
        self.paper_at = paper_at
        self.cache = Lru(MASK_CACHE)
        # A lean first index's word starts (index.search.lean.WordStarts): the documents
        # of a `prefix` term, which that index does not hold. None: read from the index.
        self.starts: Callable[[str], int] | None = None
        # The same index's phrases, among their candidates (index.search.lean_phrases):
        # None for a field it cannot answer; not set: Whoosh's positions.
        self.phrases: Callable[[wq.Phrase, int], int | None] | None = None

    def mask(self, searcher: Searcher, q: wq.Query, evaluation: Evaluation) -> int:
        """The documents matching `q`; a plain word's or prefix's also match in the
        layer's notes."""
        prefixes, layer = evaluation.prefixes, evaluation.layer
        if isinstance(q, wq.Term) and q.fieldname == "keyword":
            return self.masks.folded_mask("keyword", str(q.text), searcher.reader())
        if isinstance(q, wq.Term) and q.fieldname in LAYER_FIELDS:
            return layer.term(q.fieldname, str(q.text)) & self.masks.live
        mask = self._index_mask(searcher, q, evaluation)
        if layer.has_notes:
            if q in prefixes:
                mask |= layer.note_prefix(prefixes[q][0]) & self.masks.live
            elif isinstance(q, wq.Or):
                stems = [
                    c.text for c in q.subqueries if type(c) is wq.Term and c.fieldname == "abstract"
                ]
                if stems and any(getattr(c, "fieldname", None) == "title" for c in q.subqueries):
                    for stem in stems:
                        mask |= layer.note_stems.get(str(stem), 0) & self.masks.live
        return mask

    def _index_mask(self, searcher: Searcher, q: wq.Query, evaluation: Evaluation) -> int:
        """The documents matching `q`, with each AND-ed part's match set cached.

        `prefixes` (from the parse) names the nodes that stand for a typed prefix: when the
        rest of an AND already leaves few candidates, the prefix is checked against their
        text rather than by reading its completions' long posting lists.
        """
        checkpoint()  # a superseded search stops here (index.cancel)
        prefixes, generation = evaluation.prefixes, evaluation.generation
        live = self.masks.live
        stored = self.letters.get(repr(q))  # a one- or two-letter prefix (index.search.prefixes)
        if stored is not None:
            return stored & live
        key = ("mask", q, generation)  # Whoosh queries hash and compare by their structure
        cached = self.cache.fetch(key)
        if cached is not None:
            return cached
        if isinstance(q, wq.And):
            typed = [c for c in q.subqueries if c in prefixes]
            rest = [c for c in q.subqueries if c not in prefixes]
            mask = live
            for child in rest:
                mask &= self.mask(searcher, child, evaluation)
                if not mask:
                    break
            for child in typed:
                if not mask:
                    break
                prefix, fields = prefixes[child]
                if rest and worth_verifying(prefix, mask.bit_count(), self.masks.size):
                    mask = verified(
                        mask,
                        prefix,
                        fields,
                        lambda docnum: self.paper_at(searcher, docnum),
                        self.masks.size,
                    )
                else:
                    mask &= self.mask(searcher, child, evaluation)
        elif isinstance(q, wq.Not):
            mask = live & ~self.mask(searcher, q.query, evaluation)
        elif isinstance(q, wq.AndNot):
            mask = self.mask(searcher, q.a, evaluation) & ~self.mask(searcher, q.b, evaluation)
        elif isinstance(q, wq.NullQuery.__class__):
            mask = 0
        elif isinstance(q, wq.Or):
            mask = 0
            for child in q.subqueries:
                mask |= self.mask(searcher, child, evaluation)
        elif isinstance(q, wq.ConstantScoreQuery):
            # A typed prefix's expansion (or a wildcard's): it filters and never scores, so
            # its words' postings are read without their scores.
            words = q.child.subqueries if isinstance(q.child, wq.Or) else [q.child]
            if all(self._plain_term(word) for word in words):
                mask = 0
                for word in words:
                    mask |= self._term_mask(searcher, word, generation, scored=False)
            else:
                mask = self.mask(searcher, q.child, evaluation)
        elif isinstance(q, wq.Phrase) and q.words:
            # Its words' cached masks first: a phrase still being typed usually has none.
            mask = live
            words_alone = evaluation._replace(prefixes={})  # a word, not a typed prefix
            for word in q.words:
                mask &= self.mask(searcher, wq.Term(q.fieldname, word), words_alone)
            if mask and len(q.words) > 1:
                mask &= self._phrase_mask(searcher, q, mask)
        elif self._plain_term(q):
            return self._term_mask(searcher, q, generation, scored=True)
        else:
            mask = mask_of(searcher.docs_for_query(q), self.masks.size) & live
        self.cache.store(key, mask)
        return mask

    @staticmethod
    def _plain_term(q: wq.Query) -> bool:
        """A word of the index (not a keyword or the user's layer: `mask` answers those)."""
        return (
            type(q) is wq.Term
            and isinstance(q.text, (str, bytes))
            and q.fieldname != "keyword"
            and q.fieldname not in LAYER_FIELDS
        )

    def _term_mask(self, searcher: Searcher, q: wq.Term, generation: int, scored: bool) -> int:
        """The documents holding the word, from one posting list read in blocks (far
        cheaper than Whoosh's matcher machinery). A word the ranking scores (`scored`, in
        a text field) is read with its scores: its postings once, not once for the mask
        and again for the ranking (index.search.term_scores)."""
        key = ("mask", q, generation)
        cached = self.cache.fetch(key)
        if cached is not None:
            return cached
        if q.fieldname == "prefix" and self.starts is not None:
            mask = self.starts(str(q.text))
        elif scored and q.fieldname in TEXT_FIELDS:
            mask = self.term_scores.mask(searcher, q.fieldname, q.text)
        else:
            ids = posting_ids(searcher.reader(), q.fieldname, q.text, self.term_scores.stored)
            mask = mask_of(ids, self.masks.size)
        mask &= self.masks.live
        self.cache.store(key, mask)
        return mask

    def _phrase_mask(self, searcher: Searcher, q: wq.Phrase, candidates: int) -> int:
        """The documents among `candidates` (holding every word) that hold the phrase.

        Only the candidates' positions are read (index.whoosh_ext.blocks.phrase_ids);
        Whoosh's matcher answers when that fast path cannot (and raises what it raises
        for a field without positions).
        """
        size = self.masks.size
        try:
            field = searcher.schema[q.fieldname]
        except KeyError:  # Whoosh's phrase matcher matches nothing then
            return 0
        found = None
        if self.phrases is not None:
            answered = self.phrases(q, candidates)
            if answered is not None:
                return answered
        if field.format is not None and field.format.supports("positions"):
            try:
                terms = [field.to_bytes(word) for word in q.words]
            except ValueError:  # Whoosh's phrase matcher matches nothing then
                return 0
            found = phrase_ids(
                searcher.reader(), q.fieldname, terms, q.slop, member_test(candidates, size)
            )
        if found is None:
            found = list(searcher.docs_for_query(q))
        return mask_of(found, size)
