"""The query text before Whoosh sees it: ranges, the word being typed, obvious mistakes.

Whoosh records some errors in the parsed tree and quietly searches for others (`title:`
searches the word "title"); these checks find both, so the engine can fall back to the
plain words and say why. `positive_words` gives the detail view the words to highlight.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from whoosh import query as wq

from index.schema.analysis import PROSE_STOP_WORDS
from index.schema.fields import TEXT_FIELDS

# Years as the query (`year:2020..2024`) and the command line (`--year 2020..2024`) write
# them: one year, or a range with either end left out.
_YEARS = re.compile(r"(\d+)?\s*(\.\.)?\s*(\d+)?")
RANGE = re.compile(r"\byear:(\d*\.\.\d*)(?=\s|$|\))")
# The unfinished word at the end: a bare or field-qualified word, not an operator.
_LAST_WORD = re.compile(r"(?:^|(?<=[\s(]))(?:(?P<field>\w+):)?(?P<word>[\w][\w.-]*)$")
# Stands for the word being typed while parsing; every text analyzer leaves it unchanged.
PLACEHOLDER = "qqtypingqq"
OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
# Fields whose values are whole ids: a partial id is not completed as a prefix.
_ID_FIELDS = {
    "year",
    "doi",
    "arxiv",
    "topic",
    "topics",
    "hw",
    "hardware",
    "id",
    "key",
    # the user's layer (index.search.user_layer): whole values, or whole note words
    "tag",
    "tags",
    "status",
    "keyword",
    "keywords",
    "kw",
    "collection",
    "collections",
    "note",
    "notes",
}
# `key:westfahl:space`: a citation key may hold colons and any punctuation but spaces and
# quotes; it is quoted as one literal term before Whoosh would split it at the colon.
KEY_VALUE = re.compile(r"(?<![\w:])key:(?!')([^\s'\"()]+)")


def quote_key(text: str) -> str:
    """`key:Doe:78` -> `key:'Doe:78'`, Whoosh's syntax for a term taken literally."""
    return KEY_VALUE.sub(lambda m: f"key:'{m.group(1)}'", text)


def parse_years(text: str) -> tuple[int | None, int | None] | None:
    """`2020..2024`, `2021`, `2022..` or `..2019` as (first, last), inclusive; else None.

    The range is returned as written, so a caller can tell `2024..2020` from its reverse.
    """
    match = _YEARS.fullmatch(text.strip())
    if match is None or (match.group(1) is None and match.group(3) is None):
        return None
    low = int(match.group(1)) if match.group(1) else None
    high = int(match.group(3)) if match.group(3) else None
    if match.group(2) is None:  # one year: both ends, and never two numbers without ".."
        if low is not None and high is not None:
            return None
        year = low if low is not None else high
        return year, year
    return low, high


def year_range(match: re.Match[str]) -> str:
    """`year:2020..2024` (either end may be left out) in Whoosh's range syntax."""
    years = parse_years(match.group(1))
    if years is None:  # `year:..`: no years at all, searched as written
        return match.group(0)
    low, high = years
    if low is not None and high is not None and low > high:  # `year:2024..2020`: the same
        low, high = high, low
    first = f"{low} " if low is not None else ""
    last = f" {high}" if high is not None else ""
    return f"year:[{first}TO{last}]"


def mistake(text: str) -> str | None:
    """Mistakes Whoosh would quietly search for: `title:`, `year:20x`, a dangling `OR`."""
    match = re.search(r"\b(\w+):(?=\s|$|\))", text)
    if match:
        return f"{match.group(1)}: has no value"
    for match in re.finditer(r"\byear:(\[[^\]]*\]\)*|\S+)", text):
        if not re.fullmatch(r"\d{1,4}\)*|\[\d* ?TO ?\d*\]\)*", match.group(1)):
            return f"year:{match.group(1)} is not a year or range like 2020..2024"
    match = re.search(
        r"(^|\s)(AND|OR|ANDNOT|ANDMAYBE|NOT)\s*$|^\s*(AND|OR|ANDNOT|ANDMAYBE)\s", text
    )
    if match:
        return f"{(match.group(2) or match.group(3))} needs a word on each side"
    return None


_OPEN_PHRASE = re.compile(r'(?:(?<!\w)(?P<field>\w+):)?"(?P<body>[^"]*)$')


