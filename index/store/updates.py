"""Re-indexing the changed papers of a library in place: cost in the change, not the library.

index.store.generations decides when an index is updated rather than rebuilt; this module
writes the update. Whoosh's commit adds the changed and new papers as a small segment and
marks the old documents deleted; every table beside the index is then brought up to date
from what the update removed and added, not recomputed over the library: the prefix
table from saved term counts (index.search.table_updates), the spelling words, the
paper keys and the facet state as files of changes (index.search.paper_keys,
index.search.facet_changes), the long posting lists kept for the old segments. The
first-keystroke masks are left as they are: the engine completes each for the new
segment when a search first asks (index.search.letter_masks). Each gives what a one-shot
build of the same library gives
(tests/index/store/test_update_equivalence.py). Measured in benchmarks/update_speed.py
against SQLite FTS5's same update.
"""

from __future__ import annotations

import json
import os
from itertools import compress
from pathlib import Path
from typing import Any, NamedTuple

from whoosh.codec.whoosh3 import W3Codec
from whoosh.index import Index, LockError
from whoosh.reading import IndexReader
from whoosh.writing import MERGE_SMALL

from index.models import Library, Paper
from index.schema.fields import document, paper_digest
from index.search.facet_build import updated_facet_masks
from index.search.facet_store import index_key, read_saved_facets, write_facet_masks
from index.search.letter_masks import letters_outdated
from index.search.paper_keys import saved_keys, update_paper_keys, write_paper_keys
from index.search.positions import read_positions, updated_positions, write_positions
from index.search.prefixes import PREFIX_CAP
from index.search.spelling import add_words
from index.search.stored_postings import write_stored_postings
from index.search.table_updates import stored_paper, update_table
from index.search.tables import read_counts, write_counts
from index.store.writer import LIMIT_MB, Progress, keys_of, store_letters
from index.whoosh_ext.columns import column_values, deleted_docnums
from index.whoosh_ext.patching import fast_pool

__all__ = ["INCREMENTAL_MAX_SHARE", "Updated", "update_in_place"]

# An update is written in place as long as no more than this share of the papers changed.
INCREMENTAL_MAX_SHARE = 0.25


class Updated(NamedTuple):
    """What an in-place update did: papers written (new or changed) and papers removed."""

    written: int
    removed: int

    def __str__(self) -> str:
        if not self.written and not self.removed:  # a file was saved, no paper in it changed
            return "no paper changed"
        parts = [f"{count} {'paper' if count == 1 else 'papers'}" for count in self]
        if not self.removed:
            return f"updated {parts[0]}"
        if not self.written:
            return f"removed {parts[1]}"
        return f"updated {parts[0]}, removed {parts[1]}"


def update_in_place(
    ix: Index, folder: Path, library: Library, changed: set[str], progress: Progress | None
) -> Updated | None:
    """Re-indexes the changed papers of the changed files in place.

    Only papers whose content digest differs from the indexed one are rewritten (a file of
    10,000 papers with 100 edited costs 100 documents). Returns None when a fresh build is
    the better deal (too much changed) or Whoosh's writer lock is taken.

    Callers pause Python's cyclic collector around it (tui.startup: the app's reload and
    the command line): the ~70,000 postings held until the commit would set off full
    collections that walk every object of the process (0.1 s of every update at 10,000
    papers, 0.9 s of one in a few at 100,000). The library sets no collector policy.
    """
    return _update_in_place(ix, folder, library, changed, progress)


