"""A posting pool that groups postings by term as they come, and writes each term whole.

Whoosh's pool keeps a 5-tuple per posting, sorts them, spills sorted runs to disk as
pickles and heap-merges the runs at commit, where each posting is then stepped through
once more to build its term's blocks: a lean build of 3,000 papers made 588,000 postings
and spent as long in that machinery as in analysing the papers. Here a posting is three
appends to its term's compact arrays (document numbers, weights, values): the terms are
sorted once at commit and each term's blocks are cut from its arrays with slices, so
the commit's work is per term, not per posting (`write_terms`).

A writer adds its documents in increasing document number (merged segments come after
the documents before them), so a term's postings arrive in the order Whoosh would sort
them. When the pool outgrows its `limitmb` it spills its terms, sorted, to a run file;
at commit the runs are merged by term and a term's arrays from each run are simply
concatenated, in run order.

The index written is the one `index.whoosh_ext.pool` writes, byte for byte
(tests/index/whoosh_ext/test_term_pool.py compares every file of the segments).
"""

from __future__ import annotations

import heapq
import pickle
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from whoosh.system import pack_uint
from whoosh.writing import SegmentWriter

from index.whoosh_ext.pool import BatchedPostingPool
from index.whoosh_ext.term_writer import Term, expand, tuples, write_terms

# How a field's posting values are kept, from its format's `fixed_value_size()`.
COUNTED = -2  # a `term_counts` field: the count alone (`TermPool.add_counts`)
LISTED = -1  # variable size (positions): every posting's bytes in a list
NO_VALUES = 0  # no values (existence): none kept
# Above 0: that many bytes a posting (counts), concatenated in a bytearray.
COUNT_BYTES = 4  # `pack_uint(count)`: Whoosh's Frequency format's value
# Counts are packed from an array("I") at commit: its items must be 4 bytes.
COUNTS_FIT = array("I").itemsize == COUNT_BYTES

# Memory estimates (bytes) for the spill limit: a term's dict entry, arrays and key, and
# a posting in each mode (its number and weight, plus its value or a list slot).
TERM_BYTES = 400
POSTING_BYTES = 12
LISTED_BYTES = 40
# Terms per pickled batch in a run file.
TERM_BATCH = 2048

Entry = list[Any]  # [document numbers array("I"), weights array("d"), values]


def _new_entry(mode: int) -> Entry:
    if mode > 0:
        return [array("I"), array("d"), bytearray()]
    return [array("I"), array("d"), [] if mode == LISTED else None]


