"""The most frequent completions of every one- and two-letter prefix, computed at build time.

A one-letter prefix expands to thousands of abstract terms; finding its most frequent ones
means walking all of them with their document frequencies, which costs ~0.4 s per letter
at 10,000 papers through Whoosh's multi-segment reader. Walking the lexicon once per build
(per segment, which is much cheaper than the merged view) and keeping the top completions
of each short prefix in a small JSON file beside the index makes that a dictionary lookup.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from whoosh.reading import IndexReader

from index.atomic import write_text_atomic
from index.cancel import checkpoint

# The file beside the index, and the fields whose short prefixes it covers.
TABLE_FILE = "prefixes.json"
TABLE_FIELDS = ("abstract",)
# Prefixes up to this many letters are in the table.
TABLE_PREFIX = 2

PrefixTable = dict[str, dict[str, list[list[object]]]]  # field -> prefix -> [[term, df]]


def term_frequencies(reader: IndexReader, fieldname: str) -> Counter[str]:
    """Every term of a field with its document frequency, summed over the segments."""
    counts: Counter[str] = Counter()
    for leaf in reader.leaf_readers():
        leaf_reader = leaf[0]
        if fieldname not in leaf_reader.indexed_field_names():
            continue
        for text, info in leaf_reader.iter_field(fieldname):
            counts[text.decode("utf-8")] += info.doc_frequency()
    return counts


def prefix_frequencies(reader: IndexReader, fieldname: str, prefix: str) -> list[tuple[str, int]]:
    """The field's terms starting with `prefix`, with document frequencies (per segment)."""
    counts: Counter[str] = Counter()
    for leaf in reader.leaf_readers():
        leaf_reader = leaf[0]
        if fieldname not in leaf_reader.indexed_field_names():
            continue
        for text, info in leaf_reader.iter_prefix(fieldname, prefix):
            checkpoint()  # a superseded search stops here (index.cancel)
            counts[text.decode("utf-8")] += info.doc_frequency()
    return list(counts.items())


def build_table(reader: IndexReader, cap: int) -> PrefixTable:
    """field -> prefix -> its `cap` most frequent terms (with frequencies), best first."""
    table: PrefixTable = {}
    for fieldname in TABLE_FIELDS:
        groups: dict[str, list[tuple[int, str]]] = {}
        for term, frequency in term_frequencies(reader, fieldname).items():
            for length in range(1, min(TABLE_PREFIX, len(term)) + 1):
                groups.setdefault(term[:length], []).append((frequency, term))
        table[fieldname] = {
            prefix: [
                [term, freq]
                for freq, term in sorted(items, key=lambda item: (-item[0], item[1]))[:cap]
            ]
            + ([["", len(items)]] if len(items) > cap else [])  # marks a capped list
            for prefix, items in groups.items()
        }
    return table


def write_table(folder: Path, reader: IndexReader, cap: int) -> None:
    write_text_atomic(Path(folder) / TABLE_FILE, json.dumps(build_table(reader, cap)))


def add_terms(
    folder: Path, reader: IndexReader, documents: Iterable[Mapping[str, Any]], cap: int
) -> None:
    """Puts the terms of documents an in-place update indexed into the table beside it.

    Without this a one- or two-letter prefix kept answering from the build's lexicon:
    typing `zy` found nothing after an update brought the library's only `zyzzyva`. A
    complete list gains the new terms; a capped one (the commonest `cap` only) takes a new
    term whose document frequency earns a place. A term already listed keeps its place, so
    the stored first-keystroke masks of unchanged prefixes stay valid; terms whose papers
    went stay listed and match nothing, which is what a rebuild would show. Far cheaper
    than `build_table` (one walk of the whole lexicon): only the update's terms are read.
    """
    table = read_table(folder)
    if table is None:
        return  # no table: short prefixes walk the lexicon, which has the new terms
    documents = list(documents)
    for fieldname, prefixes in table.items():
        if fieldname not in reader.schema:
            continue
        field = reader.schema[fieldname]
        terms = {
            term.decode("utf-8")
            for document in documents
            if isinstance(document.get(fieldname), str)
            for term, *_ in field.index(document[fieldname])
        }
        for term in terms:
            frequency = reader.doc_frequency(fieldname, term)
            for length in range(1, min(TABLE_PREFIX, len(term)) + 1):
                prefixes[term[:length]] = _with_term(
                    prefixes.get(term[:length], []), term, frequency, cap
                )
    write_text_atomic(Path(folder) / TABLE_FILE, json.dumps(table))


def _with_term(
    listed: list[list[object]], term: str, frequency: int, cap: int
) -> list[list[object]]:
    """One prefix's list with `term` in its place by frequency, cut to `cap` (marked)."""
    capped = bool(listed) and listed[-1][0] == ""
    entries = listed[:-1] if capped else list(listed)
    if any(entry[0] == term for entry in entries):
        return listed  # known: its count is the build's (the order the masks were made for)
    entries.append([term, frequency])
    entries.sort(key=lambda entry: (-_count(entry), str(entry[0])))
    marker = listed[-1] if capped else ["", cap + 1]
    if len(entries) > cap:
        entries, capped = entries[:cap], True
    return entries + ([marker] if capped else [])


def _count(entry: list[object]) -> int:
    """The document frequency of a table entry ([term, df]; `read_table` checked it)."""
    value = entry[1]
    return value if isinstance(value, int) else 0


def read_table(folder: Path) -> PrefixTable | None:
    """The table beside an index, or None (older index, or unreadable: expand on demand)."""
    try:
        data = json.loads((Path(folder) / TABLE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if _well_formed(data) else None


def _well_formed(data: object) -> bool:
    """field -> prefix -> [[term, count], ...]: a table of other types would raise later."""
    if not isinstance(data, dict):
        return False
    for table in data.values():
        if not isinstance(table, dict):
            return False
        for listed in table.values():
            if not isinstance(listed, list) or not all(
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], str)
                and isinstance(item[1], int)
                for item in listed
            ):
                return False
    return True
