"""Fuzzy words made cheap: each Levenshtein automaton built once, the word lists walked once.

Whoosh turns a word into a Levenshtein automaton (an NFA made deterministic, in pure
Python) every time a fuzzy term is expanded, matched or scored, for every segment, and
again for each distance its spelling corrector tries. A 26-letter word at two edits costs
~9 ms per automaton, a 10-letter one ~2 ms, and one fuzzy query built a dozen of them. Here
an automaton is built once per (word, edits, fixed prefix) and reused by every field, the
surface-word list and "did you mean", and a field's word list is walked with Whoosh's own
skipping search over a term cursor (`Automata.find_matches`: the automaton says which
word to jump to next), the same walk `IndexReader.terms_within` does.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from functools import lru_cache

from whoosh.automata.fsa import DFA, find_all_matches
from whoosh.automata.lev import levenshtein_automaton
from whoosh.codec.base import Automata
from whoosh.reading import IndexReader
from whoosh.support.levenshtein import levenshtein

import index.whoosh_ext as guard
from index.cancel import checkpoint

__all__ = ["automaton", "clear_automata", "distance", "list_words_within", "words_within"]

# Automata kept: a session's fuzzy words and misspellings are few, and each is ~10-100 KB.
AUTOMATA = 64


@lru_cache(maxsize=AUTOMATA)
def automaton(word: str, maxdist: int, prefix: int) -> DFA:
    """The DFA accepting every word within `maxdist` edits of `word` that keeps its first
    `prefix` letters (shared between threads: a built DFA is only read)."""
    return levenshtein_automaton(word, maxdist, prefix).to_dfa()


def clear_automata() -> None:
    """Forget every automaton (for measuring a first search honestly)."""
    automaton.cache_clear()


def distance(a: str, b: str) -> int:
    """The Levenshtein distance of `a` and `b`, the automata's own measure (no transpositions)."""
    return int(levenshtein(a, b))


def _each(words: Iterator[str]) -> Iterator[str]:
    for found in words:
        checkpoint()  # a cancelled search stops here (index.cancel)
        yield found


def words_within(
    reader: IndexReader,
    fieldname: str,
    word: str,
    maxdist: int,
    prefix: int,
    limit: int,
) -> list[str]:
    """Up to `limit` of the field's words within `maxdist` edits of `word`, in word order.

    The stock path asks the reader (`terms_within`, which builds the automaton itself).
    """
    found: Iterator[str]
    if guard.fast_paths_enabled():
        dfa = automaton(word, maxdist, prefix)
        texts: set[str] = set()
        # Segment by segment: Whoosh's MultiCursor calls a `term()` its segment cursors
        # do not have.
        for leaf, _offset in reader.leaf_readers():
            try:
                cursor = leaf.cursor(fieldname)
            except KeyError:  # not a field of this index
                return []
            texts.update(_each(Automata.find_matches(dfa, cursor)))
        found = iter(sorted(texts))
    else:
        found = reader.terms_within(fieldname, word, maxdist, prefix)
    words: list[str] = []
    for text in _each(found):
        words.append(text.decode("utf-8") if isinstance(text, bytes) else str(text))
        if len(words) >= limit:
            break
    return words


def list_words_within(
    words: Sequence[str],
    word: str,
    maxdist: int,
    prefix: int,
) -> list[str]:
    """The words of a sorted list within `maxdist` edits of `word` (keeping `prefix` letters)."""

    def skipper(text: str) -> str | None:
        i = bisect_left(words, text)
        return words[i] if i < len(words) else None

    found = find_all_matches(automaton(word, maxdist, prefix), skipper)
    return list(_each(found))
