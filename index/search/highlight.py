"""Highlighting as plain segments, computed only for the rows a caller will show.

Whoosh's own highlighter re-expands prefix and fuzzy queries against the lexicon for every
hit (docs/whoosh.md); here the query's words are prepared once per request and each text is
scanned with one regular expression, matching the way the index does (folded accents,
English stems, "word*" as a prefix).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from functools import lru_cache

from index.models import Segment, Snippet
from index.schema.analysis import cached_stem, fold_word

# The default RegexTokenizer's idea of a word, so highlighting agrees with the index.
_TOKEN = re.compile(r"\w+(\.?\w+)*")
# How many characters of abstract a result row shows around its best match.
FRAGMENT_CHARS = 240
# Texts one highlighter remembers the spans of: a page of hits' fields, with room to spare.
_REMEMBERED_TEXTS = 1_000


@lru_cache(maxsize=100_000)
def _folded(token: str) -> tuple[str, str]:
    """A text's word as the index sees it: folded, and its stem (the same for every query)."""
    word = fold_word(token)
    return word, cached_stem(word)


class Highlighter:
    """Decides which words of a text match a query's words; built once per request.

    A wildcard word (`a*e*`, `s?e*`) is matched as the pattern it is, against the words as
    written. Each distinct word's verdict is remembered, and each text's spans: a page of
    50 abstracts repeats most of its words, a hit's abstract was scanned twice (does it
    match, then its fragment), and folding and stemming every word again was most of a
    broad query's time on a small library.
    """

    def __init__(self, terms: Sequence[str]) -> None:
        self.words: set[str] = set()
        self.stems: set[str] = set()
        self.patterns: list[re.Pattern[str]] = []
        self._verdicts: dict[str, bool] = {}
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

    def __bool__(self) -> bool:
        return bool(self.words or self.prefixes or self.patterns)

    def matches(self, token: str) -> bool:
        verdict = self._verdicts.get(token)
        if verdict is None:
            word, stemmed = _folded(token)
            verdict = (
                word in self.words
                or stemmed in self.stems
                or (bool(self.prefixes) and word.startswith(self.prefixes))
                or (bool(self.patterns) and any(p.match(word) for p in self.patterns))
            )
            self._verdicts[token] = verdict
        return verdict

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Start and end of every matching word in `text` (remembered per text)."""
        if not self:
            return []
        found = self._spans.get(text)
        if found is None:
            verdicts, matches = self._verdicts, self.matches
            found = []
            for match in _TOKEN.finditer(text):
                token = match.group(0)
                verdict = verdicts.get(token)
                if verdict if verdict is not None else matches(token):
                    found.append(match.span())
            if len(self._spans) < _REMEMBERED_TEXTS:
                self._spans[text] = found
        return found

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
