"""The values that cross paperscope's module boundaries.

Everything here is a frozen dataclass made of plain Python values, so a result can be
handed from a worker thread to the UI, cached, compared in tests or dumped to JSON without
dragging a live Whoosh searcher (which dies when it is closed) along with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "FACET_FIELDS",
    "JSON_FORMATS",
    "READING_STATUSES",
    "FacetCount",
    "Hit",
    "Label",
    "Library",
    "LoadWarning",
    "Name",
    "PageMatch",
    "Paper",
    "SearchRequest",
    "SearchResult",
    "Segment",
    "Snippet",
    "SortOrder",
    "Source",
    "SourceRecord",
    "json_fields",
    "json_value",
    "replace",
]

SortOrder = Literal["relevance", "year", "year-asc", "title", "author"]
# "year" is newest first, "year-asc" oldest first, "author" by the first author's family name.
# A paper's reading status, in the order a reader goes through them; `unread` when unset.
READING_STATUSES = ("unread", "to-read", "reading", "read")


def _reduce_by_fields(self: Any) -> tuple[type, tuple[Any, ...]]:
    """Pickle a frozen slotted record as its class called with its field values.

    Papers, labels and sources have slots (no per-object dict: a quarter less memory for a
    100,000-paper library); the `__setstate__` that dataclasses gives such classes looks
    the fields up again for every object, which made reading the library cache ~25%
    slower. The constructor call pickle makes instead restores the same value.
    """
    return type(self), tuple(getattr(self, name) for name in self.__slots__)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a paper's text was read from, so the user can go back to the file.

    Attributes:
        path: the file as the user named it (or the bundled file's name).
        line: 1-based line where the paragraph or entry starts, when known.
        paragraph: 0-based paragraph index in a plain-text abstract list, when it is one.
    """

    __reduce__ = _reduce_by_fields

    path: str
    line: int | None = None
    paragraph: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
        if self.paragraph is not None:
            where += f" (paragraph {self.paragraph})"
        return where


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """What one source said about a paper, field for field, as it said it.

    `Paper`'s own fields are paperscope's reading (decoded, normalised, merged); a record
    keeps the text they were read from, so an export can copy an entry instead of
    rebuilding it from a narrower model, a citation can use every field the source gave,
    and `show --json` can show both side by side.

    Attributes:
        format: "bibtex", "csl-json", "ris", "zotero", "arxiv", "json" (paperscope's own
            field names) or another loader's name.
        type: the entry type as the source spells it ("collection" for `@Collection`,
            "legal_case", "CASE", "journalArticle").
        key: the source's own key or id ("" when it had none).
        fields: (name, value) pairs in source order, names as written (stored packed in
            one string, `packed`; build a record with `SourceRecord.of`). BibTeX: each value's
            text as written, delimiters, macros and `#` included (`{Foo}`, `"Bar"`,
            `acm # { Press}`), before LaTeX is decoded. RIS: one pair per tag line, repeated
            tags repeated. JSON formats (CSL-JSON, Zotero, arXiv): a string as itself,
            any other value (names, dates, numbers) as compact JSON text, so it keeps its
            structure (`json_fields`, `SourceRecord.item`). paperscope's own JSON records
            keep only the members `Paper` has no field for.
        source: the file and line it was read from.
        strings: BibTeX only: the `@string` macros the entry uses, (name as defined,
            value as written), so a copied entry still compiles.
        parents: BibTeX only: the records the entry's `crossref`/`xdata` name, in the order
            named (their own parents in theirs), so a copied entry keeps what it inherits.
    """

    __reduce__ = _reduce_by_fields

    format: str
    type: str
    key: str
    # The fields packed into one string, `name NUL value NUL name NUL value`: the library
    # cache of a 3,670-entry .bib unpickles in 69 ms so, 143 ms with a tuple of string
    # pairs (50 ms with no records). Build with `SourceRecord.of`; read `fields`, `get`.
    packed: str = ""
    source: Source | None = None
    strings: tuple[tuple[str, str], ...] = ()
    parents: tuple[SourceRecord, ...] = ()

    @classmethod
    def of(
        cls,
        format: str,
        type: str,
        key: str,
        fields: Iterable[tuple[str, str]],
        source: Source | None = None,
        strings: tuple[tuple[str, str], ...] = (),
        parents: tuple[SourceRecord, ...] = (),
    ) -> SourceRecord:
        """A record from its (name, value) pairs (a NUL in a value, never seen in a real
        file, becomes U+FFFD: it is the packing's separator)."""
        packed = "\0".join(part.replace("\0", "\ufffd") for pair in fields for part in pair)
        return cls(format, type, key, packed, source, strings, parents)

    @property
    def fields(self) -> tuple[tuple[str, str], ...]:
        """(name, value) pairs in source order (see the class's docstring)."""
        if not self.packed:
            return ()
        parts = self.packed.split("\0")
        return tuple(zip(parts[::2], parts[1::2]))

    def get(self, name: str) -> str | None:
        """The first value of field `name` (case-insensitive), as stored, or None."""
        folded = name.casefold()
        return next((value for key, value in self.fields if key.casefold() == folded), None)

    def replace_fields(self, fields: Iterable[tuple[str, str]]) -> SourceRecord:
        """The same record with other fields."""
        return SourceRecord.of(
            self.format, self.type, self.key, fields, self.source, self.strings, self.parents
        )

    def item(self) -> dict[str, Any]:
        """A JSON format's record as the object it was read from (CSL-JSON's item)."""
        return {name: json_value(value) for name, value in self.fields}

    def bibtex(self) -> str:
        """A BibTeX record as an entry: its type, key, field names and value text as the
        file has them (only the spacing between fields is paperscope's)."""
        body = "".join(f",\n  {name} = {value}" for name, value in self.fields)
        return f"@{self.type}{{{self.key}{body}\n}}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; JSON formats' values are decoded, so the item shows as JSON."""
        data: dict[str, Any] = {"format": self.format, "type": self.type, "key": self.key}
        if self.format in JSON_FORMATS:
            data["fields"] = self.item()
        else:
            data["fields"] = [list(pair) for pair in self.fields]
        if self.source is not None:
            data["source"] = {"path": self.source.path, "line": self.source.line}
        if self.strings:
            data["strings"] = dict(self.strings)
        if self.parents:
            data["parents"] = [parent.to_dict() for parent in self.parents]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SourceRecord:
        """Rebuild a record from `to_dict` output."""
        raw = data.get("fields") or ()
        if isinstance(raw, Mapping):
            pairs = json_fields(raw)
        else:
            pairs = tuple((str(k), str(v)) for k, v in raw)
        source = data.get("source")
        return cls.of(
            format=str(data.get("format") or ""),
            type=str(data.get("type") or ""),
            key=str(data.get("key") or ""),
            fields=pairs,
            source=Source(str(source.get("path") or ""), source.get("line"))
            if isinstance(source, Mapping)
            else None,
            strings=tuple((str(k), str(v)) for k, v in (data.get("strings") or {}).items()),
            parents=tuple(cls.from_dict(p) for p in data.get("parents") or ()),
        )


