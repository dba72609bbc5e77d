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
from itertools import islice, product
from pathlib import Path

from whoosh.reading import IndexReader

from index.atomic import write_text_atomic
from index.cancel import checkpoint
from index.models import Paper
from index.schema.analysis import accent_map
from index.schema.fields import cached_stem
from index.whoosh_ext.fuzzy import distance, list_words_within, words_within

WORDS_FILE = "words.json"
CHANGES_FILE = "words-changes.json"  # what in-place updates changed since (`add_words`)
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
    """The counts beside an index, with the in-place updates' changes (`add_words`), or
    None (an older index: callers fall back)."""
    try:
        data = json.loads((Path(folder) / WORDS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    counts = Counter(data)
    for word, change in _read_changes(folder).items():
        left = counts[word] + change
        if left > 0:
            counts[word] = left
        else:
            del counts[word]  # no paper holds it any more
    return counts


def _read_changes(folder: Path) -> dict[str, int]:
    """The updates' changes to the build's counts: word -> how many papers more (or fewer)."""
    try:
        data = json.loads((Path(folder) / CHANGES_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or not all(isinstance(n, int) for n in data.values()):
        return {}
    return data


def saved_lexicon(folder: Path) -> Lexicon | None:
    """The lexicon of the counts saved beside an index, read when first needed; None for
    an older index without them (callers fall back).

    Only a fuzzy word or a "did you mean" needs it, and at 100,000 papers reading the
    file is 0.1 s of every open: the start's first page does not wait for it.
    """
    if not (Path(folder) / WORDS_FILE).is_file():
        return None
    return Lexicon(lambda: read_words(folder) or Counter())


def add_words(folder: Path, papers: Iterable[Paper], removed: Iterable[Paper] = ()) -> None:
    """Counts an in-place update's papers' words in and its removed (or replaced) papers'
    words out, so fuzzy words and "did you mean" rank the words a fresh build of the
    library would count. The changes go to a file of their own (`CHANGES_FILE`, summed
    over the updates since the build): the build's counts are not rewritten, which at
    10,000 papers cost ~0.1 s of an update of 100."""
    if not (Path(folder) / WORDS_FILE).is_file():
        return
    changes: Counter[str] = Counter(_read_changes(folder))
    for paper in papers:
        count_words(changes, paper)
    gone: Counter[str] = Counter()
    for paper in removed:
        count_words(gone, paper)
    changes.subtract(gone)
    write_text_atomic(
        Path(folder) / CHANGES_FILE,
        json.dumps(
            {word: n for word, n in changes.items() if n}, ensure_ascii=False, separators=(",", ":")
        ),
    )


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
# Candidate "did you mean" queries checked (each is a search) before none is offered.
MAX_TRIED = 4


def unknown_words(reader: IndexReader, words: Iterable[str], prefixes: bool = True) -> list[str]:
    """The words (not fuzzy ones) found in no field a bare word searches; with
    `prefixes`, a word that begins a title word or name counts as found (it may be one
    being typed), else it does not (`negativ` is no word, though "negative" starts so)."""
    unknown = []
    for word in words:
        checkpoint()  # a superseded search stops here (index.cancel)
        if "~" in word:  # fuzzy: the search already looked near it; kept as typed
            continue
        fields = _fields_of(word) if prefixes else _fields_of(word)[:-1]
        if not any(reader.doc_frequency(f, w) for f, w in fields):
            unknown.append(word)
    return unknown


# A word found in at most this many papers is suspect (a typo that made a rare real word,
# or one the paper itself has) when a word one edit or one swap away is in `RARE_RATIO`
# times as many papers, and at least `RARE_NEAR`.
RARE_DOCS = 3
RARE_RATIO = 10
RARE_NEAR = 10


def rare_words(reader: IndexReader, lexicon: Lexicon | None, words: Iterable[str]) -> set[str]:
    """The words (folded; not fuzzy ones) a few papers hold while a far commoner word is
    one typo away: `retreival` is in one abstract of a psychology lab's 6,315 papers,
    "retrieval" in 235. As written, such a word finds almost nothing."""
    found: set[str] = set()
    if lexicon is None or reader.doc_count() < RARE_NEAR:  # no word can be common enough
        return found
    for word in words:
        folded = word.lower()
        if "~" in folded or not allowed_edits(len(folded)) or len(folded) > MAX_SUGGEST_CHARS:
            continue
        fields = _fields_of(folded)
        # A name (an author's, a system's, a venue's) is rare by nature, and the few
        # papers it finds are the ones meant: `Bates 2015` is no typo of "rates".
        if any(reader.doc_frequency(f, w) for f, w in fields[2:5]):
            continue
        docs = max(reader.doc_frequency(f, w) for f, w in fields[:2])
        if not 0 < docs <= RARE_DOCS:
            continue
        near = [w for w in lexicon.near(folded, 1, FIXED_PREFIX) if w != folded]
        swapped = transposed(reader, lexicon, folded)
        best = max((lexicon.counts.get(w, 0) for w in [*near, swapped or ""]), default=0)
        if best >= max(RARE_RATIO * docs, RARE_NEAR):
            found.add(folded)
    return found


def _fields_of(word: str) -> tuple[tuple[str, str], ...]:
    stem = cached_stem(word)
    return (
        ("abstract", stem),
        ("title", stem),
        ("authors", word),
        ("short_name", word),
        ("venue", word),
        ("prefix", word),
    )


def transposed(reader: IndexReader, lexicon: Lexicon | None, word: str) -> str | None:
    """The real word `word` is with two neighbouring letters swapped back (`huamn` ->
    `human`), the most frequent; None when there is none.

    The commonest typo of all, and two edits to the automata (they count no
    transpositions), so a five-letter word's one allowed edit never reaches it.
    """
    best: tuple[int, str] | None = None
    for i in range(1, len(word) - 1):  # the first letter is kept, as everywhere here
        if word[i] == word[i + 1]:
            continue
        swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        count = lexicon.counts.get(swapped, 0) if lexicon is not None else 0
        count = max(count, reader.doc_frequency("authors", swapped))
        if count and (best is None or count > best[0]):
            best = (count, swapped)
    return best[1] if best else None


def _name_like(reader: IndexReader, words: Iterable[str]) -> bool | None:
    """Whether the query's known words are names (True) or title and abstract words
    (False), by where they are found; None when they say nothing (no other word)."""
    names = text = 0
    for word in words:
        stem = cached_stem(word)
        names += bool(
            reader.doc_frequency("authors", word) or reader.doc_frequency("short_name", word)
        )
        text += bool(reader.doc_frequency("title", stem) or reader.doc_frequency("abstract", stem))
    if names == text:
        return None
    return names > text


def _candidates(
    reader: IndexReader, lexicon: Lexicon | None, word: str, name_like: bool | None, edits: int
) -> list[str]:
    """Real words up to `edits` from `word`, the likeliest first: the fewest edits, then
    the words of the kind the rest of the query is (names for a name-like query, title
    and abstract words otherwise), then the most frequent."""
    maxdist = min(edits, allowed_edits(len(word)))
    if not maxdist or not 3 < len(word) <= MAX_SUGGEST_CHARS:
        return []
    ranked: dict[str, tuple[int, int, int]] = {}
    swapped = transposed(reader, lexicon, word)
    if swapped is not None:
        # The commonest typo: before any other word one edit off (`sacle` is "scale",
        # not the rarer "sacre"), as the fuzzy retry puts it back.
        ranked[swapped] = (1, -1, 0)
    for fieldname in ("short_name", "authors"):
        for found in words_within(reader, fieldname, word, maxdist, NAME_PREFIX, NEAR_CAP):
            if found != word:
                key = (
                    distance(word, found),
                    0 if name_like else 1,
                    -reader.doc_frequency(fieldname, found),
                )
                ranked[found] = min(ranked.get(found, key), key)
    if lexicon is not None:
        # The arguments as the fuzzy search passes them: one cached walk serves both.
        for found in lexicon.near(word, maxdist, FIXED_PREFIX)[:NEAR_CAP]:
            if found != word:
                key = (distance(word, found), 1 if name_like else 0, -lexicon.counts[found])
                ranked[found] = min(ranked.get(found, key), key)
    return sorted(ranked, key=lambda w: (ranked[w], w))[:MAX_TRIED]


def correct(
    reader: IndexReader,
    lexicon: Lexicon | None,
    words: Iterable[str],
    finds: Callable[[str], bool] | None = None,
) -> str | None:
    """A "did you mean" query: each word found nowhere replaced by a real word near it.

    Names and short names are unstemmed fields: their own words near a word are real
    names. Everything else comes from the surface words, never from the stems
    ("pipelne" -> "pipeline", not "pipelin"). Which kind wins at equal distance depends on
    the rest of the query: `few-shot lerners` is title words, so "learners", not the
    author Lerner; `lerner 2019` is a name. Each candidate query is offered only if
    `finds` says it finds something (a suggestion that finds nothing again is a dead
    end); at most `MAX_TRIED` are tried at each number of edits. More than `MAX_CORRECTED` unknown words is no
    typo but a paste of made-up words: none is offered.
    """
    words = list(words)
    unknown = unknown_words(reader, words, prefixes=False)  # the words are finished
    if not unknown or len(unknown) > MAX_CORRECTED:
        return None
    context = _name_like(reader, [w for w in words if w not in unknown and "~" not in w])
    tried: set[str] = set()
    # Words one edit off first, two only if none of those finds anything: a name field's
    # walk at two edits costs an automaton of its own and most of a correction's time
    # (~0.1 s at 100,000 papers), and a word one edit off is the likelier anyway.
    for edits in range(1, max(allowed_edits(len(word)) for word in unknown) + 1):
        options = [_candidates(reader, lexicon, word, context, edits) for word in unknown]
        choices = product(*[o or [w] for o, w in zip(options, unknown, strict=True)])
        for choice in islice(choices, MAX_TRIED):
            if choice == tuple(unknown):
                break
            fixes = dict(zip(unknown, choice, strict=True))
            query = " ".join(fixes.get(word, word) for word in words)
            if query not in tried and (finds is None or finds(query)):
                return query
            tried.add(query)
    return None
