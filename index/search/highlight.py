"""Highlighting as plain segments, computed only for the rows a caller will show.

Whoosh's own highlighter re-expands prefix and fuzzy queries against the lexicon for every
hit (docs/whoosh.md); here the query's words are prepared once per request and matched the
way the index does (folded accents, English stems, "word*" as a prefix).

Each text's words are found once, not once per request (`_words_of`): searching as you
type shows mostly the same papers keystroke after keystroke (at 10,000 papers three rows
in four of the `prefix-3+` stage had been shown before), and tokenising and folding every
word of 20 abstracts again was much of such a keystroke (issue 50). A request then only
asks which of a text's distinct words its terms match: a range of the sorted words for a
prefix, and for a whole word the stems of the words that begin with its stem's letter
only. Stemming every word of a new abstract was most of showing it (Whoosh's Porter
stemmer is Python, ~3 us a word not seen before), and a query being typed often has no
whole word. The remembered words depend only on the text, so nothing needs forgetting
when the library or the user's layer changes.
"""

from __future__ import annotations

import fnmatch
import re
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate, compress
from sys import intern
from typing import NamedTuple

from index.models import Segment, Snippet
from index.schema.analysis import cached_stem, fold_word

# The default RegexTokenizer's idea of a word, so highlighting agrees with the index.
_TOKEN = re.compile(r"\w+(\.?\w+)*")
# The same words (a dot joins two only when a word character follows it), as one group:
# `re.split` keeps them between the text around them.
_SPLIT = re.compile(r"(\w+(?:\.\w+)*)")
# How many characters of abstract a result row shows around its best match.
FRAGMENT_CHARS = 240
# Texts whose words are remembered (`_words_of`), and whose spans one highlighter remembers:
# a page of 20 hits has up to 100 texts (title, short name, authors, abstract, venue), so
# this is 40 pages, ~800 papers (~6 MB of generated papers' texts).
_REMEMBERED_TEXTS = 4_000

# A text's word as the index sees it (the same for every query). Whoosh's accent map
# leaves lower-case ASCII as it is (the index's FoldFilter skips ASCII words too).
_fold = lru_cache(maxsize=100_000)(fold_word)


class _Words(NamedTuple):
    """One text's words as the index sees them, and where each occurs."""

    words: tuple[str, ...]  # the distinct folded words, sorted: a prefix's are adjacent
    folded: tuple[str, ...]  # each token's folded word, in text order
    bounds: array[int]  # where each token starts and ends: the text between, then a token


@lru_cache(maxsize=_REMEMBERED_TEXTS)
def _words_of(text: str) -> _Words:
    """`text`'s words, tokenised as the index does (remembered: they depend on it alone).

    Split rather than matched one by one: the parts alternate between the text between
    words and a word, so their lengths' running sums are where each word starts and ends.
    An ASCII text is lower-cased whole, which folds its every word (`_fold`) in one call
    and keeps every position. The words are interned (a page of abstracts shares most)
    and the positions kept as 16-bit numbers when they fit: ~6 kB for an abstract.
    """
    if text.isascii():
        parts = _SPLIT.split(text.lower())
        folded = tuple(map(intern, parts[1::2]))
    else:
        parts = _SPLIT.split(text)
        folded = tuple(map(_fold, parts[1::2]))
    bounds = array("H" if len(text) < 1 << 16 else "I", accumulate(map(len, parts)))
    return _Words(tuple(sorted(set(folded))), folded, bounds)


def forget() -> None:
    """Forget every remembered text's words (`SearchEngine.forget_cached`: a search then
    does all of its work, as a session's first does)."""
    _words_of.cache_clear()


def _starting(words: tuple[str, ...], prefix: str) -> tuple[str, ...]:
    """The sorted `words` that start with `prefix`."""
    first = bisect_left(words, prefix)
    last = first
    while last < len(words) and words[last].startswith(prefix):
        last += 1
    return words[first:last]


