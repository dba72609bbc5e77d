"""A paper, the names and labels it carries, and the library of papers a load gives.

Frozen (slotted) dataclasses of plain values, so a loaded library can be pickled by the
library cache and handed between threads and processes. They live in the library package
because they are what it produces and what its cache stores: the cache's code fingerprint
(index.library.cache) walks this package. `index.models` re-exports them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from index.library.source_records import Source, SourceRecord, reduce_by_fields

__all__ = ["Label", "Library", "LoadWarning", "Name", "Paper"]


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

    __reduce__ = reduce_by_fields

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

    __reduce__ = reduce_by_fields

    value: str
    reason: str


@dataclass(frozen=True, slots=True)
class Paper:
    """One distinct paper, however many files and paragraphs its text came from.

    Null-ish fields mean "not known": a citation must never invent them.
    """

    __reduce__ = reduce_by_fields

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
