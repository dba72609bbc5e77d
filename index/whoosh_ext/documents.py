"""Whoosh's `SegmentWriter.add_document`, adding a bulky field's postings in one call.

A paper makes ~300 postings, ~85% of them in two fields (the abstract's stems and the
title's, authors' and short name's edge n-grams). Whoosh's `add_document` takes each
posting from the field's generator, multiplies its weight, adds up the field length and
hands it to the pool, where its size is estimated: several Python steps per posting on
top of the analysis. A field that offers its postings as lists (`postings(value)`,
index.schema.analysis) is added here at once: the pool's tuples are made by `zip` and
its size estimate summed by `map`, in C (`add_postings_at_once`). Every other field, and
every field whose writer is not this one, goes Whoosh's way; the same documents, postings,
lengths, stored values and columns are written (tests/index/whoosh_ext/test_pool.py).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from whoosh.util.text import utf8encode

__all__ = ["add_document", "add_postings_at_once"]


def add_postings_at_once(
    pool: Any,
    fieldname: str,
    docnum: int,
    texts: list[bytes],
    weights: list[float],
    values: list[bytes],
) -> None:
    """`pool.add((fieldname, text, docnum, weight, value))` for each posting, in one call.

    The size is Whoosh's estimate (index.whoosh_ext.pool.BatchedPostingPool.add) summed;
    a run is spilled before the postings that would pass the limit, not in their midst,
    which changes where runs end, never the sorted postings they merge into.
    """
    count = len(texts)
    size = (
        count * (150 + len(fieldname))
        + 2 * sum(map(len, texts))
        + sum(map(len, filter(None, values)))
    )
    pool.fieldnames.add(fieldname)
    if pool.currentsize + size > pool.limit and pool.current:
        pool.save()
    pool.currentsize += size
    pool.current.extend(
        zip(repeat(fieldname, count), texts, repeat(docnum, count), weights, values)
    )


def add_document(self: Any, **fields: Any) -> None:
    """`SegmentWriter.add_document` (Whoosh 2.7), with `add_postings_at_once` for a field
    that has `postings`, when the pool is one that keeps `current` and `currentsize`."""
    self._check_state()
    perdocwriter = self.perdocwriter
    schema = self.schema
    docnum = self.docnum
    pool = self.pool
    add_post = pool.add
    at_once = hasattr(pool, "current") and hasattr(pool, "currentsize")

    docboost = self._doc_boost(fields)
    fieldnames = sorted([name for name in fields if not name.startswith("_")])
    self._check_fields(schema, fieldnames)

    perdocwriter.start_doc(docnum)
    vbytes = None  # Whoosh gives a spelling word the last posting's value
    try:
        for fieldname in fieldnames:
            value = fields.get(fieldname)
            if value is None:
                continue
            field = schema[fieldname]

            length = 0
            if field.indexed:
                fieldboost = self._field_boost(fields, fieldname, docboost)
                scorable = field.scorable
                postings = getattr(field, "postings", None)
                if at_once and postings is not None and isinstance(value, str):
                    texts, freqs, weights, values = postings(value)
                    if fieldboost != 1.0:
                        weights = [weight * fieldboost for weight in weights]
                    if scorable:
                        length = sum(freqs)
                    add_postings_at_once(pool, fieldname, docnum, texts, weights, values)
                    vbytes = values[-1] if values else vbytes
                else:
                    for tbytes, freq, weight, vbytes in field.index(value):
                        weight *= fieldboost
                        if scorable:
                            length += freq
                        add_post((fieldname, tbytes, docnum, weight, vbytes))

            if field.separate_spelling():
                spellfield = field.spelling_fieldname(fieldname)
                for word in field.spellable_words(value):
                    word = utf8encode(word)[0]
                    add_post((spellfield, word, 0, 1, vbytes))

            vformat = field.vector
            if vformat:
                analyzer = field.analyzer
                vitems = vformat.word_values(value, analyzer, mode="index")
                vitems = sorted((text, weight, vbytes) for text, _, weight, vbytes in vitems)
                perdocwriter.add_vector_items(fieldname, field, vitems)

            customval = fields.get(f"_stored_{fieldname}", value)
            stored = customval if field.stored else None
            perdocwriter.add_field(fieldname, field, stored, length)

            column = field.column_type
            if column and customval is not None:
                perdocwriter.add_column_value(fieldname, column, field.to_column_value(customval))
    except Exception:
        perdocwriter.cancel_doc()
        raise

    perdocwriter.finish_doc()
    self._added = True
    self.docnum += 1
