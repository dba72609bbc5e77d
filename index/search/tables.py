"""The most frequent completions of every one- and two-letter prefix, computed at build time.

A one-letter prefix expands to thousands of abstract terms; finding its most frequent ones
means walking all of them with their document frequencies, which costs ~0.4 s per letter
at 10,000 papers through Whoosh's multi-segment reader. Walking the lexicon once per build
(per segment, which is much cheaper than the merged view) and keeping the top completions
of each short prefix in a small JSON file beside the index makes that a dictionary lookup.
"""

from __future__ import annotations

import json
import marshal
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whoosh.reading import IndexReader

from index.atomic import write_bytes_atomic, write_text_atomic
from index.cancel import checkpoint
from index.search.facet_store import index_key

# The file beside the index, and the fields whose short prefixes it covers.
TABLE_FILE = "prefixes.json"
TABLE_FIELDS = ("abstract",)
# Prefixes up to this many letters are in the table.
TABLE_PREFIX = 2
# Every table field's term -> document count (live documents only), beside the table.
COUNTS_FILE = "terms.marshal"
COUNTS_FORMAT = 1
_MARSHAL_VERSION = 4  # stable since Python 3.4: readable by every supported version

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
    return table_of(
        {fieldname: term_frequencies(reader, fieldname) for fieldname in TABLE_FIELDS}, cap
    )


def table_of(counts: Mapping[str, Mapping[str, int]], cap: int) -> PrefixTable:
    """The table of every prefix of the terms in `counts` (field -> term -> document count)."""
    table: PrefixTable = {}
    for fieldname, frequencies in counts.items():
        groups: dict[str, list[tuple[int, str]]] = {}
        for term, frequency in frequencies.items():
            for length in range(1, min(TABLE_PREFIX, len(term)) + 1):
                groups.setdefault(term[:length], []).append((frequency, term))
        table[fieldname] = {prefix: prefix_entries(items, cap) for prefix, items in groups.items()}
    return table


def prefix_entries(items: list[tuple[int, str]], cap: int) -> list[list[object]]:
    """One prefix's entry: its `cap` commonest terms, then a marker if there are more."""
    return [
        [term, freq] for freq, term in sorted(items, key=lambda item: (-item[0], item[1]))[:cap]
    ] + ([["", len(items)]] if len(items) > cap else [])  # marks a capped list


def write_table(folder: Path, reader: IndexReader, cap: int) -> None:
    """Writes the table of a whole index, and the term counts an update patches it from."""
    counts = {fieldname: dict(term_frequencies(reader, fieldname)) for fieldname in TABLE_FIELDS}
    write_text_atomic(Path(folder) / TABLE_FILE, json.dumps(table_of(counts, cap)))
    write_counts(folder, index_key(reader), counts)


def write_counts(
    folder: Path, key: list[list[Any]] | None, counts: Mapping[str, Mapping[str, int]]
) -> None:
    """Saves every table field's term -> document count, for the index whose segments are
    `key` (index.search.facet_store.index_key): what an in-place update patches the table
    from (index.search.table_updates) instead of reading the lexicon again."""
    data = {"format": COUNTS_FORMAT, "key": key, "counts": {f: dict(c) for f, c in counts.items()}}
    write_bytes_atomic(Path(folder) / COUNTS_FILE, marshal.dumps(data, _MARSHAL_VERSION))


def read_counts(folder: Path, key: list[list[Any]] | None) -> dict[str, dict[str, int]] | None:
    """The saved counts when they were written for the index whose segments are `key`;
    None when missing, damaged, or written for another state of the index (an update
    killed between its commit and this file)."""
    try:
        data = marshal.loads((Path(folder) / COUNTS_FILE).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("format") != COUNTS_FORMAT:
        return None
    counts = data.get("counts")
    if key is None or data.get("key") != key or not isinstance(counts, dict):
        return None
    if not all(isinstance(c, dict) for c in counts.values()):
        return None
    return counts


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