class Highlighter:
    """Decides which words of a text match a query's words; built once per request.

    A wildcard word (`a*e*`, `s?e*`) is matched as the pattern it is, against the words as
    written. Each text's spans are remembered for the request: a hit's abstract is asked
    twice (does it match, then its fragment).
    """

    def __init__(self, terms: Sequence[str]) -> None:
        self.words: set[str] = set()
        self.stems: set[str] = set()
        self.patterns: list[re.Pattern[str]] = []
        self._spans: dict[str, list[tuple[int, int]]] = {}
        prefixes: list[str] = []
        for term in terms:
            if "?" in term or "*" in term.rstrip("*"):
                self.patterns.append(re.compile(fnmatch.translate(fold_word(term))))
                continue
            found = [m.group(0) for m in _TOKEN.finditer(fold_word(term))]
            for i, word in enumerate(found):
                if term.endswith("*") and i == len(found) - 1:
                    prefixes.append(word)
                else:
                    self.words.add(word)
                    self.stems.add(cached_stem(word))
        self.prefixes = tuple(sorted(set(prefixes)))
        # Porter keeps a word's first letter (it replaces suffixes after a non-empty stem,
        # and leaves words under three letters alone): a word can share a stem of the
        # query's only if it begins with that stem's letter.
        self._stem_letters = tuple(sorted({stem[:1] for stem in self.stems}))

    def __bool__(self) -> bool:
        return bool(self.words or self.prefixes or self.patterns)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Start and end of every matching word in `text` (remembered per text)."""
        if not self:
            return []
        found = self._spans.get(text)
        if found is None:
            found = self._found(_words_of(text))
            if len(self._spans) < _REMEMBERED_TEXTS:
                self._spans[text] = found
        return found

    def _found(self, text: _Words) -> list[tuple[int, int]]:
        """The spans of `text`'s tokens whose folded word is one of the query's words or
        shares a stem with one (its own is one of the stems), starts with a prefix or fits
        a pattern."""
        words = text.words
        hit: set[str] = set()
        for letter in self._stem_letters:
            hit.update(w for w in _starting(words, letter) if cached_stem(w) in self.stems)
        for prefix in self.prefixes:
            hit.update(_starting(words, prefix))
        if self.patterns:
            hit.update(w for w in words if any(p.match(w) for p in self.patterns))
        if not hit:
            return []
        spans = zip(text.bounds[0::2], text.bounds[1::2])
        return list(compress(spans, map(hit.__contains__, text.folded)))

    def whole(self, text: str) -> Snippet:
        """All of `text`, matching words highlighted (titles, the detail view)."""
        return _segments(text, self.spans(text), 0, len(text))

    def fragment(self, text: str, width: int = FRAGMENT_CHARS) -> Snippet:
        """About `width` characters of `text` around its densest run of matches."""
        if len(text) <= width:
            return self.whole(text)
        spans = self.spans(text)
        start = 0
        if spans:
            best, best_count = spans[0][0], 0
            right = 0
            for left, (begin, _) in enumerate(spans):
                while right < len(spans) and spans[right][1] <= begin + width:
                    right += 1
                if right - left > best_count:
                    best, best_count = begin, right - left
            start = max(0, best - width // 6)
            while start > 0 and not text[start - 1].isspace():
                start -= 1
        end = min(len(text), start + width)
        while end < len(text) and not text[end].isspace() and end - start < width + 30:
            end += 1
        snippet = _segments(text, spans, start, end)
        segments = list(snippet.segments)
        if start > 0:
            segments.insert(0, Segment("…"))
        if end < len(text):
            segments.append(Segment("…"))
        return Snippet(tuple(segments))

    def any_in(self, text: str) -> bool:
        return bool(self.spans(text))


def _segments(text: str, spans: list[tuple[int, int]], start: int, end: int) -> Snippet:
    segments: list[Segment] = []
    position = start
    for begin, finish in spans:
        if finish <= start or begin >= end:
            continue
        begin, finish = max(begin, start), min(finish, end)
        if begin > position:
            segments.append(Segment(text[position:begin]))
        segments.append(Segment(text[begin:finish], True))
        position = finish
    if position < end:
        segments.append(Segment(text[position:end]))
    return Snippet(tuple(segments))
