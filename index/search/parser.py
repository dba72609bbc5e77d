"""The query language: Whoosh's own parser and plugins, then a few rewrites for speed.

The parser gives the syntax (words AND-ed, "phrases", prefix*, fuzzy~, -excluded,
AND/OR/NOT, parentheses, field:value); the rewrites give paperscope's meaning:

* `year:2020..2024` is turned into Whoosh's `year:[2020 TO 2024]` before parsing;
* `hw:gpu` matches the value and every child of it in the taxonomy;
* a prefix (typed `micro*`, or the unfinished last word when searching as you type) is
  answered by the edge n-gram field for the short fields and by a lexicon expansion for the
  abstract, capped to the most frequent terms while the prefix is short (the result is then
  marked partial);
* a query Whoosh cannot parse falls back to its plain words, with a notice, never an error.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from whoosh import query as wq
from whoosh.qparser import (
    AndGroup,
    FieldAliasPlugin,
    FuzzyTermPlugin,
    MultifieldParser,
    OperatorsPlugin,
)
from whoosh.reading import IndexReader

from index.search.prefix_table import TABLE_PREFIX, PrefixTable, prefix_frequencies
from index.schema.fields import (
    MAX_GRAM,
    NGRAM_FIELDS,
    TEXT_FIELDS,
    build_schema,
    cached_stem,
    fold_analyzer,
)
from index.search.highlight import fold
from index.search.spelling import Lexicon
from index.search.syntax import (
    OPERATORS,
    PLACEHOLDER,
    RANGE,
    close_typed_phrase,
    find_error,
    is_placeholder,
    last_word,
    mistake,
    positive_words,
    quote_key,
    year_range,
)

# A prefix this short expands to at most PREFIX_CAP terms (the most frequent) per field;
# one or two letters to fewer still: their most frequent completions have the longest
# posting lists, and the result is marked partial until the word is longer anyway.
SHORT_PREFIX = 3
PREFIX_CAP = 64
LETTER_CAPS = {1: 8, 2: 24}


def prefix_cap(prefix: str) -> int | None:
    """How many completions a prefix this long may expand to (None: all of them)."""
    return LETTER_CAPS.get(len(prefix), PREFIX_CAP) if len(prefix) <= SHORT_PREFIX else None
# Fields holding stems: a fuzzy word there is matched against the surface words.
STEMMED = ("title", "abstract")
# How many prefix expansions one QueryBuilder remembers (they only depend on the index).
EXPANSION_CACHE = 512


@dataclass
class Parsed:
    """A parsed query and what the user should be told about it."""

    query: wq.Query | None  # None: every paper
    terms: tuple[str, ...] = ()  # positive words as typed; "word*" is a prefix
    notice: str | None = None
    partial: bool = False
    plain_words: bool = False  # only bare words: a longer query narrows a shorter one
    text: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class QueryBuilder:
    """Parses query text against one index; cheap to call on every keystroke.

    Args:
        children: facet value id -> the ids it implies (itself and its descendants).
    """

    def __init__(self, children: dict[str, tuple[str, ...]] | None = None,
                 prefix_table: PrefixTable | None = None,
                 lexicon: Lexicon | None = None) -> None:
        self.schema = build_schema()
        self.prefix_table = prefix_table or {}
        self.lexicon = lexicon
        self.children = children or {}
        self.parser = MultifieldParser(list(TEXT_FIELDS), self.schema, group=AndGroup)
        self.parser.remove_plugin_class(OperatorsPlugin)
        self.parser.add_plugin(
            OperatorsPlugin(Not=r"(^|(?<=(\s|[()])))(NOT(?=\s)|-(?=[\w\"(]))")
        )
        self.parser.add_plugin(FuzzyTermPlugin())
        self.parser.add_plugin(FieldAliasPlugin({
            "authors": ["author", "by"], "hw": ["hardware"], "topic": ["topics"],
            "short_name": ["name"],
        }))
        self._fold = fold_analyzer()
        self._expansions: OrderedDict[tuple[Any, ...], list[tuple[str, int]]] = OrderedDict()

    # -- parsing -------------------------------------------------------------------------

    def parse(self, text: str, reader: IndexReader, as_you_type: bool = False) -> Parsed:
        """Parses `text`; never raises for bad syntax (falls back to the plain words)."""
        stripped = text.strip()
        if not stripped:
            return Parsed(None, text=text)
        prepared = quote_key(RANGE.sub(year_range, stripped))
        typing = as_you_type and text == text.rstrip()
        result = Parsed(None, text=prepared)
        problem = mistake(prepared)
        unclosed = prepared.count('"') % 2 == 1
        typed_phrase = unclosed and typing and problem is None and close_typed_phrase(prepared)
        if typed_phrase:  # a phrase still being typed: its last word is a prefix
            prepared = typed_phrase
        elif unclosed and problem is None:  # a forgotten quote, most likely: close it
            prepared += '"'
        q: wq.Query | None = None
        if problem is None:
            try:
                q = self.parser.parse(self._mark(prepared, result) if typing else prepared)
                problem = find_error(q)
            except Exception as error:  # the parser's own failures are syntax errors too
                problem = str(error) or type(error).__name__
        if q is None or problem is not None or q is wq.NullQuery:
            # Id-like values (`year:abc`) are dropped; field names are not words to find.
            bare = re.sub(r"\b(?:year|doi|arxiv|topics?|hw|hardware|id|key):\S*", " ", stripped)
            bare = re.sub(r"\b\w+:", " ", bare)
            words = [w for w in re.findall(r"\w[\w.-]*", bare) if w not in OPERATORS]
            plain = " ".join(w.lower() for w in words)
            result.notice = "Could not parse the query" + (f" ({problem})" if problem else "") + (
                "; searched the words instead" if plain else "; showing every paper")
            result.text = prepared = plain
            result.extra.clear()
            if not plain:
                return result
            typing = typing and stripped[-1].isalnum()
            q = self.parser.parse(self._mark(plain, result) if typing else plain)
        if unclosed and result.notice is None:
            result.notice = ("Open quote: searched as a phrase, its last word as a prefix"
                             if typed_phrase else
                             "Unclosed quote: searched up to the end as a phrase")
        result.terms = tuple(positive_words(
            result.extra.get("marked", prepared), result.extra.get("last")))
        result.plain_words = result.notice is None and bool(
            re.fullmatch(r"[\w\s.-]*", stripped)) and not any(
            w in OPERATORS or w.startswith("-") for w in stripped.split())
        result.query = self._rewrite(q, reader, result)
        return result

    def _mark(self, text: str, result: Parsed) -> str:
        """Replaces the unfinished last word by a placeholder term, found again after parsing."""
        match = last_word(text)
        if match is None:
            return text
        result.extra["last"] = match.group("word")
        result.extra["marked"] = text[: match.start("word")] + PLACEHOLDER
        return result.extra["marked"]

    # -- rewrites ------------------------------------------------------------------------

    def _rewrite(self, q: wq.Query, reader: IndexReader, result: Parsed) -> wq.Query:
        last = result.extra.get("last")
        if last is not None:
            if isinstance(q, wq.Or) and q.subqueries and all(
                is_placeholder(s) for s in q.subqueries
            ):
                fields = tuple(s.fieldname for s in q.subqueries)
                return self.prefix_words(last, fields, reader, result)
            if is_placeholder(q):
                return self.prefix_words(last, (q.fieldname,), reader, result)
        if isinstance(q, wq.Or) and q.subqueries and all(
            isinstance(s, wq.Prefix) and s.fieldname in TEXT_FIELDS for s in q.subqueries
        ) and len({s.text for s in q.subqueries}) == 1:
            fields = tuple(s.fieldname for s in q.subqueries)
            return self.prefix_words(q.subqueries[0].text, fields, reader, result)
        if isinstance(q, wq.Prefix) and q.fieldname in TEXT_FIELDS:
            return self.prefix_words(q.text, (q.fieldname,), reader, result)
        if isinstance(q, wq.Term) and q.fieldname in ("hw", "topic") and q.text in self.children:
            values = self.children[q.text]
            return wq.Or([wq.Term(q.fieldname, v) for v in values]) if len(values) > 1 else q
        if isinstance(q, wq.FuzzyTerm) and q.fieldname in STEMMED and self.lexicon is not None:
            return self._fuzzy_stemmed(q, result)
        if isinstance(q, wq.FuzzyTerm):
            # Stemmed fields (an index without its word list) hold "schedul" for "scheduling":
            # allow one more edit there. The first two letters fixed: the lexicon walk
            # shrinks ~20x.
            stemmed = q.fieldname in ("title", "abstract") and len(q.text) >= 6
            maxdist = max(q.maxdist, 2) if stemmed else q.maxdist
            prefixlength = max(q.prefixlength, 2) if len(q.text) > 3 else q.prefixlength
            q = wq.FuzzyTerm(q.fieldname, q.text, q.boost, maxdist, prefixlength,
                             q.constantscore)
            if q.fieldname in ("title", "abstract", "authors"):  # what to highlight
                found = [t.decode("utf-8") if isinstance(t, bytes) else str(t)
                         for t in list(q._btexts(reader))[:8]]
                result.terms += tuple(t for t in found if t not in result.terms)
            return q
        if q.is_leaf():
            return q
        return q.apply(lambda child: self._rewrite(child, reader, result))

    def _fuzzy_stemmed(self, q: wq.FuzzyTerm, result: Parsed) -> wq.Query:
        """`quantizaton~` on a stemmed field: the stems of the surface words near it.

        Edit distance to the indexed stem misleads (`quantizaton` is 4 edits from
        `quantiz`, 1 from `quantization`), so the typed word is compared with the words as
        written (index.search.spelling) and the stems of those found are searched.
        """
        assert self.lexicon is not None
        word = fold(str(q.text))
        near = self.lexicon.near(word, q.maxdist, min(q.prefixlength, len(word)) or 1)
        stems = list(dict.fromkeys(cached_stem(w) for w in near))
        result.terms += tuple(w for w in near[:8] if w not in result.terms)
        if not stems:
            return wq.NullQuery
        terms = [wq.Term(q.fieldname, s, boost=q.boost) for s in stems]
        return terms[0] if len(terms) == 1 else wq.Or(terms)

    def prefix_words(self, text: str, fields: tuple[str, ...], reader: IndexReader,
                     result: Parsed) -> wq.Query:
        """`micro-b*`: whole words "micro", then anything starting with "b"."""
        words = [token.text for token in self._fold(text)]
        if not words:
            return wq.NullQuery
        parts = [self._word(w, fields) for w in words[:-1]]
        parts.append(self._prefix(words[-1], fields, reader, result))
        parts = [p for p in parts if p is not wq.NullQuery]
        if not parts:
            return wq.NullQuery
        return parts[0] if len(parts) == 1 else wq.And(parts)

    def _analyzed(self, fieldname: str, word: str) -> list[str]:
        analyzer = self.schema[fieldname].analyzer
        return [t.text for t in analyzer(word, mode="query")]

    def _word(self, word: str, fields: Iterable[str]) -> wq.Query:
        terms = [wq.Term(f, t) for f in fields for t in self._analyzed(f, word)]
        if not terms:
            return wq.NullQuery
        return terms[0] if len(terms) == 1 else wq.Or(terms)

    def _prefix(self, prefix: str, fields: tuple[str, ...], reader: IndexReader,
                result: Parsed) -> wq.Query:
        scored: list[wq.Query] = [
            wq.Term(f, t) for f in fields for t in self._analyzed(f, prefix)
        ]
        expansion: list[wq.Query] = []
        scan = list(fields)
        if set(NGRAM_FIELDS) <= set(fields) and len(prefix) <= MAX_GRAM:
            expansion.append(wq.Term("prefix", prefix))
            scan = [f for f in fields if f not in NGRAM_FIELDS]
        for name in scan:
            expansion += [wq.Term(name, t) for t in self.expand(reader, name, prefix, result)]
        if expansion:
            union = expansion[0] if len(expansion) == 1 else wq.Or(expansion)
            scored.append(wq.ConstantScoreQuery(union, 1.0))
        if not scored:
            return wq.NullQuery
        node = scored[0] if len(scored) == 1 else wq.Or(scored)
        # Lets the engine check a prefix against a few candidates' text instead.
        result.extra.setdefault("prefixes", {})[repr(node)] = (prefix, fields)
        return node

    def expand(self, reader: IndexReader, fieldname: str, prefix: str,
               result: Parsed) -> list[str]:
        """The field's terms that start with `prefix`, capped when the prefix is short."""
        listed = self.prefix_table.get(fieldname, {}).get(prefix) if (
            len(prefix) <= TABLE_PREFIX) else None
        if listed is not None or (len(prefix) <= TABLE_PREFIX and fieldname in
                                  self.prefix_table):
            listed = listed or []
            if listed and listed[-1][0] == "":  # the table kept only the top completions
                result.partial = True
                listed = listed[:-1]
            limit = prefix_cap(prefix) or len(listed)
            if len(listed) > limit:
                result.partial = True
            return [str(term) for term, _ in listed[:limit]]
        key = (fieldname, prefix)  # one builder per open index: the lexicon cannot change
        terms = self._expansions.get(key)
        if terms is None:
            terms = self._narrowed(key)
            if terms is None:
                terms = prefix_frequencies(reader, fieldname, prefix)
            self._expansions[key] = terms
            while len(self._expansions) > EXPANSION_CACHE:
                self._expansions.popitem(last=False)
        else:
            self._expansions.move_to_end(key)
        terms = sorted(terms, key=lambda item: (-item[1], item[0]))  # as the table is
        cap = prefix_cap(prefix)
        if cap is not None and len(terms) > cap:
            result.partial = True
            terms = terms[:cap]
        return [text for text, _ in terms]

    def _narrowed(self, key: tuple[Any, ...]) -> list[tuple[str, int]] | None:
        """A shorter prefix's expansion, filtered: typing one more letter costs no scan."""
        fieldname, prefix = key
        for cut in range(len(prefix) - 1, 0, -1):
            shorter = self._expansions.get((fieldname, prefix[:cut]))
            if shorter is not None:
                return [item for item in shorter if item[0].startswith(prefix)]
        return None
