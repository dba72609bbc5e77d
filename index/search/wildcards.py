"""Wildcard words (`a*e*`, `s?e*`, `pi*ne`): a bounded expansion, as prefixes have.

Whoosh's `Wildcard` walks every term under the pattern's literal start and searches the
union of all that fit, in every field: on 10,000 synthetic papers `p*e*` fits some 1,700
abstract terms and took 510 ms, `s?e*` 380 ms, against 62 ms for a two-word query. Here the
terms under the literal start come from the prefix expander (walked once per index and
remembered), the pattern picks those that fit, and only the most frequent are searched:
as many as a prefix of the literal start's length would expand to, never more than
`WILDCARD_CAP`. The result is then partial, and the notice says what was searched.

For a one- or two-letter literal start the build-time table of the commonest completions
(index.search.tables) is tried first when the start has more completions than the table
keeps: walking every abstract term under `p` was 75% of a cold `p*e*` at 10,000 papers
(24,590 terms read for `p*e* s*a*`). When enough of the table's terms fit, those are the
answer and the notice gives the count as a lower bound.
Measured cold at 10,000 synthetic papers against `pipeline training`: `p*e*` 2.3x -> 1.0x,
`s?e*` 3.3x -> 0.7x, `p*e* s*a*` 4.9x -> 1.8x (benchmarks/hostile_queries.py).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from functools import lru_cache

from whoosh.reading import IndexReader

from index.cancel import checkpoint
from index.search.prefixes import PrefixExpander, prefix_cap

# The most terms one wildcard word searches in one field, however long its literal start.
WILDCARD_CAP = 64
# Where a pattern's literal start ends (what Whoosh's Wildcard treats as special).
_SPECIAL = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Expansion:
    """The terms one wildcard word searches in one field."""

    terms: tuple[str, ...]  # the most frequent fitting terms, best first
    fitting: int  # how many terms of the field fit the pattern (at least, when `more`)
    more: bool = False  # only the commonest completions were looked at: maybe more fit

    @property
    def capped(self) -> bool:
        return self.more or self.fitting > len(self.terms)


@lru_cache(maxsize=256)
def _matcher(pattern: str) -> re.Pattern[str]:
    return re.compile(fnmatch.translate(pattern))


def literal_start(pattern: str) -> str:
    """The letters before the pattern's first wildcard (`a*e*` -> `a`)."""
    return _SPECIAL.split(pattern, maxsplit=1)[0]


def expand_wildcard(
    expander: PrefixExpander, reader: IndexReader, fieldname: str, pattern: str
) -> Expansion:
    """The field's terms fitting `pattern`, capped to the most frequent.

    A pattern with no literal start would walk the whole lexicon: it fits nothing here
    (the parser drops leading wildcards before this is reached, and says so).
    """
    start = literal_start(pattern)
    if not start:
        return Expansion((), 0)
    match = _matcher(pattern).match
    cap = min(prefix_cap(start) or WILDCARD_CAP, WILDCARD_CAP)
    listed = expander.commonest(fieldname, start)
    if listed is not None and not listed[1]:
        # The build-time table's commonest completions, best first: when `cap` of them fit,
        # they are the commonest fitting terms of the whole field (any other is rarer).
        # A start with few completions (the table holds them all) is walked: that is cheap,
        # and sees the terms an in-place update added since the table was written.
        fits = [term for term in listed[0] if match(term)]
        if len(fits) >= cap:
            return Expansion(tuple(fits[:cap]), len(fits), more=True)
    found = []
    for term, frequency in expander.completions(reader, fieldname, start):
        if match(term):
            found.append((term, frequency))
    checkpoint()  # a superseded search stops here (index.cancel)
    found.sort(key=lambda item: (-item[1], item[0]))
    return Expansion(tuple(term for term, _ in found[:cap]), len(found))
