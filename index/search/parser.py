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
from collections.abc import Iterable
from dataclasses import dataclass, field

from whoosh import fields
from whoosh import query as wq
from whoosh.analysis import IDAnalyzer
from whoosh.qparser import (
    AndGroup,
    FieldAliasPlugin,
    FuzzyTermPlugin,
    MultifieldParser,
    OperatorsPlugin,
)
from whoosh.reading import IndexReader

from index.cancel import checkpoint
from index.schema.analysis import PROSE_STOP_WORDS, fold_word, stem_analyzer
from index.schema.fields import (
    MAX_GRAM,
    NGRAM_FIELDS,
    TEXT_FIELDS,
    build_schema,
    cached_stem,
    fold_analyzer,
)
from index.search.known_items import (
    DOI_CAP,
    KEY_CAP,
    Identifier,
    completions,
    identify,
    known_papers,
)
from index.search.prefixes import PrefixExpander
from index.search.query_caps import FUZZY_WORD, MAX_QUERY_CHARS, cap_query
from index.search.spelling import FIXED_PREFIX, NAME_PREFIX, NEAR_CAP, Lexicon, allowed_edits
from index.search.stop_words import OptionalStopWords
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
    walk,
    year_range,
)
from index.search.tables import PrefixTable
from index.search.wildcards import expand_wildcard
from index.whoosh_ext.fuzzy import words_within

# Fields holding stems: a fuzzy word there is matched against the surface words.
STEMMED = ("title", "abstract")
# Words one fuzzy term may expand to (the closest, most frequent first).
FUZZY_CAP = NEAR_CAP
# Words no requirement among others: the prose stop words, and "et al." of a citation
# pasted or typed as one ("Olshausen et al. 1996"): no paper's text holds "al".
QUERY_STOP_WORDS = PROSE_STOP_WORDS | {"et", "al"}
# A word that reads as a publication year: it also matches the papers of that year.
_YEAR_WORD = re.compile(r"1[5-9]\d\d|20\d\d")