# Formats whose record values are JSON text (`SourceRecord.item` decodes them).
JSON_FORMATS = frozenset({"csl-json", "zotero", "arxiv", "json"})


def _reads_as_json(text: str) -> bool:
    """Whether a stored JSON-format value is JSON text rather than a plain string."""
    return text[:1] in ('"', "[", "{", "-") or text[:1].isdigit() or text in _JSON_WORDS


_JSON_WORDS = frozenset({"true", "false", "null"})


def json_fields(item: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A JSON object's members as a record's fields, in order.

    A string is kept as itself (readable in `show --json`, no JSON quoting to undo),
    anything else, and a string that would read as JSON, as compact JSON text;
    `json_value` reverses it.
    """
    return tuple(
        (
            str(name),
            value
            if isinstance(value, str) and not _reads_as_json(value)
            else json.dumps(value, ensure_ascii=False, separators=(",", ":")),
        )
        for name, value in item.items()
    )


def json_value(stored: str) -> Any:
    """A JSON-format record's stored value as the value it was (`json_fields`)."""
    return json.loads(stored) if _reads_as_json(stored) else stored


@dataclass(frozen=True, slots=True)
class Name:
    """A person's or an institution's name, kept in the parts its source gave.

    BibTeX, CSL-JSON, RIS and Zotero all say which part of a name is the family name;
    flattening to "Given Family" and splitting again later breaks particles ("van der
    Berg"), braced family names ("{de la Cruz Ortiz}") and institutions, so loaders that
    know the parts keep them here, and the citation writers read them from here.

    Attributes:
        family: the family name without its particle ("Berg").
        given: given names or initials ("J. A.").
        particle: the lowercase particle that belongs to the family name ("van der").
        suffix: "Jr.", "III".
        literal: a name that must never be split (an institution); the other parts are empty.
    """

    __reduce__ = _reduce_by_fields

    family: str = ""
    given: str = ""
    particle: str = ""
    suffix: str = ""
    literal: str = ""

    @property
    def family_full(self) -> str:
        """The family name with its particle ("van der Berg")."""
        return f"{self.particle} {self.family}".strip()

    def __str__(self) -> str:
        """The name as a person reads it: "J. A. van der Berg Jr.", or the literal."""
        if self.literal:
            return self.literal
        return " ".join(part for part in (self.given, self.family_full, self.suffix) if part)


@dataclass(frozen=True, slots=True)
class Label:
    """A facet value given to a paper, with the reason, so every label can be explained.

    Attributes:
        value: the facet id (`training`, `nvidia-gpu`, ...).
        reason: why it was given: `matched "KV cache"`, `from the source`, `implied by nvidia-gpu`.
    """

    __reduce__ = _reduce_by_fields

    value: str
    reason: str


@dataclass(frozen=True, slots=True)
class Paper:
    """One distinct paper, however many files and paragraphs its text came from.

    Null-ish fields mean "not known": a citation must never invent them.
    """

    __reduce__ = _reduce_by_fields

    id: str  # stable, unique, shell-safe: [a-z0-9][a-z0-9._-]*
    title: str
    title_inferred: bool = False  # True when no real title is known and `title` was derived
    short_name: str | None = None  # the system's name, e.g. "DynaPipe"
    authors: tuple[str, ...] = ()  # full names as a person reads them, "Given Family"
    # The same authors in their parts, when the source said which part is which (BibTeX,
    # CSL-JSON, RIS, Zotero); empty when only display strings are known (plain text).
    names: tuple[Name, ...] = ()
    editors: tuple[Name, ...] = ()  # editors of the book or proceedings, never authors
    authors_complete: bool = True  # False when the list was cut ("et al.")
    year: int | None = None
    month: int | None = None
    venue: str | None = None  # the venue as a human reads it, free text
    entry_type: str = "misc"  # BibTeX entry type: article, inproceedings, misc, ...
    booktitle: str | None = None
    journal: str | None = None
    volume: str | None = None
    number: str | None = None
    pages: str | None = None  # "542--559" style is not required: "542-559" is fine
    publisher: str | None = None
    doi: str | None = None
    arxiv: str | None = None
    url: str | None = None
    abstract: str = ""
    keywords: tuple[str, ...] = ()  # as the source gave them (BibTeX keywords, Zotero tags)
    categories: tuple[str, ...] = ()  # arXiv categories ("hep-ph", "cs.DC"), primary first
    collections: tuple[str, ...] = ()  # where the user filed it ("Thesis/Chapter 2"), Zotero
    attachments: tuple[str, ...] = ()  # files (PDFs) as paths, resolved against the source
    source_notes: tuple[str, ...] = ()  # the user's notes from the source, as plain text
    sources: tuple[Source, ...] = ()
    related: tuple[str, ...] = ()  # ids of linked but distinct versions
    # Why this paper's sources were merged into one ("a.bib:3 and b.bib:9: same DOI ..."),
    # so `show` can explain a merge; empty for a paper read from one record.
    merge_reasons: tuple[str, ...] = ()
    citation_key: str | None = None  # the source's own key (BibTeX), when it had one
    note: str | None = None  # curated remark, e.g. why a title is inferred
    # ISBN-13 digits and PubMed id, when the source gives them: a pasted one finds the paper.
    isbn: str | None = None
    pmid: str | None = None
    topics: tuple[Label, ...] = ()  # set by the tagger
    hardware: tuple[Label, ...] = ()  # set by the tagger, parents included
    # What each source said, field for field (merged papers keep every source's record).
    records: tuple[SourceRecord, ...] = ()

    @property
    def topic_ids(self) -> tuple[str, ...]:
        return tuple(label.value for label in self.topics)

    @property
    def hardware_ids(self) -> tuple[str, ...]:
        return tuple(label.value for label in self.hardware)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; `Paper.from_dict` reverses it exactly."""
        data = asdict(replace(self, records=()))
        data["records"] = [record.to_dict() for record in self.records]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """Rebuild a paper from `to_dict` output (for example a stored index field)."""
        known = {f.name for f in fields(cls)}
        values = {key: value for key, value in data.items() if key in known}
        for name in (
            "authors",
            "keywords",
            "related",
            "categories",
            "collections",
            "attachments",
            "source_notes",
            "merge_reasons",
        ):
            if name in values:
                values[name] = tuple(values[name])
        for name in ("names", "editors"):
            if name in values:
                values[name] = tuple(Name(**n) for n in values[name])
        if "sources" in values:
            values["sources"] = tuple(Source(**s) for s in values["sources"])
        if "records" in values:
            values["records"] = tuple(SourceRecord.from_dict(r) for r in values["records"])
        for name in ("topics", "hardware"):
            if name in values:
                values[name] = tuple(Label(**label) for label in values[name])
        return cls(**values)


@dataclass(frozen=True)
class LoadWarning:
    """Something in the user's input that was skipped or repaired, said in one line."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Library:
    """The papers loaded from a set of inputs, and what went wrong while loading them.

    Attributes:
        papers: distinct papers, in a stable order.
        warnings: one line per problem, each problem once; the loadable rest is in `papers`.
        files: every file that was read, so the index can tell when to rebuild.
        stamps: for each of `files`, (size, mtime_ns, SHA-256) taken by the very read
            that fed the papers, or None when unknown; the index records these, so a file
            changed after it was read is never taken as indexed.
        from_cache: whether this load was answered by the library cache.
    """

    papers: tuple[Paper, ...]
    warnings: tuple[LoadWarning, ...] = ()
    files: tuple[str, ...] = ()
    stamps: tuple[tuple[int, int, str] | None, ...] = ()
    # True when read whole from the library cache: its warnings were shown when it was
    # loaded, so a command need not print them again (`paperscope check` lists them).
    from_cache: bool = field(default=False, compare=False)

    def by_id(self) -> dict[str, Paper]:
        return {paper.id: paper for paper in self.papers}


@dataclass(frozen=True)
class Segment:
    """A run of snippet text; `highlighted` runs matched the query."""

    text: str
    highlighted: bool = False


@dataclass(frozen=True)
class Snippet:
    """Highlighted text as plain segments, never markup, so untrusted text stays literal."""

    segments: tuple[Segment, ...] = ()

    @property
    def plain(self) -> str:
        return "".join(segment.text for segment in self.segments)

    def marked(self, before: str = "**", after: str = "**") -> str:
        """The text with highlighted runs wrapped, for the command line."""
        return "".join(
            f"{before}{s.text}{after}" if s.highlighted else s.text for s in self.segments
        )


# Facet -> the `SearchRequest` field holding its selected values: the one map the index's
# counting (index.search.counting), the user's layer (index.search.user_layer) and the
# TUI's filters (tui.view.filters) read. The index counts topic to category; tag, status
# and collection are the layer's.
FACET_FIELDS: Mapping[str, str] = MappingProxyType(
    {
        "topic": "topics",
        "hardware": "hardware",
        "year": "years",
        "venue": "venues",
        "author": "authors",
        "keyword": "keywords",
        "category": "categories",
        "tag": "tags",
        "status": "statuses",
        "collection": "collections",
    }
)


@dataclass(frozen=True)
class SearchRequest:
    """Everything that decides a search result; equal requests give equal results.

    Selections are OR within one facet and AND across facets.
    """

    query: str = ""
    topics: frozenset[str] = frozenset()
    hardware: frozenset[str] = frozenset()
    years: frozenset[int] = frozenset()
    venues: frozenset[str] = frozenset()
    authors: frozenset[str] = frozenset()
    # The user's layer and the source's own labels (index.search.user_layer).
    tags: frozenset[str] = frozenset()  # the user's tags
    statuses: frozenset[str] = frozenset()  # reading statuses
    keywords: frozenset[str] = frozenset()  # the source's own keywords / tags (BibTeX, Zotero)
    categories: frozenset[str] = frozenset()  # arXiv categories ("hep-ph")
    collections: frozenset[str] = frozenset()  # Zotero collections ("Thesis/Chapter 2")
    year_range: tuple[int | None, int | None] | None = None  # inclusive; from --year A..B
    # Only these papers (ids), for the marked-only view: its hits and its facet counts.
    within: frozenset[str] | None = None
    sort: SortOrder = "relevance"
    limit: int = 50
    as_you_type: bool = False  # the last, unfinished word matches as a prefix
    # How many values to list per facet, where more than the engine's default are wanted
    # (a panel's "more…"); a limit past the facet's number of values lists every one.
    facet_limits: tuple[tuple[str, int], ...] = ()
    # False: the result has no facet counts (`facets` empty). A command that prints only
    # the papers asks for none: counting every facet over the matches is a fifth of a search.
    counts: bool = True

    @property
    def filter_count(self) -> int:
        count = sum(len(getattr(self, name)) for name in FACET_FIELDS.values())
        return count + (1 if self.year_range else 0)

    def selected(self, facet: str) -> frozenset[str]:
        """The values selected in `facet` (years as text, like the year facet's values)."""
        if facet == "year":
            return frozenset(str(year) for year in self.years)
        values: frozenset[str] = getattr(self, FACET_FIELDS[facet])
        return values


@dataclass(frozen=True)
class PageMatch:
    """Where a paper's full text matched: an attachment, its page, the words around."""

    path: str  # the attachment (as `Paper.attachments` has it)
    page: int | None  # 1-based; None when the source has no page breaks
    snippet: Snippet = field(default_factory=Snippet)


@dataclass(frozen=True)
class Hit:
    """One ranked paper in a result."""

    paper: Paper
    score: float
    matched_fields: tuple[str, ...] = ()
    snippet: Snippet = field(default_factory=Snippet)  # abstract fragments
    title: Snippet = field(default_factory=Snippet)  # the title, highlighted
    # Set when the paper matched in the full text of an attachment (index.search.fulltext).
    page_match: PageMatch | None = None


@dataclass(frozen=True)
class FacetCount:
    """How many matching papers carry one facet value, given the other facets' selections."""

    facet: str  # "topic", "hardware", "year", "venue", "author", "keyword", "category", "tag", ...
    value: str
    label: str
    count: int
    selected: bool = False
    parent: str | None = None  # for the hardware hierarchy


@dataclass(frozen=True)
class SearchResult:
    """What a search returns: ranked hits, totals and the facet counts over all matches."""

    request: SearchRequest
    total: int
    hits: tuple[Hit, ...]
    facets: dict[str, tuple[FacetCount, ...]]
    elapsed_ms: float = 0.0
    notice: str | None = None  # e.g. "Could not parse the query; searched the words instead"
    correction: str | None = None  # "did you mean" query, when nothing matched
    partial: bool = False  # a short prefix was capped to its most frequent expansions
    terms: tuple[str, ...] = ()  # the query's words as matched, for highlighting elsewhere
    library_size: int = 0
    # Facets whose listed values stop at the most frequent: `facet_limits` asks for more.
    more_values: frozenset[str] = frozenset()
