"""The library's surface words (as written, not stemmed): for "did you mean" and fuzzy words.

The title and abstract fields hold Porter stems ("pipelin", "quantiz"), which are neither
what a user types nor close to a misspelling of it (`quantizaton` is 4 edits from
`quantiz`). So the build also counts the words as written (folded, lower case) in titles
and abstracts, in the main process and with one C regular expression per paper (a
second analyzed field would cost far more build time), and keeps them beside the index.
Suggestions and fuzzy expansions are found among these words; a fuzzy word then searches
the stems of the words found.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from whoosh.automata.fsa import find_all_matches
from whoosh.automata.lev import levenshtein_automaton
from whoosh.reading import IndexReader
from whoosh.spelling import ListCorrector
from whoosh.support.charset import accent_map

from index.atomic import write_text_atomic
from index.models import Paper
from index.schema.fields import cached_stem

WORDS_FILE = "words.json"
# Words as the index's tokenizer sees them (without the dotted forms like "3.2x").
_WORD = re.compile(r"[^\W\d_]{2,}")


def count_words(counts: Counter[str], paper: Paper) -> None:
    """Adds one to the document frequency of each distinct word of the paper's text."""
    text = f"{paper.title} {paper.abstract}".lower()
    if not text.isascii():
        text = text.translate(accent_map)
    counts.update(set(_WORD.findall(text)))


def write_words(folder: Path, counts: Counter[str]) -> None:
    write_text_atomic(
        Path(folder) / WORDS_FILE,
        json.dumps(dict(counts), ensure_ascii=False, separators=(",", ":")),
    )


def read_words(folder: Path) -> Counter[str] | None:
    """The counts beside an index, or None (an older index: callers fall back)."""
    try:
        data = json.loads((Path(folder) / WORDS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Counter(data) if isinstance(data, dict) else None


def add_words(folder: Path, papers: Iterable[Paper]) -> None:
    """Counts re-indexed papers' words in (an in-place update; old counts are not taken
    out, which only ever keeps a word a little longer than its last paper)."""
    counts = read_words(folder)
    if counts is None:
        return
    for paper in papers:
        count_words(counts, paper)
    write_words(folder, counts)


class Lexicon:
    """Surface words with their document frequencies, searchable by edit distance."""

    def __init__(self, counts: Counter[str]) -> None:
        self.counts = counts

    @cached_property
    def words(self) -> list[str]:
        """Sorted on first use: most sessions never misspell, and opening stays quick."""
        return sorted(self.counts)

    def __contains__(self, word: str) -> bool:
        return word in self.counts

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Words within `maxdist` edits sharing the first `prefix` letters, closest and
        then most frequent first (the word itself first when it is known)."""
        ranked: dict[str, int] = {word: 0} if word in self.counts else {}
        start = bisect_left(self.words, word[:prefix])
        if start == len(self.words) or not self.words[start].startswith(word[:prefix]):
            return list(ranked)
        for distance in range(1, maxdist + 1):
            dfa = levenshtein_automaton(word, distance, prefix).to_dfa()
            for found in find_all_matches(dfa, ListCorrector.Skipper(self.words)):
                ranked.setdefault(found, distance)
        return sorted(ranked, key=lambda w: (ranked[w], -self.counts[w], w))

    def suggest(self, word: str) -> str | None:
        """The likeliest intended word for an unknown one, or None."""
        maxdist = 2 if len(word) > 5 else 1
        found = [w for w in self.near(word, maxdist) if w != word]
        return found[0] if found else None


MAX_SUGGEST_CHARS = 32


def correct(reader: IndexReader, lexicon: Lexicon | None, words: Iterable[str]) -> str | None:
    """A "did you mean" query: each word found nowhere replaced by the likeliest real word.

    Names and short names are unstemmed fields: Whoosh's corrector over them suggests
    real names. Everything else comes from the surface words, never from the stems
    ("pipelne" -> "pipeline", not "pipelin").
    """
    changed = False
    fixed: list[str] = []
    for word in words:
        known = any(
            reader.doc_frequency(f, w)
            for f, w in (
                ("abstract", cached_stem(word)),
                ("title", cached_stem(word)),
                ("authors", word),
                ("short_name", word),
                ("venue", word),
                ("prefix", word),
            )
        )
        suggestion = None
        # No real word is longer than ~30 letters, and an edit-distance walk for a long
        # pasted token costs far more than the search it follows: not suggested.
        if not known and 3 < len(word) <= MAX_SUGGEST_CHARS:
            for fieldname in ("short_name", "authors"):
                found = reader.corrector(fieldname).suggest(
                    word, limit=1, maxdist=2 if len(word) > 5 else 1, prefix=1
                )
                if found:
                    suggestion = found[0]
                    break
            if suggestion is None and lexicon is not None:
                suggestion = lexicon.suggest(word)
        fixed.append(suggestion or word)
        changed = changed or suggestion is not None
    return " ".join(fixed) if changed else None
