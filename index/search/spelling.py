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
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cached_property, lru_cache
from pathlib import Path

from whoosh.reading import IndexReader

from index.atomic import write_text_atomic
from index.cancel import checkpoint
from index.models import Paper
from index.schema.analysis import accent_map
from index.schema.fields import cached_stem
from index.whoosh_ext.fuzzy import distance, list_words_within, words_within

WORDS_FILE = "words.json"
# The letters a fuzzy word or a correction keeps as typed among the surface words (a
# first-letter typo is rare, and the automaton's walk shrinks ~20x); the second may be
# wrong (`sheduling`). Names and venues keep two (`NAME_PREFIX`): the walk halves again.
FIXED_PREFIX = 1
NAME_PREFIX = 2
# Words up to this long may be two edits off; longer ones one (see `allowed_edits`).
LONG_WORD = 10
# Words one fuzzy term or one correction considers (the closest, most frequent first).
NEAR_CAP = 32
# Lookups a lexicon remembers.
NEAR_CACHE = 256
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


def saved_lexicon(folder: Path) -> Lexicon | None:
    """The lexicon of the counts saved beside an index, read when first needed; None for
    an older index without them (callers fall back).

    Only a fuzzy word or a "did you mean" needs it, and at 100,000 papers reading the
    file is 0.1 s of every open: the start's first page does not wait for it.
    """
    if not (Path(folder) / WORDS_FILE).is_file():
        return None
    return Lexicon(lambda: read_words(folder) or Counter())


def add_words(folder: Path, papers: Iterable[Paper]) -> None:
    """Counts re-indexed papers' words in (an in-place update; old counts are not taken
    out, which only ever keeps a word a little longer than its last paper)."""
    counts = read_words(folder)
    if counts is None:
        return
    for paper in papers:
        count_words(counts, paper)
    write_words(folder, counts)


def allowed_edits(length: int) -> int:
    """The most edits a word of `length` letters may be from what it matches.

    Two letters or fewer: none (one edit of `a` is every one- and two-letter word); up to
    five: one; up to `LONG_WORD`: two. Longer words get one again: Whoosh's automaton
    grows with length times edits, and at two edits it costs more than the search it
    serves (CPU time, a 47-paper library: 12 letters ~3.5 ms to build, 26 letters ~9 ms,
    against ~3.5 ms for a whole two-word search; at one edit ~0.5-1 ms).
    """
    if length <= 2:
        return 0
    if length <= 5 or length > LONG_WORD:
        return 1
    return 2


class Lexicon:
    """Surface words with their document frequencies, searchable by edit distance."""

    def __init__(self, counts: Counter[str] | Callable[[], Counter[str]]) -> None:
        if callable(counts):
            self._read = counts  # `counts` reads them on first use (`saved_lexicon`)
        else:
            self.__dict__["counts"] = counts
        # A fuzzy word is looked up for the title and the abstract, and again for "did you
        # mean": one walk serves all three.
        self.near = lru_cache(maxsize=NEAR_CACHE)(self._near)

    @cached_property
    def counts(self) -> Counter[str]:
        """Every surface word's document frequency (read on first use when saved)."""
        return self._read()

    def forget(self) -> None:
        """Drop the remembered lookups (the next one walks the words again)."""
        self.near.cache_clear()

    @cached_property
    def words(self) -> list[str]:
        """Sorted on first use: most sessions never misspell, and opening stays quick."""
        return sorted(self.counts)

    def __contains__(self, word: str) -> bool:
        return word in self.counts

    def _near(self, word: str, maxdist: int, prefix: int = FIXED_PREFIX) -> tuple[str, ...]:
        """Words within `maxdist` edits sharing the first `prefix` letters, closest and
        then most frequent first (the word itself first when it is known)."""
        ranked: dict[str, int] = {word: 0} if word in self.counts else {}
        if maxdist > 0:
            for found in list_words_within(self.words, word, maxdist, min(prefix, len(word))):
                ranked.setdefault(found, distance(word, found))
        return tuple(sorted(ranked, key=lambda w: (ranked[w], -self.counts[w], w)))

    def suggest(self, word: str) -> str | None:
        """The likeliest intended word for an unknown one, or None."""
        found = [w for w in self.near(word, allowed_edits(len(word))) if w != word]
        return found[0] if found else None


MAX_SUGGEST_CHARS = 32
# Unknown words one correction tries to fix: a paste of many made-up words is no typo, and
# each costs an automaton.
MAX_CORRECTED = 2


def field_suggestion(reader: IndexReader, fieldname: str, word: str) -> str | None:
    """The closest, most frequent of a field's words near `word` (an unstemmed field)."""
    maxdist = allowed_edits(len(word))
    if not maxdist:
        return None
    found = [
        w
        for w in words_within(reader, fieldname, word, maxdist, NAME_PREFIX, NEAR_CAP)
        if w != word
    ]
    if not found:
        return None
    return min(found, key=lambda w: (distance(word, w), -reader.doc_frequency(fieldname, w), w))


def correct(reader: IndexReader, lexicon: Lexicon | None, words: Iterable[str]) -> str | None:
    """A "did you mean" query: each word found nowhere replaced by the likeliest real word.

    Names and short names are unstemmed fields: their own words near a word are real
    names (`field_suggestion`). Everything else comes from the surface words, never from the stems
    ("pipelne" -> "pipeline", not "pipelin"). More than `MAX_CORRECTED` unknown words is
    no typo but a paste of made-up words: a query fixing only some would still find
    nothing, so none is offered (and no edit-distance walk is paid for).
    """
    words = list(words)
    unknown = []
    for word in words:
        checkpoint()  # a superseded search stops here (index.cancel)
        if "~" in word:  # fuzzy: the search already looked near it; kept as typed
            continue
        if not any(
            reader.doc_frequency(f, w)
            for f, w in (
                ("abstract", cached_stem(word)),
                ("title", cached_stem(word)),
                ("authors", word),
                ("short_name", word),
                ("venue", word),
                ("prefix", word),
            )
        ):
            unknown.append(word)
    if not unknown or len(unknown) > MAX_CORRECTED:
        return None
    fixes: dict[str, str] = {}
    for word in unknown:
        checkpoint()
        suggestion = None
        # No real word is longer than ~30 letters, and an edit-distance walk for a long
        # pasted token costs far more than the search it follows: not suggested.
        if 3 < len(word) <= MAX_SUGGEST_CHARS:
            for fieldname in ("short_name", "authors"):
                suggestion = field_suggestion(reader, fieldname, word)
                if suggestion is not None:
                    break
            if suggestion is None and lexicon is not None:
                suggestion = lexicon.suggest(word)
        if suggestion is not None:
            fixes[word] = suggestion
    if not fixes:
        return None
    return " ".join(fixes.get(word, word) for word in words)
