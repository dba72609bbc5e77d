"""Exact phrases on a lean first index, from the library's text.

The lean index keeps no positions (index.store.lean), and Whoosh's phrase matcher raises
on a field without them. Its word postings still give a phrase's candidates exactly: the
papers holding every word in the field (index.search.matching). `LeanPhrases` then reads
each candidate's field from the library, analysed as the full build analyses it
(index.schema.analysis: the same tokenizer, folding, stop words and stems, the stop words'
positions closed up, the gap `AUTHOR_GAP` leaves between two authors), and keeps those
where the words follow each other as Whoosh's `Phrase` requires (`SpanNear2`, ordered,
`mindist` 1): each next word 1 to `slop` positions after where the phrase so far ended,
the rule `index.whoosh_ext.blocks.phrase_ids` applies to the full index's positions. So a
phrase matches the full index's papers; its score is its words' (Whoosh's `Phrase` sums
its words' scores), which the lean index has, so its rows are the full index's too.

A common phrase has thousands of candidates, and analysing a whole abstract costs ~0.2 ms
(at 20,000 papers "large scale" has 5,700 candidates: 1.3 s). So a prose field (title,
abstract) in ASCII, by far the commonest, is not analysed whole for a phrase
(`prose_holds`): its first word's places are found with `str.find` (a word's Porter
stem, less its last letter, always begins the word: tested over 100,000 words of real
bibliographies), and only the words from there on are analysed, each as the full build
analyses it, until the phrase is matched or missed. Any other field or text (names,
accents) is analysed whole, and its words kept per field and paper (`TOKEN_CACHE`
entries, least recently used dropped) for the next keystroke.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from whoosh import query as wq
from whoosh.fields import Schema

from index.cancel import checkpoint
from index.models import Paper
from index.schema.analysis import (
    _TOKEN,
    AUTHOR_GAP,
    PROSE_STOP_WORDS,
    FastFoldText,
    FastStemText,
    cached_stem,
    folded_words,
)
from index.search.bitsets import Lru, bits, mask_of

__all__ = ["TOKEN_CACHE", "LeanPhrases", "field_tokens", "holds_phrase", "prose_holds"]

# Papers' analysed fields kept (one entry a field of a paper): ~1.3 KB an abstract of 150
# words (the word strings are shared by the stem cache), ~50 MB at most.
TOKEN_CACHE = 40_000
# StopFilter's default shortest word (index.schema.analysis: shorter ones are dropped).
_MIN_SIZE = 2
Tokens = tuple[str | None, ...]


def field_text(paper: Paper, fieldname: str) -> str:
    """The field's text as `index.schema.fields.document` gives it to the full build."""
    if fieldname == "title":
        return paper.title
    if fieldname == "short_name":
        return paper.short_name or ""
    if fieldname == "authors":
        return f" {AUTHOR_GAP} ".join(paper.authors)
    if fieldname == "abstract":
        return paper.abstract
    if fieldname == "venue":
        return paper.venue or ""
    raise KeyError(fieldname)


def field_tokens(paper: Paper, fieldname: str, stemmed: bool) -> Tokens:
    """The field's terms in position order, one a position: what the full build stores.

    Stemmed prose (`FastStemText`) drops stop words and renumbers the rest, so its terms
    are consecutive; a folded field (`FastFoldText`) keeps every word where it stands, the
    gap between two authors a None that no word matches.
    """
    words = folded_words(field_text(paper, fieldname))
    if stemmed:
        return tuple(
            cached_stem(word)
            for word in words
            if len(word) >= _MIN_SIZE and word not in PROSE_STOP_WORDS
        )
    return tuple(None if word == AUTHOR_GAP else word for word in words)


def holds_phrase(tokens: Tokens, words: Sequence[str], slop: int) -> bool:
    """Whether `words` follow each other in `tokens` as Whoosh's `Phrase` matches them:
    each next word 1 to `slop` positions after a position the phrase so far ended at."""
    first = words[0]
    if first not in tokens:
        return False
    starts = [i for i, token in enumerate(tokens) if token == first]
    rest = list(words[1:])
    if slop == 1:  # the words side by side: compare slices in C
        width = len(rest)
        return any(list(tokens[i + 1 : i + 1 + width]) == rest for i in starts)
    reached = set(starts)
    for word in rest:
        ends = {
            i
            for i, token in enumerate(tokens)
            if token == word and any(0 < i - end <= slop for end in reached)
        }
        if not ends:
            return False
        reached = ends
    return True