def _update_in_place(
    ix: Index, folder: Path, library: Library, changed: set[str], progress: Progress | None
) -> Updated | None:
    # Sources may name a file as the user did or by its bare name (the bundled corpus).
    names = changed | {os.path.basename(name) for name in changed}
    # A library names a handful of files: each is matched once, not once per paper (one
    # loop, no generator per paper: at 100,000 papers ~0.1 s of the update before).
    named: dict[str, bool] = {}
    touched = []
    for paper in library.papers:
        for source in paper.sources:
            hit = named.get(source.path)
            if hit is None:
                path = source.path
                hit = named[path] = path in names or os.path.basename(path) in names
            if hit:
                touched.append(paper)
                break
    order = [paper.id for paper in library.papers]
    wanted = set(order)
    # The quicker pool and posting writer for the whole write: the writer makes its pool
    # when created, and its commit writes the postings (index.whoosh_ext.pool; the update
    # of 100 papers at 10,000 committed through Whoosh's own writer took ~2x as long).
    with fast_pool():
        written = _rewrite(ix, folder, library, touched, wanted, progress)
    if written is None:
        return None
    papers, removed, gone, added, before = written
    rewritten = {paper.id for paper in papers}
    write_positions(
        folder,
        updated_positions(
            read_positions(folder),
            (paper for paper in touched if paper.id not in rewritten),
            rewritten,
            wanted,
        ),
    )
    if not papers and not gone and read_counts(folder, before[1]) is not None:
        return Updated(0, 0)  # and the last update's tables were all written (see below)
    add_words(folder, papers, (paper for paper, _ in gone))
    with ix.reader() as reader:
        counts = update_table(
            folder, reader, before[1], added, [fields for _, fields in gone], PREFIX_CAP
        )
        write_stored_postings(folder, reader)
        # The first-keystroke masks stay as they are: the engine completes each for the
        # new segment on first use (index.search.letter_masks).
        if letters_outdated(folder, reader):
            store_letters(folder, reader)
        saved, key = before
        after = index_key(reader)
        if saved is not None and key is not None and after is not None:
            computed = updated_facet_masks(saved.masks, key, reader, after, saved.counts)
            write_facet_masks(folder, reader, computed, saved.base)
        else:
            write_facet_masks(folder, reader)
        # The replaced papers' keys from their stored papers: the saved rows stay unread
        # when the papers kept their order and base citation keys.
        before_keys = {paper.id: keys_of(paper) for paper, _ in gone}
        fresh = [keys_of(paper) for paper in papers]
        if not update_paper_keys(folder, reader, order, fresh, before_keys):
            known = saved_keys(folder)
            write_paper_keys(
                folder,
                reader,
                (
                    known[paper.id]
                    if paper.id in known and paper.id not in rewritten
                    else keys_of(paper)
                    for paper in library.papers
                ),
            )
        if counts is not None:  # last: counts that fit the index vouch for every table above
            write_counts(folder, index_key(reader), counts)
    return Updated(len(papers), removed)


class _Written(NamedTuple):
    """What `_rewrite` committed: the papers indexed anew, how many were removed, the field
    values of the documents deleted and added, and the facet masks and index key from
    before the commit."""

    papers: list[Paper]
    removed: int
    gone: list[tuple[Paper, dict[str, Any]]]
    added: list[dict[str, Any]]
    before: tuple[Any, Any]