@dataclass
class Parsed:
    """A parsed query and what the user should be told about it."""

    query: wq.Query | None  # None: every paper
    terms: tuple[str, ...] = ()  # positive words as typed; "word*" is a prefix
    notice: str | None = None
    partial: bool = False
    text: str = ""
    last: str | None = None  # the unfinished last word, when searching as you type
    marked: str | None = None  # the text with that word replaced by PLACEHOLDER
    # Each fuzzy word as typed, by what a stemmed field's analyzer makes of it.
    fuzzy: dict[str, str] = field(default_factory=dict)
    # The query nodes that stand for a typed prefix -> (prefix, fields), so the engine can
    # check a short one against a few candidates' text (index.search.prefixes.verified).
    prefixes: dict[wq.Query, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # The documents the whole query names (its id, citation key, DOI, ...): ranked first.
    exact: tuple[int, ...] = ()
    # What the whole query was read as (a DOI, an arXiv id, ...: index.search.known_items).
    identifiers: tuple[Identifier, ...] = ()
    # Fuzzy words whose edits were cut (by their length), with what to tell the user.
    fuzzy_cuts: dict[str, str] = field(default_factory=dict)
    # Wildcard words searched for their most frequent terms only: (searched, fitting,
    # fitting is a lower bound), the field with the most fitting terms.
    wildcard_cuts: dict[str, tuple[int, int, bool]] = field(default_factory=dict)

    def forget_marks(self) -> None:
        """Drop what the first parse noted; the plain-words fallback parses again."""
        self.last = self.marked = None
        self.fuzzy.clear()
        self.prefixes.clear()

    def fuzzy_edits(self, word: str, asked: int) -> int:
        """The edits the fuzzy `word` is searched with (0: as written), noting any cut."""
        edits = min(asked, allowed_edits(len(word)))
        if edits < asked:
            shown = f"{word[:24]}{'…' if len(word) > 24 else ''}~{asked}"
            self.fuzzy_cuts.setdefault(
                word,
                f"{shown} searched as written ({len(word)} letter{'' if len(word) == 1 else 's'})"
                if not edits
                else f"{shown} searched within {edits} edit{'' if edits == 1 else 's'} "
                f"({len(word)} letters)",
            )
        return edits

    def fuzzy_notice(self) -> str | None:
        cuts = list(self.fuzzy_cuts.values())
        return ("Fuzzy words capped: " + "; ".join(cuts)) if cuts else None

    def wildcard_notice(self) -> str | None:
        cuts = [
            f"{pattern[:24]}{'…' if len(pattern) > 24 else ''} searched for the {searched} "
            f"commonest of {fitting:,}{'+' if more else ''} words it fits"
            for pattern, (searched, fitting, more) in self.wildcard_cuts.items()
        ]
        return ("Wildcards capped: " + "; ".join(cuts)) if cuts else None


def searched_words(words: Iterable[str], q: wq.Query) -> tuple[str, ...]:
    """The query's words to highlight, less the stop words the search ignored.

    "memory for training" searches "memory" and "training" alone (index.search.stop_words);
    highlighting every "for" in an abstract marked words that made no match, and made the
    snippet prefer passages full of them. A stop word the query still holds (`of` typed
    alone searches the names and venues that have it; a phrase; a prefix while typing) is
    kept.
    """
    searched: set[str] = set()
    for node in walk(q):
        if isinstance(node, wq.Term):
            searched.add(str(node.text))
        elif isinstance(node, wq.Phrase):
            searched.update(str(word) for word in node.words)
    return tuple(word for word in words if word not in PROSE_STOP_WORDS or word in searched)


def _or_year(q: wq.Query, word: object, fields: tuple[str, ...]) -> wq.Query:
    """A bare word that reads as a year (`olshausen 1996`) also matches that year's papers.

    Researchers name a paper by author and year, and Zotero's quick search matches title,
    creator and year alike; before, `olshausen 1996` found only papers whose text holds
    "1996". Only a word searched in every text field (typed bare, not `title:1996`)
    gets the year; the year only filters, it adds nothing to a paper's score.
    """
    if not (isinstance(word, str) and _YEAR_WORD.fullmatch(word)) or set(fields) != set(
        TEXT_FIELDS
    ):
        return q
    return wq.Or([q, wq.Term("year_facet", word)])


class QueryBuilder:
    """Parses query text against one index; cheap to call on every keystroke.

    Args:
        children: facet value id -> the ids it implies (itself and its descendants).
    """

    def __init__(
        self,
        children: dict[str, tuple[str, ...]] | None = None,
        prefix_table: PrefixTable | None = None,
        lexicon: Lexicon | None = None,
    ) -> None:
        self.schema = build_schema()
        # Fields the engine answers from masks, not postings: the user's layer
        # (index.search.user_layer) and `keyword:` (the index's keyword facet, any case).
        # Known to the parser only, so `tag:toread` parses as a term the engine looks up.
        for name in ("tag", "status", "keyword", "collection"):
            self.schema.add(name, fields.ID(analyzer=IDAnalyzer(lowercase=True)))
        self.schema.add("note", fields.TEXT(analyzer=stem_analyzer()))
        # The attachments' pages, stemmed as they are indexed (index.search.fulltext).
        self.schema.add("fulltext", fields.TEXT(analyzer=stem_analyzer()))
        self.expander = PrefixExpander(prefix_table)
        self.lexicon = lexicon
        self.children = children or {}
        self.parser = MultifieldParser(list(TEXT_FIELDS), self.schema, group=AndGroup)
        self.parser.remove_plugin_class(OperatorsPlugin)
        self.parser.add_plugin(OperatorsPlugin(Not=r"(^|(?<=(\s|[()])))(NOT(?=\s)|-(?=[\w\"(]))"))
        self.parser.add_plugin(FuzzyTermPlugin())
        self.parser.add_plugin(OptionalStopWords(QUERY_STOP_WORDS))
        self.parser.add_plugin(
            FieldAliasPlugin(
                {
                    "authors": ["author", "by"],
                    "hw": ["hardware"],
                    "topic": ["topics"],
                    "short_name": ["name"],
                    "tag": ["tags"],
                    "keyword": ["keywords", "kw"],
                    "collection": ["collections"],
                    "note": ["notes"],
                }
            )
        )
        self._fold = fold_analyzer()

    # -- parsing -------------------------------------------------------------------------

    def parse(self, text: str, reader: IndexReader, as_you_type: bool = False) -> Parsed:
        """Parses `text`; never raises for bad syntax (falls back to the plain words)."""
        stripped = text.strip()
        if not stripped:
            return Parsed(None, text=text)
        stripped, capped = cap_query(stripped)
        if not stripped:
            return Parsed(None, text=text, notice=capped)
        prepared = quote_key(RANGE.sub(year_range, stripped))
        typing = as_you_type and text == text.rstrip()
        known = known_papers(stripped, reader, typing)
        result = Parsed(None, text=prepared, exact=known.first, identifiers=known.identifiers)
        problem = mistake(prepared)
        unclosed = prepared.count('"') % 2 == 1
        typed_phrase = unclosed and typing and problem is None and close_typed_phrase(prepared)
        if typed_phrase:  # a phrase still being typed: its last word is a prefix
            prepared = typed_phrase
        elif unclosed and problem is None:  # a forgotten quote, most likely: close it
            prepared += '"'
        q: wq.Query | None = None
        self._typed_fuzzy(prepared, result)
        if problem is None:
            try:
                q = self.parser.parse(self._mark(prepared, result) if typing else prepared)
                problem = find_error(q)
            except Exception as error:  # the parser's own failures are syntax errors too
                problem = str(error) or type(error).__name__
        if known.query is not None and (q is None or problem is not None or q is wq.NullQuery):
            # `Doe:78` is no field query, but it is a paper's key; a pasted DOI URL is no
            # field `https:`: that paper, no notice.
            result.forget_marks()
            result.query = known.query
            return result
        if q is None or problem is not None or q is wq.NullQuery:
            # Id-like values (`year:abc`) are dropped; field names are not words to find.
            bare = re.sub(
                r"\b(?:year|doi|arxiv|topics?|hw|hardware|id|key|tags?|status|keywords?|"
                r"kw|collections?):\S*",
                " ",
                stripped,
            )
            bare = re.sub(r"\b\w+:", " ", bare)
            # A pattern keeps its `*` and `?` (`p*e* OR` searches p*e*, not "p" and "e").
            words = [
                w
                for w in re.findall(r"[\w*?][\w.*?-]*", bare)
                if w not in OPERATORS and re.search(r"\w", w)
            ]
            plain = " ".join(w.lower() for w in words)
            result.notice = (
                "Could not parse the query"
                + (f" ({problem})" if problem else "")
                + ("; searched the words instead" if plain else "; showing every paper")
            )
            result.text = prepared = plain
            result.forget_marks()
            if not plain:
                if capped:
                    result.notice = f"{result.notice}; {capped}"
                return result
            typing = typing and stripped[-1].isalnum()
            q = self.parser.parse(self._mark(plain, result) if typing else plain)
        if unclosed and result.notice is None:
            result.notice = (
                "Open quote: searched as a phrase, its last word as a prefix"
                if typed_phrase
                else "Unclosed quote: searched up to the end as a phrase"
            )
        result.terms = searched_words(positive_words(result.marked or prepared, result.last), q)
        result.query = self._rewrite(q, reader, result)
        if known.query is not None:
            result.query = wq.Or([known.query, result.query])
        if capped:
            result.notice = f"{result.notice}; {capped}" if result.notice else capped
        for cut in (result.fuzzy_notice(), result.wildcard_notice()):
            if cut:
                result.notice = f"{result.notice}; {cut}" if result.notice else cut
        return result

    def _typed_fuzzy(self, text: str, result: Parsed) -> None:
        """Remember each fuzzy word as typed, keyed by what a stemmed field makes of it.

        Whoosh stems a fuzzy term's text for the title and abstract (`pipelne~` arrives as
        `pipeln`), which is two edits from every surface word; `_fuzzy_stemmed` compares
        the word the user typed instead.
        """
        typed: dict[str, str] = {}
        for match in FUZZY_WORD.finditer(text[:MAX_QUERY_CHARS]):
            word = fold_word(match.group(1))
            for name in STEMMED:
                for analyzed in self._analyzed(name, word):
                    typed.setdefault(analyzed, word)
        if typed:
            result.fuzzy.update(typed)

    def _mark(self, text: str, result: Parsed) -> str:
        """Replaces the unfinished last word by a placeholder term, found again after parsing."""
        match = last_word(text)
        if match is None:
            return text
        result.last = match.group("word")
        result.marked = text[: match.start("word")] + PLACEHOLDER
        return result.marked

    # -- rewrites ------------------------------------------------------------------------

    def _rewrite(self, q: wq.Query, reader: IndexReader, result: Parsed) -> wq.Query:
        checkpoint()  # a superseded search stops here (index.cancel)
        last = result.last
        if last is not None:
            if (
                isinstance(q, wq.Or)
                and q.subqueries
                and all(is_placeholder(s) for s in q.subqueries)
            ):
                fields = tuple(s.fieldname for s in q.subqueries)
                return _or_year(self.prefix_words(last, fields, reader, result), last, fields)
            if is_placeholder(q):
                return self.prefix_words(last, (q.fieldname,), reader, result)
        if (
            isinstance(q, wq.Or)
            and q.subqueries
            and all(type(s) is wq.Term for s in q.subqueries)
            and len({s.text for s in q.subqueries}) == 1
        ):
            word = q.subqueries[0].text
            return _or_year(q, word, tuple(s.fieldname for s in q.subqueries))
        if (
            isinstance(q, wq.Or)
            and q.subqueries
            and all(isinstance(s, wq.Prefix) and s.fieldname in TEXT_FIELDS for s in q.subqueries)
            and len({s.text for s in q.subqueries}) == 1
        ):
            fields = tuple(s.fieldname for s in q.subqueries)
            return self.prefix_words(q.subqueries[0].text, fields, reader, result)
        if isinstance(q, wq.Prefix) and q.fieldname in TEXT_FIELDS:
            return self.prefix_words(q.text, (q.fieldname,), reader, result)
        if isinstance(q, wq.Term) and q.fieldname in ("key", "doi"):
            return self._identifier(q, reader)
        if isinstance(q, wq.Term) and q.fieldname in ("hw", "topic") and q.text in self.children:
            values = self.children[q.text]
            return wq.Or([wq.Term(q.fieldname, v) for v in values]) if len(values) > 1 else q
        if isinstance(q, wq.FuzzyTerm) and q.fieldname == "fulltext":
            return q  # the pages' own words (index.search.fulltext), not the library's
        if isinstance(q, wq.FuzzyTerm) and q.fieldname in STEMMED and self.lexicon is not None:
            return self._fuzzy_stemmed(q, result)
        if isinstance(q, wq.FuzzyTerm):
            return self._fuzzy_words(q, reader, result)
        if isinstance(q, wq.Wildcard) and q.fieldname in TEXT_FIELDS:
            return self._wildcard(q, reader, result)
        if q.is_leaf():
            return q
        return q.apply(lambda child: self._rewrite(child, reader, result))

    def _identifier(self, q: wq.Term, reader: IndexReader) -> wq.Query:
        """`key:` in any case, a prefix (`key:XieN20*`) or fuzzy (`key:xien2030~`), as
        fzf-bibtex users find keys; `doi:10.1145`, a publisher's prefix, every DOI under it."""
        text = str(q.text)
        if q.fieldname == "doi":
            found = identify(f"doi:{text}")
            if not found or not found[0].prefix:
                return q
            values = completions(reader, "doi", found[0].value, DOI_CAP)
        elif text.endswith("*"):
            values = completions(reader, "key_folded", text.rstrip("*").lower(), KEY_CAP)
        elif text.endswith("~") and len(text) > 1:
            word = text.rstrip("~").lower()
            edits = allowed_edits(len(word))
            values = (
                words_within(reader, "key_folded", word, edits, 1, FUZZY_CAP) if edits else [word]
            )
        else:
            return wq.Or([q, wq.Term("key_folded", text.lower())])
        terms = [wq.Term("doi" if q.fieldname == "doi" else "key_folded", v) for v in values]
        if not terms:
            return wq.NullQuery
        return terms[0] if len(terms) == 1 else wq.Or(terms)

    def _fuzzy_stemmed(self, q: wq.FuzzyTerm, result: Parsed) -> wq.Query:
        """`quantizaton~` on a stemmed field: the stems of the surface words near it.

        Edit distance to the indexed stem misleads (`quantizaton` is 4 edits from
        `quantiz`, 1 from `quantization`), so the typed word is compared with the words as
        written (index.search.spelling) and the stems of those found are searched.
        """
        assert self.lexicon is not None
        word = result.fuzzy.get(str(q.text)) or fold_word(str(q.text))
        maxdist = result.fuzzy_edits(word, q.maxdist)  # `word~5` would walk for minutes
        near = self.lexicon.near(word, maxdist, max(q.prefixlength, FIXED_PREFIX))
        near = near[:FUZZY_CAP]
        stems = list(dict.fromkeys(cached_stem(w) for w in near))
        result.terms += tuple(w for w in near[:8] if w not in result.terms)
        if not stems:
            return wq.NullQuery
        terms = [wq.Term(q.fieldname, s, boost=q.boost) for s in stems]
        return terms[0] if len(terms) == 1 else wq.Or(terms)

    def _fuzzy_words(self, q: wq.FuzzyTerm, reader: IndexReader, result: Parsed) -> wq.Query:
        """`word~2` on a field of words as written: the field's words near it, as terms.

        Whoosh's FuzzyTerm would build the word's automaton again to match and to score,
        for every segment; the words found once (index.whoosh_ext.fuzzy) are searched
        instead. In a stemmed field (an index without its word list) a stem is compared.
        """
        text = str(q.text)
        word = result.fuzzy.get(text) or text
        maxdist = result.fuzzy_edits(word, q.maxdist)
        if q.fieldname in STEMMED and len(text) >= 6:
            # A stem is shorter than its word ("schedul" for "scheduling"): one more edit.
            maxdist = max(maxdist, min(2, allowed_edits(len(word))))
        if not maxdist:
            return wq.Term(q.fieldname, text, boost=q.boost)
        prefix = min(max(q.prefixlength, NAME_PREFIX if len(text) > 3 else 1), len(text))
        found = words_within(reader, q.fieldname, text, maxdist, prefix, FUZZY_CAP)
        if q.fieldname in ("title", "abstract", "authors"):  # what to highlight
            result.terms += tuple(t for t in found[:8] if t not in result.terms)
        if not found:
            return wq.NullQuery
        terms = [wq.Term(q.fieldname, t, boost=q.boost) for t in found]
        return terms[0] if len(terms) == 1 else wq.Or(terms)

    def _wildcard(self, q: wq.Wildcard, reader: IndexReader, result: Parsed) -> wq.Query:
        """`a*e*`: the field's most frequent terms that fit, with Whoosh's constant score
        for a pattern (index.search.wildcards bounds the expansion)."""
        pattern = fold_word(str(q.text))
        expansion = expand_wildcard(self.expander, reader, q.fieldname, pattern)
        if expansion.capped:
            result.partial = True
            known = result.wildcard_cuts.get(pattern, (0, 0, False))
            if expansion.fitting > known[1]:
                known = (len(expansion.terms), expansion.fitting, known[2])
            # A count from the commonest completions only is a lower bound: it shows "N+".
            result.wildcard_cuts[pattern] = (known[0], known[1], known[2] or expansion.more)
        if not expansion.terms:
            return wq.NullQuery
        terms = [wq.Term(q.fieldname, t) for t in expansion.terms]
        return wq.ConstantScoreQuery(terms[0] if len(terms) == 1 else wq.Or(terms), q.boost)

    def prefix_words(
        self, text: str, fields: tuple[str, ...], reader: IndexReader, result: Parsed
    ) -> wq.Query:
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

    def _prefix(
        self, prefix: str, fields: tuple[str, ...], reader: IndexReader, result: Parsed
    ) -> wq.Query:
        scored: list[wq.Query] = [wq.Term(f, t) for f in fields for t in self._analyzed(f, prefix)]
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
        result.prefixes[node] = (prefix, fields)
        return node

    def expand(self, reader: IndexReader, fieldname: str, prefix: str, result: Parsed) -> list[str]:
        """The field's terms that start with `prefix`, capped when the prefix is short."""
        terms, partial = self.expander.expand(reader, fieldname, prefix)
        result.partial = result.partial or partial
        return terms
