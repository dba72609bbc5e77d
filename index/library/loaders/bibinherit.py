"""BibTeX `crossref` and BibLaTeX `xdata` inheritance, `@set`, and PMLR volume exports.

People rarely repeat a proceedings' title, year, publisher and editors in every paper:
BibTeX lets a child name its parent (`crossref = {icml2020}`), BibLaTeX adds `xdata`
containers, and PMLR's volume exports give one `@Proceedings` record followed by
`@InProceedings` entries with no booktitle or year at all. Here each child gets what its
parent supplies, before the entry becomes a `Paper`.

Which records are papers: a parent supplies fields but is not listed itself unless it
has an abstract of its own. BibTeX's `min_crossrefs` lists a parent once two entries
cited in a document refer to it; in a library nothing is "cited", and a proceedings
volume or an edited collection is a container a reader browses *through*, so paperscope
keeps it out of the list by default and lets its own abstract (a book the user reads as
a work) bring it back. `@xdata` and `@set` records are never papers.

A folder of .bib files is one library, as `\\bibliography{procs,papers}` makes it one
document: a child may name a parent that lives in another file of the same load. The load
then parses the two files again with `SharedParents` (see `index.library.bibshare`): the
parent's file learns that its entry is a parent (so it is not listed, unless it has an
abstract), and the child's file gets the parent, resolved in its own file, to inherit from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from index.models import SourceRecord

__all__ = ["Record", "SharedParents", "inherit", "named_parents"]

# Fields a child never takes from its parent: they describe the parent itself.
_OWN = frozenset(
    {
        "title",
        "subtitle",
        "titleaddon",
        "shorttitle",
        "abstract",
        "keywords",
        "crossref",
        "xdata",
        "xref",
        "ids",
        "key",
        "label",
        "doi",
        "url",
        "eprint",
        "eprinttype",
        "archiveprefix",
        "pages",
        "note",
        "annotation",
        "annote",
        "file",
        "entryset",
        "related",
        "shorthand",
        "sortkey",
        "indextitle",
        "isbn",
        "pagetotal",
        "urldate",
        "author",
    }
)
# Parent types whose title is the child's booktitle (BibLaTeX's inheritance table).
_CONTAINERS = frozenset(
    {
        "proceedings",
        "mvproceedings",
        "book",
        "mvbook",
        "collection",
        "mvcollection",
        "reference",
        "mvreference",
        "periodical",
    }
)
_DEPTH = 8  # parents of parents (an mvbook above a book); deeper is a cycle


@dataclass
class Record:
    """One entry on its way to a paper: its type, key, line and resolved field values."""

    entry_type: str
    key: str
    line: int
    values: dict[str, str]
    # The entry as written (names, raw values, macros; parents added once all are read).
    raw: SourceRecord | None = None


@dataclass(frozen=True)
class SharedParents:
    """What the other files of one load say about a file's parents and children.

    Attributes:
        records: parents that live in other files (lower-case key -> the parent, its own
            inheritance already resolved there); the file's own entries win over them.
        referenced: keys of this file's entries (lower case) that entries of other files
            name as their `crossref` or `xdata` parent.
    """

    records: Mapping[str, Record] = field(default_factory=dict)
    referenced: frozenset[str] = frozenset()


def _supply(child: Record, parent: Record, mapped: bool) -> None:
    """Copy into `child` what it lacks of `parent`; `mapped`: crossref's title -> booktitle."""
    values = child.values
    if mapped and parent.entry_type in _CONTAINERS:
        if parent.values.get("title") and not values.get("booktitle"):
            values["booktitle"] = parent.values["title"]
        if parent.values.get("author") and not values.get("bookauthor"):
            values["bookauthor"] = parent.values["author"]
    for name, value in parent.values.items():
        if name not in _OWN and value and not values.get(name):
            values[name] = value


def _parents(record: Record, by_key: dict[str, Record]) -> list[tuple[Record, bool]]:
    found = []
    for name in ("xdata",):
        for key in record.values.get(name, "").split(","):
            if key.strip().lower() in by_key:
                found.append((by_key[key.strip().lower()], False))
    parent = record.values.get("crossref", "").strip().lower()
    if parent in by_key:
        found.append((by_key[parent], True))
    return found


def _resolve(record: Record, by_key: dict[str, Record], foreign: set[int], depth: int = 0) -> None:
    if depth > _DEPTH:
        return
    for parent, mapped in _parents(record, by_key):
        if parent is record:
            continue
        if id(parent) not in foreign:  # another file's parent was resolved in its file
            _resolve(parent, by_key, foreign, depth + 1)
        _supply(record, parent, mapped)


def inherit(
    records: Sequence[Record], shared: SharedParents | None = None
) -> tuple[list[Record], list[tuple[Record, str]]]:
    """The records that are papers, with inherited fields; and (child, parent key) pairs
    for parents named but neither in the file nor in `shared` (the child keeps what it has).
    """
    by_key = {r.key.lower(): r for r in records if r.key}
    own = set(by_key)
    foreign: set[int] = set()
    if shared is not None:
        for key, parent in shared.records.items():
            if key not in own:  # a copy: this file's children must not write into it
                by_key[key] = Record(
                    parent.entry_type, parent.key, parent.line, dict(parent.values), parent.raw
                )
                foreign.add(id(by_key[key]))
    parents: set[int] = {
        id(by_key[key]) for key in (shared.referenced if shared else ()) if key in own
    }
    problems: list[tuple[Record, str]] = []  # (child, missing parent key)
    for record in records:
        for name in ("crossref", "xdata"):
            for written in record.values.get(name, "").split(","):
                key = written.strip()
                if not key:
                    continue
                if key.lower() in by_key:
                    parents.add(id(by_key[key.lower()]))
                else:
                    problems.append((record, key))
    volume = _pmlr_volume(records)
    for record in records:
        if record.values.get("crossref") or record.values.get("xdata"):
            _resolve(record, by_key, foreign)
        elif (
            volume is not None
            and record.entry_type == "inproceedings"
            and not (record.values.get("booktitle") or record.values.get("year"))
        ):
            parents.add(id(volume))
            _supply(record, volume, False)
    papers = [
        r
        for r in records
        if r.entry_type not in ("xdata", "set")
        and (id(r) not in parents or r.values.get("abstract"))
    ]
    return papers, problems


def named_parents(records: Sequence[Record]) -> frozenset[str]:
    """Every key (lower case) the records name as their `crossref` or `xdata` parent."""
    return frozenset(
        written.strip().lower()
        for record in records
        for name in ("crossref", "xdata")
        for written in record.values.get(name, "").split(",")
        if written.strip()
    )


def _pmlr_volume(records: Sequence[Record]) -> Record | None:
    """The one `@proceedings` record of a file, when the file has exactly one and it has
    no title of its own (a PMLR volume export gives only its `booktitle`)."""
    volumes = [r for r in records if r.entry_type == "proceedings"]
    if len(volumes) == 1 and not volumes[0].values.get("title"):
        return volumes[0]
    return None