def _rewrite(
    ix: Index,
    folder: Path,
    library: Library,
    touched: list[Paper],
    wanted: set[str],
    progress: Progress | None,
) -> _Written | None:
    """Deletes the documents of changed and removed papers and adds the changed and new
    ones, in one Whoosh commit; None (nothing written) when too much changed or another
    writer holds the index."""
    try:
        # Its posting blocks without zlib: a segment of 100 papers is small on disk either
        # way, and compressing its ~4,000 lists of two or more postings took ~10% of the
        # commit (each block says whether it is compressed: readers take both).
        writer = ix.writer(limitmb=LIMIT_MB, codec=W3Codec(compression=0))
    except LockError:  # someone else's writer: build a fresh copy instead of waiting
        return None
    try:
        reader = writer.reader()
        # The masks saved for the index as it is, patched after the commit (before the
        # deletions below, which change the segments this reader reads).
        before = read_saved_facets(folder, reader), index_key(reader)
        ids = before[0].masks.ids if before[0] is not None else column_values(reader, "id")
        indexed, doomed, removed = _indexed(ids, deleted_docnums(reader), wanted)
        digests = reader.column_reader("digest")  # the touched papers' only
        papers = []
        for paper in touched:
            old = indexed.get(paper.id)
            if old is None or digests[old] != paper_digest(paper):
                papers.append(paper)
                if old is not None:
                    doomed.add(old)
        missing = wanted.difference(indexed).difference(p.id for p in papers)
        if missing:  # wanted papers the index lacks (none, as a rule)
            papers += [p for p in library.papers if p.id in missing]
        if len(papers) > INCREMENTAL_MAX_SHARE * max(1, len(library.papers)):
            writer.cancel()
            return None
        # What the removed documents held: the word and prefix counts lose them.
        try:
            gone = [stored_paper(reader, docnum) for docnum in sorted(doomed)]
        except (KeyError, TypeError, ValueError):  # a stored paper unreadable: build afresh
            writer.cancel()
            return None
        for docnum in doomed:
            writer.delete_document(docnum)
        added = [document(paper) for paper in papers]
        for done, fields in enumerate(added, 1):
            writer.add_document(**fields)
            if progress is not None:
                progress(done, len(papers))
        if papers or doomed:
            writer.commit(mergetype=_merge_for_update)
        else:  # a file saved with no paper changed: no new generation of the index
            writer.cancel()
    except BaseException:
        writer.cancel()
        raise
    return _Written(papers, removed, gone, added, before)


def _indexed(
    ids: list[str], deleted: list[int], wanted: set[str]
) -> tuple[dict[str, int], set[int], int]:
    """Each wanted paper's live document, the live documents to delete (papers gone from
    the library, and a paper's later duplicates), and how many of those are gone papers.

    In C-speed steps, not a loop over 100,000 documents (~0.05 s an update); a library
    with duplicates takes the loop.
    """
    flags = bytearray(b"\x01") * len(ids)
    for docnum in deleted:
        flags[docnum] = 0
    live = list(compress(range(len(ids)), flags))
    # Built from the last document back: each paper's first live document wins.
    indexed = dict(zip(map(ids.__getitem__, reversed(live)), reversed(live)))
    if len(indexed) == len(live):
        gone = indexed.keys() - wanted
        doomed = {indexed.pop(paper_id) for paper_id in gone}
        return indexed, doomed, len(doomed)
    indexed, doomed, removed = {}, set(), 0
    for docnum in live:
        paper_id = ids[docnum]
        if paper_id not in wanted or paper_id in indexed:  # gone, or a duplicate
            doomed.add(docnum)
            removed += paper_id not in wanted
        else:
            indexed[paper_id] = docnum
    return indexed, doomed, removed


def _merge_for_update(writer: Any, segments: list[Any]) -> list[Any]:
    """The segments an update's commit keeps (Whoosh's merge policy, cheaper).

    A segment whose every document was deleted (an earlier update's, whose papers were
    edited again) is dropped: nothing of it is copied. The small segments Whoosh's own
    policy (`MERGE_SMALL`) then picks to merge get their live documents indexed again
    from their stored papers, instead of Whoosh copying every posting of every term,
    deleted documents' too: at 100,000 papers, merging twelve earlier updates' segments
    took 5 s of CPU for the 100 documents still live in them.
    """
    return MERGE_SMALL(_Readding(writer), [s for s in segments if s.doc_count() > 0])


class _Readding:
    """What `MERGE_SMALL` uses of a writer, adding a merged segment's live documents anew."""

    def __init__(self, writer: Any) -> None:
        self.storage, self.schema, self._writer = writer.storage, writer.schema, writer

    def add_reader(self, reader: IndexReader) -> None:
        for docnum in range(reader.doc_count_all()):
            if not reader.is_deleted(docnum):
                stored = reader.stored_fields(docnum)["paper"]
                self._writer.add_document(**document(Paper.from_dict(json.loads(stored)), stored))