class TermPool(BatchedPostingPool):
    """Postings grouped per (field, term) in arrays; see the module docstring.

    `fast_add_document` fills it a field at a time (`add_field`); anything else that
    adds postings (merging a segment in) goes through `add`, one posting at a time.
    """

    def __init__(self, tempstore: Any, segment: Any, limitmb: float = 128, **kwargs: Any) -> None:
        super().__init__(tempstore, segment, limitmb=limitmb, **kwargs)
        self.terms: dict[str, dict[Any, Entry]] = {}  # a counted field by str, others bytes
        self.modes: dict[str, int] = {}
        self.boosts: dict[str, float] = {}  # a counted field's format's field_boost
        self.grouped_runs: list[str] = []
        self.marked: set[str] = set()  # fields named by a spelling marker (no posting)
        self._unusual: bool | None = None

    def counts_of(self, field: Any, value: Any) -> dict[str, int] | None:
        """The field's `term_counts(value)` (index.schema.analysis), or None when it has
        none: the counts of the terms `field.index(value)` would give, each posting
        `(text.encode("utf-8"), count, count * format.field_boost, pack_uint(count))`."""
        term_counts = getattr(field, "term_counts", None)
        return term_counts(value) if term_counts is not None else None

    def unusual(self, schema: Any) -> bool:
        """Whether a field of the writer's schema has separate spelling words or term
        vectors, which only Whoosh's own `add_document` adds (asked once)."""
        if self._unusual is None:
            self._unusual = any(
                field.separate_spelling() or field.vector for _, field in schema.items()
            )
        return self._unusual

    def field_terms(
        self, fieldname: str, format: Any = None, counted: bool = False
    ) -> tuple[dict[Any, Entry], int]:
        """The field's terms and how its values are kept, created on first use; a field
        kept as counts (`add_counts`) is expanded first when given any other posting."""
        terms = self.terms.get(fieldname)
        if terms is None:
            mode = self.modes.get(fieldname)
            if mode is None:
                if counted and COUNTS_FIT:
                    mode = COUNTED
                    self.boosts[fieldname] = format.field_boost
                else:
                    size = format.fixed_value_size() if format is not None else None
                    mode = LISTED if size is None or size < 0 else size
                self.modes[fieldname] = mode
            terms = self.terms[fieldname] = {}
            self.fieldnames.add(fieldname)
        elif not counted and self.modes[fieldname] == COUNTED:
            boost = self.boosts[fieldname]
            terms = {key.encode("utf-8"): expand(e, boost) for key, e in terms.items()}
            self.terms[fieldname] = terms
            self.modes[fieldname] = COUNT_BYTES
        return terms, self.modes[fieldname]

    def add_counts(self, fieldname: str, format: Any, counts: dict[str, int], docnum: int) -> int:
        """Adds one document's terms in a field whose postings are each term's
        `(text.encode("utf-8"), count, count * format.field_boost, pack_uint(count))`
        (a `term_counts` field, see `fast_add_document`): kept as the document number
        and the count alone, the weights and values computed at commit. Returns the
        field's length."""
        terms, mode = self.field_terms(fieldname, format, counted=True)
        if mode != COUNTED:
            boost = format.field_boost
            items = ((t.encode("utf-8"), c, c * boost, pack_uint(c)) for t, c in counts.items())
            return self.add_field(fieldname, format, items, docnum, 1.0)
        before = len(terms)
        get = terms.get
        for text, count in counts.items():
            entry = get(text)
            if entry is None:
                entry = terms[text] = [array("I"), array("I"), None]
            entry[0].append(docnum)
            entry[1].append(count)
        self.currentsize += len(counts) * POSTING_BYTES + (len(terms) - before) * TERM_BYTES
        return sum(counts.values())

    def add_field(
        self, fieldname: str, format: Any, items: Iterable[Any], docnum: int, boost: float
    ) -> int:
        """Adds one document's postings `(tbytes, freq, weight, vbytes)` in a field, as
        `SegmentWriter.add_document` would add them to Whoosh's pool; returns the sum
        of their frequencies (the field's length)."""
        terms, mode = self.field_terms(fieldname, format)
        before = len(terms)
        length = count = 0
        get = terms.get
        if mode > 0:
            for tbytes, freq, weight, vbytes in items:
                length += freq
                count += 1
                entry = get(tbytes)
                if entry is None:
                    entry = terms[tbytes] = [array("I"), array("d"), bytearray()]
                entry[0].append(docnum)
                entry[1].append(weight * boost)
                entry[2] += vbytes
        elif mode == NO_VALUES:
            for tbytes, freq, weight, _ in items:
                length += freq
                count += 1
                entry = get(tbytes)
                if entry is None:
                    entry = terms[tbytes] = [array("I"), array("d"), None]
                entry[0].append(docnum)
                entry[1].append(weight * boost)
        else:
            for tbytes, freq, weight, vbytes in items:
                length += freq
                count += 1
                entry = get(tbytes)
                if entry is None:
                    entry = terms[tbytes] = [array("I"), array("d"), []]
                entry[0].append(docnum)
                entry[1].append(weight * boost)
                entry[2].append(vbytes)
        per_posting = LISTED_BYTES if mode < 0 else POSTING_BYTES + mode
        self.currentsize += count * per_posting + (len(terms) - before) * TERM_BYTES
        return length

    def add(self, item: tuple[Any, ...]) -> None:
        # item = (fieldname, tbytes, docnum, weight, vbytes)
        fieldname, tbytes, docnum, weight, vbytes = item
        terms, mode = self.field_terms(fieldname)
        if docnum == -1:  # Whoosh's spelling-word marker: the field, no posting
            self.marked.add(fieldname)
            return
        entry = terms.get(tbytes)
        if entry is None:
            entry = terms[tbytes] = _new_entry(mode)
            self.currentsize += TERM_BYTES
        entry[0].append(docnum)
        entry[1].append(weight)
        if mode > 0:
            entry[2] += vbytes
        elif mode == LISTED:
            entry[2].append(vbytes)
        self.currentsize += LISTED_BYTES if mode < 0 else POSTING_BYTES + mode

    def check_size(self) -> None:
        """Spills the terms to a run when the pool has outgrown its limit."""
        if self.currentsize > self.limit:
            self.spill()

    def spill(self) -> None:
        """Writes the terms, sorted, to a run file and empties the pool."""
        path, f = self._new_run()
        with f:
            batch: list[tuple[str, bytes, Entry]] = []
            for fieldname, tbytes, entry, boost in self._sorted_terms():
                batch.append((fieldname, tbytes, entry if boost is None else expand(entry, boost)))
                if len(batch) == TERM_BATCH:
                    pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
                    batch = []
            if batch:
                pickle.dump(batch, f, pickle.HIGHEST_PROTOCOL)
        self.grouped_runs.append(path)
        self.terms = {name: {} for name in self.terms}
        self.currentsize = 0

    def _sorted_terms(self) -> Iterator[Term]:
        for fieldname in sorted(self.terms):
            terms = self.terms[fieldname]
            if self.modes[fieldname] == COUNTED:
                boost = self.boosts[fieldname]
                for tbytes, text in sorted((text.encode("utf-8"), text) for text in terms):
                    yield fieldname, tbytes, terms[text], boost
            else:
                for tbytes in sorted(terms):
                    yield fieldname, tbytes, terms[tbytes], None

    def grouped(self) -> Iterator[Term]:
        """Every term's postings, in Whoosh's order (field, then term bytes), and the
        boost of a counted term's field (`add_counts`; None for any other)."""
        if not self.grouped_runs:
            return self._sorted_terms()
        self.spill()
        runs = self.grouped_runs
        self.grouped_runs = []
        return _merge(
            [((f, t, n, e) for f, t, e in self._read_run(path)) for n, path in enumerate(runs)]
        )

    def iter_postings(self) -> Any:
        """What `fast_add_postings` writes (it recognises this pool's `Grouped`); after
        Whoosh's own spill (`save`), Whoosh's merge of its runs."""
        if self.runs:
            self.save()
            return BatchedPostingPool.iter_postings(self)
        return Grouped(self)

    def save(self) -> None:
        # Whoosh's own spill (a multi-process writer that merges its workers' runs):
        # the postings as Whoosh's run of tuples.
        for fieldname, tbytes, entry, boost in list(self.grouped()):
            for item in tuples(fieldname, tbytes, entry, boost):
                self.current.append(item)
        self.terms = {name: {} for name in self.terms}
        BatchedPostingPool.save(self)

    def cleanup(self) -> None:
        for path in self.grouped_runs:
            self._remove_run(path)
        self.grouped_runs = []
        BatchedPostingPool.cleanup(self)


