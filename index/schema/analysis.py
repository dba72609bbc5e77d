"""Text analysis for the index: the analyzers, and fast paths for the bulky fields.

Analysis dominates the build (docs/whoosh.md). Whoosh runs every word through a chain of
generator filters and Token objects; for the fields holding most words (abstract and title
stems, the edge n-grams) `FastStemText` and `FastNgramText` compute exactly the same
postings in one plain loop at index time, and so do `FastFoldText` (authors, short name,
venue) and `FastListText` (the whole-value lists: topics, facets, sources), whose Token
chains cost ~0.09 ms a paper for ~25 postings (0.04 ms in these loops). Queries, phrases
and highlighting still use the analyzers, and tests/index/schema/test_analysis.py checks
both give identical postings.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh import fields
from whoosh.analysis import (
    Analyzer,
    Filter,
    LowercaseFilter,
    NgramFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.analysis.acore import Token
from whoosh.analysis.filters import STOP_WORDS
from whoosh.lang.porter import stem as porter_stem
from whoosh.support.charset import accent_map as _accent_map
from whoosh.system import pack_uint

# Longest word prefix the edge n-gram field answers; longer prefixes scan the lexicon.
MAX_GRAM = 20
# Written between two authors and dropped by the analyzer: phrases cannot span two names.
AUTHOR_GAP = "zzauthorgapzz"
# Separates the values of a multi-valued field (authors, topics): a character no name holds.
SEP = "\x1f"
# RegexTokenizer's default pattern, without its capturing group (for `findall`).
_TOKEN = re.compile(r"\w+(?:\.?\w+)*")
# Whoosh's accent folding, plus the sub- and superscript digits and letters a title's math
# is shown with (`index.library.math_scripts`): "CrO₂" is found by `cro2`, "x²" by `x2`.
accent_map: dict[int, str] = {
    **_accent_map,
    **{ord(c): a for c, a in zip("₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", "0123456789aehijklmnoprstuvx")},
    **{
        ord(c): a
        for c, a in zip(
            "⁰¹²³⁴⁵⁶⁷⁸⁹ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ",
            "0123456789abcdefghijklmnoprstuvwxyzabdeghijklmnoprtuvw",
        )
    },
}

# StopFilter's defaults: its list, and words shorter than two letters.
PROSE_STOP_WORDS = STOP_WORDS
_MIN_SIZE = 2


class FoldFilter(Filter):
    """Strips accents like `CharsetFilter(accent_map)`, skipping ASCII words (nearly all).

    `str.isascii` is far cheaper than `str.translate`, and the analyzer runs once per word
    of every abstract: this is build time (docs/whoosh.md: the analysis dominates).
    """

    def __eq__(self, other: object) -> bool:
        return other is not None and self.__class__ is other.__class__

    def __hash__(self) -> int:
        return hash(self.__class__)

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for token in tokens:
            if not token.text.isascii():
                token.text = token.text.translate(accent_map)
            yield token


def fold_word(word: str) -> str:
    """A word lower-cased and without accents, as every analyzer of the schema leaves it
    (the query side, highlighting and prefix checks compare words this way)."""
    return word.lower().translate(accent_map)


@lru_cache(maxsize=500_000)
def cached_stem(word: str) -> str:
    """Porter stems through C's lru_cache: Whoosh's own stem cache is pure Python and slower.

    Module-level (not a lambda or a wrapped `stem`) so the schema Whoosh pickles into its
    table of contents can name it.
    """
    return porter_stem(word)


def fold_analyzer() -> Analyzer:
    """Lower-case and strip accents, no stemming: names ("Stark" finds "Stärk")."""
    return RegexTokenizer() | LowercaseFilter() | FoldFilter()


def stem_analyzer() -> Analyzer:
    """Prose: folded, stop words dropped, English stems.

    Positions are renumbered after the stop words go: the query parser analyzes a phrase
    with this same analyzer and looks for its remaining words at consecutive positions, so
    "mixture of experts" must be indexed as "mixtur expert" next to each other.
    """
    return (
        RegexTokenizer()
        | LowercaseFilter()
        | FoldFilter()
        | StopFilter(renumber=True)
        | StemFilter(stemfn=cached_stem, cachesize=None)
    )


def authors_analyzer() -> Analyzer:
    """Folded names; the `AUTHOR_GAP` token between two names is dropped but leaves a gap."""
    return fold_analyzer() | StopFilter(stoplist=frozenset([AUTHOR_GAP]), minsize=1, renumber=False)


def prefix_analyzer() -> Analyzer:
    """Edge n-grams of folded words: every prefix of every short-field word is a term."""
    return fold_analyzer() | NgramFilter(1, MAX_GRAM, at="start")


def list_analyzer(lowercase: bool) -> Analyzer:
    """Whole values separated by `SEP`, so "nvidia-gpu" or "Cody Hao Yu" stay one term."""
    tokenizer = RegexTokenizer(f"[^{SEP}]+")
    return tokenizer | LowercaseFilter() if lowercase else tokenizer


# Encoded position lists of a single position below this are computed once.
_SINGLES = 4096


@lru_cache(maxsize=_SINGLES)
def _single(pos: int) -> bytes:
    """`Positions.encode([pos])`: a term once in a text, the commonest posting by far."""
    return pack_uint(1) + pickle.dumps([pos], 2)


def folded_words(value: str) -> list[str]:
    """The tokenizer's words, lower-cased and accent-folded, as the analyzers see them.

    An ASCII text (nearly every abstract) is lower-cased whole before it is split: case
    changes no ASCII character's class, so the words are the same, with no call per word.
    """
    if value.isascii():
        return _TOKEN.findall(value.lower())
    return [
        word if word.isascii() else word.translate(accent_map)
        for word in map(str.lower, _TOKEN.findall(value))
    ]


def _stem_counts(value: str) -> dict[str, int]:
    """Each stem of `value`'s prose words with its count (stop words and one-letter
    words left out), in the order the stems first occur."""
    counts: dict[str, int] = {}
    for word in folded_words(value):
        if len(word) >= _MIN_SIZE and word not in PROSE_STOP_WORDS:
            stem = cached_stem(word)
            counts[stem] = counts.get(stem, 0) + 1
    return counts


class CountedText(fields.TEXT):
    """A TEXT field that can hand a Whoosh writer its terms' counts at once.

    `term_counts(value)` is what `index(value)` gives on a `Frequency` format, each
    posting `(text.encode("utf-8"), count, count * format.field_boost,
    pack_uint(count))`, as a dict of each term's count; None when the field keeps
    positions or the value is not plain text. The build's pool
    (index.whoosh_ext.term_pool) keeps such a posting as its document and count alone:
    no tuple made and taken apart per posting.
    """

    def term_counts(self, value: Any) -> dict[str, int] | None:
        if not isinstance(value, str) or self.format.supports("positions"):
            return None
        return self.counts(value)

    def counts(self, value: str) -> dict[str, int]:
        """Each term of `value` with its count (a subclass's analysis, without positions)."""
        raise NotImplementedError

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if kwargs or not isinstance(value, str):  # anything unusual: Whoosh's own way
            yield from super().index(value, **kwargs)
        elif self.format.supports("positions"):
            yield from self.index_positions(value)
        else:
            yield from _counted(self.format.field_boost, self.counts(value))

    def index_positions(self, value: str) -> Iterator[tuple[bytes, int, float, bytes]]:
        """`index` of plain text in a field with positions: Whoosh's own, unless a
        subclass analyses it itself."""
        yield from super().index(value)


class FastStemText(CountedText):
    """A TEXT field over `stem_analyzer` whose index-time analysis is one plain loop."""

    def terms(self, value: str) -> set[str]:
        """The distinct terms `index` gives for `value`, without their positions (an
        in-place update counts the terms of the documents it adds and removes)."""
        return set(_stem_counts(value))

    def counts(self, value: str) -> dict[str, int]:
        return _stem_counts(value)

    def index_positions(self, value: str) -> Iterator[tuple[bytes, int, float, bytes]]:
        positions: dict[str, list[int]] = {}
        pos = -1
        for index, word in enumerate(folded_words(value)):
            if len(word) < _MIN_SIZE or word in PROSE_STOP_WORDS:
                continue
            # StopFilter(renumber=True): the first kept word keeps its own position, the
            # next ones follow it without gaps.
            pos = index if pos < 0 else pos + 1
            stem = cached_stem(word)
            found = positions.get(stem)
            if found is None:
                positions[stem] = [pos]
            else:
                found.append(pos)
        yield from _positioned(self.format, positions)


@lru_cache(maxsize=256)
def _count_bytes(count: int) -> bytes:
    """`Frequency.encode(count)`: the same few small counts, encoded once."""
    return pack_uint(count)


def _counted(boost: float, counts: dict[str, int]) -> Iterator[tuple[bytes, int, float, bytes]]:
    """What `Frequency.word_values` gives for words with these counts."""
    for text, count in counts.items():
        yield text.encode("utf-8"), count, count * boost, _count_bytes(count)


def _positioned(
    format: Any, positions: dict[str, list[int]]
) -> Iterator[tuple[bytes, int, float, bytes]]:
    """What `Positions.word_values` gives for words at these positions."""
    encode, boost = format.encode, format.field_boost
    for text, found in positions.items():
        if len(found) == 1 and found[0] < _SINGLES:  # most terms: one position
            yield text.encode("utf-8"), 1, boost, _single(found[0])
        else:
            yield text.encode("utf-8"), len(found), len(found) * boost, encode(found)


class FastNgramText(CountedText):
    """A TEXT field (no positions) over `prefix_analyzer`: edge n-grams in one loop."""

    def counts(self, value: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        for word in folded_words(value):
            for size in range(1, min(MAX_GRAM, len(word)) + 1):
                gram = word[:size]
                counts[gram] = counts.get(gram, 0) + 1
        return counts


class FastFoldText(CountedText):
    """A TEXT field with positions over `fold_analyzer` (names: authors, a short name,
    a venue), less the `dropped` words (`authors_analyzer` drops `AUTHOR_GAP` and keeps
    its position), analysed at index time in one loop."""

    def __init__(self, *, dropped: frozenset[str] = frozenset(), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dropped = dropped

    def counts(self, value: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        dropped = self.dropped
        for word in folded_words(value):
            if word not in dropped:
                counts[word] = counts.get(word, 0) + 1
        return counts

    def index_positions(self, value: str) -> Iterator[tuple[bytes, int, float, bytes]]:
        positions: dict[str, list[int]] = {}
        dropped = self.dropped
        for pos, word in enumerate(folded_words(value)):
            if word in dropped:
                continue
            found = positions.get(word)
            if found is None:
                positions[word] = [pos]
            else:
                found.append(pos)
        yield from _positioned(self.format, positions)


class FastListText(CountedText):
    """A TEXT field without positions over `list_analyzer`: each value between two
    `SEP`s one term (lower-cased when `lowercase`), counted in one loop."""

    def __init__(self, *, lowercase: bool, **kwargs: Any) -> None:
        super().__init__(phrase=False, **kwargs)
        self.lowercase = lowercase

    def counts(self, value: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        lowercase = self.lowercase
        for piece in value.split(SEP):
            if piece:
                if lowercase:  # each value as LowercaseFilter lowers its token
                    piece = piece.lower()
                counts[piece] = counts.get(piece, 0) + 1
        return counts