def close_typed_phrase(text: str) -> str | None:
    """`"pipeline par` being typed -> `"pipeline" par`: the phrase so far and a last word.

    The last word is then matched as a prefix like any word being typed, so the results
    narrow keystroke by keystroke (a superset of the finished phrase's) instead of
    dropping to none until the word is complete. None when there is no open phrase ending
    in a word, or when it is excluded (`-"...`, whose meaning this would change).
    """
    match = _OPEN_PHRASE.search(text)
    if match is None or not text[-1].isalnum():
        return None
    before = text[: match.start()]
    if before.endswith("-") or re.search(r"(?<!\w)NOT\s+$", before):
        return None
    *done, last = match.group("body").split() or [""]
    if not last or last in OPERATORS:
        return None
    field = f"{match.group('field')}:" if match.group("field") else ""
    phrase = f'{field}"{" ".join(done)}" ' if done else ""
    return text[: match.start()] + phrase + field + last


def last_word(text: str) -> re.Match[str] | None:
    """The unfinished last word, unless it is an operator, an id, or inside quotes."""
    if text.count('"') % 2 == 1 or re.search(r"[*~]\d*$", text):
        return None
    match = _LAST_WORD.search(text)
    if match is None or match.group("word") in OPERATORS:
        return None
    if match.group("field") and match.group("field").lower() in _ID_FIELDS:
        return None
    return match


def is_placeholder(q: wq.Query) -> bool:
    return isinstance(q, wq.Term) and q.fieldname in TEXT_FIELDS and q.text == PLACEHOLDER


def find_error(q: wq.Query) -> str | None:
    """The first parse error Whoosh recorded in the tree (it records, it does not raise)."""
    for node in walk(q):
        error = getattr(node, "error", None)
        if error:
            return str(error)
    return None


def walk(q: wq.Query) -> Iterator[wq.Query]:
    """Every node of a Whoosh query tree, the root first (the one walk the search uses)."""
    yield q
    if not q.is_leaf():
        for child in q.children():
            yield from walk(child)


# Operators that join two parts: a query cut before its end must not start or end with one.
_BINARY = OPERATORS - {"NOT"}


def _units(text: str) -> list[str]:
    """The query's top-level parts: words, and `"phrases"` and `(groups)` (with a field or
    `-` in front) whole, spaces and all. An unclosed quote or group runs to the end."""
    units: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth = max(0, depth - 1)
        if char.isspace() and not quoted and depth == 0:
            if current:
                units.append("".join(current))
                current = []
            continue
        current.append(char)
    if current:
        units.append("".join(current))
    return units


def _cut_inside(unit: str, limit: int) -> str:
    """A phrase or group longer than `limit` words: its first ones, closed again."""
    quote, paren = unit.find('"'), unit.find("(")
    if paren != -1 and (quote == -1 or paren < quote):
        inner = unit[paren + 1 :]
        inner = inner[:-1] if inner.endswith(")") else inner
        cut = cut_words(inner, limit)
        return f"{unit[: paren + 1]}{cut})" if cut else ""
    words = unit.split()[:limit]
    phrase = " ".join(words)
    return phrase if phrase.count('"') % 2 == 0 else phrase + '"'


def cut_words(text: str, limit: int) -> str:
    """`text` cut to its first `limit` words without changing what the kept part means.

    A phrase or a parenthesised group is kept whole or left out, never split (`"kv cache`
    would be searched as the phrase "kv", `(gpu OR tpu` as something else); a first part
    longer than the limit is cut inside and closed. No operator is left dangling at
    either end (a 16th word `OR` made the whole query unparsable).
    """
    kept: list[str] = []
    count = 0
    for unit in _units(text):
        words = len(unit.split())
        if count + words > limit:
            if not kept:
                kept.append(_cut_inside(unit, limit))
            break
        kept.append(unit)
        count += words
    while kept and (kept[-1] in OPERATORS or not kept[-1]):
        kept.pop()
    while kept and kept[0] in _BINARY:
        kept.pop(0)
    return " ".join(kept)


def is_wildcard(word: str) -> bool:
    """Whether `word` is a pattern: a `?`, or a `*` anywhere but at its end (a prefix)."""
    return "?" in word or "*" in word.rstrip("*")