def _merge(
    runs: list[Iterator[tuple[str, bytes, int, Entry]]],
) -> Iterator[Term]:
    """One entry per term from sorted runs, its arrays concatenated in run order."""
    current: tuple[str, bytes] | None = None
    merged: Entry | None = None
    for fieldname, tbytes, _, entry in heapq.merge(*runs, key=lambda r: (r[0], r[1], r[2])):
        if (fieldname, tbytes) == current and merged is not None:
            merged[0].extend(entry[0])
            merged[1].extend(entry[1])
            if merged[2] is not None:
                merged[2] += entry[2]
            continue
        if current is not None and merged is not None:
            yield current[0], current[1], merged, None
        current, merged = (fieldname, tbytes), entry
    if current is not None and merged is not None:
        yield current[0], current[1], merged, None


class Grouped:
    """A `TermPool`'s postings: iterated, Whoosh's sorted tuples; `write_terms` takes
    them a term at a time."""

    def __init__(self, pool: TermPool) -> None:
        self.pool = pool

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for fieldname, tbytes, entry, boost in self.pool.grouped():
            yield from tuples(fieldname, tbytes, entry, boost)

    def write_into(self, fw: Any, schema: Any, lengths: Any) -> None:
        """`fw.add_postings(schema, lengths, self)`, a term at a time (`write_terms`)."""
        write_terms(fw, schema, lengths, self.pool.grouped(), self.pool.marked)


def fast_add_document(self: Any, **fields: Any) -> None:
    """`SegmentWriter.add_document` (Whoosh 2.7.5), each field's postings handed to a
    `TermPool` at once (`TermPool.add_field`); with any other pool, Whoosh's own."""
    pool = self.pool
    if not isinstance(pool, TermPool) or pool.unusual(self.schema):
        _stock_add_document(self, **fields)  # adds through `TermPool.add`
        return
    self._check_state()
    perdocwriter = self.perdocwriter
    schema = self.schema
    docnum = self.docnum
    docboost = self._doc_boost(fields)
    fieldnames = sorted([name for name in fields if not name.startswith("_")])
    self._check_fields(schema, fieldnames)
    perdocwriter.start_doc(docnum)
    try:
        for fieldname in fieldnames:
            value = fields.get(fieldname)
            if value is None:
                continue
            field = schema[fieldname]
            length = 0
            if field.indexed:
                fieldboost = self._field_boost(fields, fieldname, docboost)
                counts = pool.counts_of(field, value) if fieldboost == 1.0 else None
                if counts is not None:
                    length = pool.add_counts(fieldname, field.format, counts, docnum)
                else:
                    items = field.index(value)
                    length = pool.add_field(fieldname, field.format, items, docnum, fieldboost)
                if not field.scorable:
                    length = 0
            customval = fields.get(f"_stored_{fieldname}", value)
            perdocwriter.add_field(fieldname, field, customval if field.stored else None, length)
            column = field.column_type
            if column and customval is not None:
                perdocwriter.add_column_value(fieldname, column, field.to_column_value(customval))
    except Exception:
        perdocwriter.cancel_doc()
        raise
    perdocwriter.finish_doc()
    pool.check_size()
    self._added = True
    self.docnum += 1


_stock_add_document = SegmentWriter.add_document
