"""Typo tolerance: what a query that found nothing is searched as next.

A stranger has no reason to know `~`, and a typo dead-ended: `few-shot lerners` found
nothing, and its "did you mean" offered the author Lerner. The engine
(index.search.engine) searches these rewrites of such a query in turn and shows the first
that finds something, saying so; each is a query the user could have typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from index.library.lookup import paper_name
from index.search.known_items import identify
from index.search.spelling import allowed_edits
from index.search.syntax import with_fuzzy

__all__ = ["FOUND", "retries"]

# How the notice of a retried search begins (`FUZZY_TRIED` when none found anything).
FOUND = "No exact match: showing results for"


def retries(query: str, unknown: set[str], transposed: Callable[[str], str | None]) -> list[str]:
    """The queries to try, in order, for `query`, whose `unknown` words (folded) no field
    holds; `transposed` gives the real word a word is with two letters swapped back.

    The unknown words made fuzzy first (`lerners` -> `lerners~2`; `huamn` -> `human`),
    then the same without the query's one- and two-letter words (`c programming`, from
    "The C++ Programming Language", holds a letter no field keeps), then every word
    fuzzy (a typo can make another real word), then a citation key with a typo
    (`key:hofetal13~`). An identifier no paper has is no typo: nothing is tried.
    """
    query = query.strip()
    if identify(query):
        return []
    fixed = {word: swapped for word in unknown if (swapped := transposed(word)) is not None}
    short = {word.lower() for word in re.findall(r"\w+", query) if len(word) <= 2}
    texts = [
        with_fuzzy(query, words, edits=lambda w: allowed_edits(len(w)), fixed=fixed, drop=drop)
        for words, drop in ((unknown or None, None), (unknown or None, short), (None, short))
    ]
    name = paper_name(query)
    if name is not None and not name.isalpha() and len(name) >= 4:
        texts.append(f"key:{name.removeprefix('key:').rstrip('~*')}~")
    return [text for text in dict.fromkeys(texts) if text is not None and text != query]
