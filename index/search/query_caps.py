"""What one query may cost: its length, words, word length, nesting and fuzzy words.

A real query is a few words; a paste of a whole abstract is not a query. `cap_query` cuts
a query to these caps before it is parsed and says what it cut (the status line shows it),
so no query text can make a search slow.
"""

from __future__ import annotations

import re

from index.search.syntax import cut_words

__all__ = [
    "FUZZY_WORD",
    "MAX_DEPTH",
    "MAX_FUZZY_WORDS",
    "MAX_QUERY_CHARS",
    "MAX_TERMS",
    "MAX_WORD_CHARS",
    "cap_fuzzy",
    "cap_query",
]

# What one query may cost: longer, wider or deeper ones are cut, and the notice says so.
# A real query is a few words; a paste of a whole abstract is not a query.
MAX_QUERY_CHARS = 1_000
MAX_TERMS = 16  # a pasted title still fits
MAX_WORD_CHARS = 64
MAX_DEPTH = 8
# Fuzzy words one query may hold: each costs an automaton and a walk of every field's
# words; the rest are searched as written.
MAX_FUZZY_WORDS = 4
_LONG_WORD = re.compile(rf"[^\s()\"]{{{MAX_WORD_CHARS + 1},}}")
# Phrases in order (an empty one, `""`, is left out: 500 quotes in a row took Whoosh's
# parser ~60 ms).
_PHRASE = re.compile(r'"([^"]*)"')
# Wildcards before a word's first letter (`*ing`, `title:?ache`).
_LEADING_WILDCARD = re.compile(r"(?:(?<=[\s(:\"-])|^)[*?]+(?=[^\s*?)~])")
# A fuzzy word as typed: `pipelne~`, `sheduling~2`, `title:quantizaton~`.
FUZZY_WORD = re.compile(r"(?<![\w~])(\w[\w.-]*)~\d*")


def cap_fuzzy(text: str) -> tuple[str, int]:
    """`text` with fuzzy words after the first MAX_FUZZY_WORDS (distinct) made plain words,
    and how many were: each fuzzy word costs an automaton and a walk of every field."""
    kept: set[str] = set()
    plain = 0

    def cap(match: re.Match[str]) -> str:
        nonlocal plain
        word = match.group(1).lower()
        if word in kept or len(kept) < MAX_FUZZY_WORDS:
            kept.add(word)
            return match[0]
        plain += 1
        return match.group(1)

    return FUZZY_WORD.sub(cap, text), plain


def cap_query(text: str) -> tuple[str, str | None]:
    """`text` within the caps on length, words, word length and nesting, and what was cut."""
    cuts: list[str] = []
    if len(text) > MAX_QUERY_CHARS:
        text = text[:MAX_QUERY_CHARS]
        cuts.append(f"cut to its first {MAX_QUERY_CHARS:,} characters")
    if _LONG_WORD.search(text):
        text = _LONG_WORD.sub(lambda m: m[0][:MAX_WORD_CHARS], text)
        cuts.append(f"words cut to {MAX_WORD_CHARS} characters")
    if len(text.split()) > MAX_TERMS:
        text = cut_words(text, MAX_TERMS)
        cuts.append(f"only its first {len(text.split())} words searched")
    depth = deepest = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        text = re.sub(r"[()]", " ", text)
        cuts.append(f"parentheses nested more than {MAX_DEPTH} deep ignored")
    if '"' in text:
        emptied = _PHRASE.sub(lambda m: m[0] if m[1].strip() else " ", text)
        if emptied != text:
            text = emptied
            cuts.append("empty phrases left out")
    if "~" in text:
        text, plain = cap_fuzzy(text)
        if plain:
            cuts.append(
                f"only the first {MAX_FUZZY_WORDS} fuzzy words searched fuzzily, "
                f"{plain} more as written"
            )
    if re.fullmatch(r"[\s*?~]*", text) and "*" in text:  # `*` alone: every paper, no scan
        return "", "a lone * matches every paper: showing them all"
    bare = re.compile(r"(?:(?<=\s)|^)[*?~]+(?=\s|$)")  # a wildcard with no letters scans every term
    if bare.search(text):
        text = bare.sub(" ", text)
        cuts.append("a lone * or ? matches anything and was left out")
    if _LEADING_WILDCARD.search(text):  # as Lucene's parser: it would scan every term
        text = _LEADING_WILDCARD.sub("", text)
        cuts.append("a word cannot start with * or ?: searched from its first letter")
    return text.strip(), ("Query capped: " + "; ".join(cuts)) if cuts else None