def _starts_token(text: str, at: int) -> bool:
    """Whether the tokenizer (`\\w+(?:\\.?\\w+)*`) begins a word at `at` of ASCII `text`:
    not inside a word, nor after a dot that joins it to the word before (`v3.2x`)."""
    if at == 0:
        return True
    before = text[at - 1]
    if before.isalnum() or before == "_":
        return False
    if before == "." and at >= 2:
        joined = text[at - 2]
        return not (joined.isalnum() or joined == "_")
    return True


def prose_holds(text: str, words: Sequence[str], slop: int = 1) -> bool:
    """Whether stemmed prose `text` (ASCII) holds the stems `words` as a phrase, as
    `holds_phrase(field_tokens(...), words, slop)` says, analysing only from each place
    its first word may stand (module docstring): a match beginning there lies within the
    next `slop` kept words for each word after the first."""
    low = text.lower()
    first = words[0]
    start = first[: max(1, len(first) - 1)]
    rest = words[1:]
    at = low.find(start)
    while at != -1:
        if _starts_token(low, at):
            token = _TOKEN.match(low, at)
            if token is not None:
                word = token.group()
                kept = len(word) >= _MIN_SIZE and word not in PROSE_STOP_WORDS
                if kept and cached_stem(word) == first:
                    if slop == 1:
                        if _followed_by(low, token.end(), rest):
                            return True
                    elif holds_phrase(
                        (first, *_kept_stems(low, token.end(), len(rest) * slop)), words, slop
                    ):
                        return True
                at = token.end() - 1
        at = low.find(start, at + 1)
    return False


def _followed_by(low: str, at: int, rest: Sequence[str]) -> bool:
    """Whether the kept words of `low` from `at` on begin with the stems `rest`."""
    if not rest:
        return True
    matched = 0
    for token in _TOKEN.finditer(low, at):
        word = token.group()
        if len(word) < _MIN_SIZE or word in PROSE_STOP_WORDS:
            continue
        if cached_stem(word) != rest[matched]:
            return False
        matched += 1
        if matched == len(rest):
            return True
    return False


def _kept_stems(low: str, at: int, count: int) -> list[str]:
    """The stems of the next `count` kept words of `low` from `at` on."""
    stems: list[str] = []
    if count <= 0:
        return stems
    for token in _TOKEN.finditer(low, at):
        word = token.group()
        if len(word) >= _MIN_SIZE and word not in PROSE_STOP_WORDS:
            stems.append(cached_stem(word))
            if len(stems) == count:
                break
    return stems


class LeanPhrases:
    """Answers a phrase among its candidates from the library (module docstring).

    Args:
        schema: the lean index's schema (its fields' analysers are the full build's).
        paper_of: the library's paper of a document number (None: no paper, no match).
        size: the index's document count (the masks' width).
    """

    def __init__(self, schema: Schema, paper_of: Callable[[int], Paper | None], size: int) -> None:
        self._stemmed = {
            name: isinstance(field, FastStemText)
            for name, field in schema.items()
            if isinstance(field, (FastStemText, FastFoldText))
        }
        self._paper_of = paper_of
        self._size = size
        self._tokens = Lru(TOKEN_CACHE)

    def forget(self) -> None:
        """Drops the analysed fields kept (the engine's `forget_cached`)."""
        with self._tokens.lock:
            self._tokens.clear()

    def tokens(self, docnum: int, fieldname: str) -> Tokens:
        """The document's analysed field, kept for the next phrase of the same papers."""
        key = (fieldname, docnum)
        found: Tokens | None = self._tokens.fetch(key)
        if found is None:
            paper = self._paper_of(docnum)
            found = (
                () if paper is None else field_tokens(paper, fieldname, self._stemmed[fieldname])
            )
            self._tokens.store(key, found)
        return found

    def mask(self, q: wq.Phrase, candidates: int) -> int | None:
        """The documents of `candidates` (holding every word in the field) holding `q`
        as a phrase; None for a field the full index keeps no positions for either (the
        caller asks Whoosh, which answers as it does there)."""
        fieldname = q.fieldname
        if fieldname not in self._stemmed:
            return None
        words = [str(word) for word in q.words]
        slop = q.slop
        prose = self._stemmed[fieldname] and slop >= 1
        found: list[int] = []
        for n, docnum in enumerate(bits(candidates)):
            if not n % 256:
                checkpoint()  # a superseded search stops here (index.cancel)
            if prose:
                paper = self._paper_of(docnum)
                text = field_text(paper, fieldname) if paper is not None else ""
                if text.isascii():
                    if prose_holds(text, words, slop):
                        found.append(docnum)
                    continue
            if holds_phrase(self.tokens(docnum, fieldname), words, slop):
                found.append(docnum)
        return mask_of(found, self._size)