def positive_words(text: str, last: str | None = None, keep_fuzzy: bool = False) -> list[str]:
    """The words the user asked to find (not excluded ones), for highlighting elsewhere.

    `last` is the unfinished word when searching as you type; it comes back as "word*",
    the convention `SearchEngine.highlight` reads as a prefix. A fuzzy word `word~2` is
    "word" (its distance is no word to find), or "word~2" whole with `keep_fuzzy`, for a
    "did you mean" that must keep it as typed; a boost (`^2`) is dropped.
    """
    text = re.sub(r"\^\d*\.?\d+", " ", text)
    text = re.sub(r"(^|(?<=[\s(]))-(\"[^\"]*\"?|\([^)]*\)?|\S+)", " ", text)
    text = re.sub(r"\bNOT\s+(\"[^\"]*\"?|\([^)]*\)?|\S+)", " ", text)
    text = re.sub(r"\byear:\[[^\]]*\]?", " ", text)
    id_values = (
        r"\b(?:year|doi|arxiv|topic|topics|hw|hardware|id|key|tags?|status|keywords?|kw"
        r"|collections?):(?:\"[^\"]*\"?|\S+)"
    )
    text = re.sub(id_values, " ", text)
    text = re.sub(r"\b(?:title|author|authors|by|abstract|venue|name|notes?|fulltext):", " ", text)
    words: list[str] = []
    for token in re.finditer(r"[\w*?]+(?:~\d*)?", text):
        if "~" in token[0]:
            fuzzy = token[0].lower()
            words.append(fuzzy if keep_fuzzy else fuzzy.split("~")[0])
            continue
        if is_wildcard(token[0]):  # `a*e*` is one pattern, not the prefixes a* and e*
            words.append(token[0].lower())
            continue
        for match in re.finditer(r"(\w+)(\*?)", token[0]):
            word = match.group(1)
            if word in OPERATORS or word == PLACEHOLDER:
                continue
            words.append(word.lower() + match.group(2))
    if last:
        words += [w.lower() for w in re.findall(r"\w+", last)[:-1]]
        words.append(re.findall(r"\w+", last)[-1].lower() + "*")
    return list(dict.fromkeys(words))


# A bare word that may be made fuzzy: letters only, not a field's name or value, not
# already a prefix, pattern or fuzzy word, not an operator (upper case), not hyphenated.
_BARE_WORD = re.compile(r"(?<![\w:~*?'.-])(?<!NOT )([^\W\d_]{4,})(?![\w:~*?'-])")

_SHORT_WORD = re.compile(r"(?<![\w:~*?'.-])(?<!NOT )([^\W\d_]{1,2})(?![\w:~*?'-])")


def with_fuzzy(
    text: str,
    words: set[str] | None = None,
    limit: int = 4,
    edits: Callable[[str], int] = lambda word: 1,
    fixed: Mapping[str, str] | None = None,
    drop: set[str] | None = None,
) -> str | None:
    """`text` with its bare words (those in `words`, folded; every one when None) made
    fuzzy (`lerners` -> `lerners~`, `meomry` -> `meomry~2` when `edits` allows two),
    outside quotes; None when no word changed. A word in `fixed` (two letters swapped,
    which edit distance counts twice: `huamn`) is replaced by the real word it gives. A
    short word in `drop` (folded) is left out: `c programming` pasted from "The C++
    Programming Language" holds a letter no index keeps.

    The engine retries a query that found nothing this way (typo tolerance): a stranger
    has no reason to know `~`. At most `limit` words (the longest first) are made fuzzy,
    as the query caps allow (index.search.query_caps.MAX_FUZZY_WORDS).
    """
    parts = re.split(r'("[^"]*"?)', text)
    found = [
        match.group(1)
        for i, part in enumerate(parts)
        if i % 2 == 0
        for match in _BARE_WORD.finditer(part)
        if match.group(1) not in OPERATORS
        # A stop word is no requirement as typed; made fuzzy it would be one (`when~`).
        and match.group(1).lower() not in PROSE_STOP_WORDS
        and (words is None or match.group(1).lower() in words)
    ]
    chosen = set(sorted(dict.fromkeys(found), key=len, reverse=True)[:limit])
    if drop:
        parts = [
            _SHORT_WORD.sub(lambda m: "" if m.group(1).lower() in drop else m.group(0), part)
            if i % 2 == 0
            else part
            for i, part in enumerate(parts)
        ]
        if not " ".join(parts).split():
            return None
    elif not chosen:
        return None

    def fuzzy(match: re.Match[str]) -> str:
        word = match.group(1)
        if word not in chosen:
            return word
        if fixed and word.lower() in fixed:
            return fixed[word.lower()]
        most = edits(word)
        return word if most < 1 else f"{word}~" if most == 1 else f"{word}~{most}"

    return " ".join(
        "".join(
            _BARE_WORD.sub(fuzzy, part) if i % 2 == 0 else part for i, part in enumerate(parts)
        ).split()
    )
