"""Writing papers into a Whoosh index: a whole build, or a few changed papers in place.

Split from index.store.generations, which decides *when* to build and where; this module is *how*.
The build is the slow part of a first start (docs/whoosh.md: the analysis dominates), so it
uses both cores when it can and keeps each writer's memory pool small. A large library is
built by a fresh process (index.store.child) that receives the papers as a stream, so
neither the caller's library nor its threads are forked into the writer's workers.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index, LockError
from whoosh.reading import IndexReader
from whoosh.writing import MERGE_SMALL

from index.library.identity import identities
from index.models import Library, Paper
from index.schema.fields import build_schema, document, paper_digest
from index.search.facet_build import updated_facet_masks
from index.search.facet_store import index_key, read_facet_masks, write_facet_masks
from index.search.paper_keys import PaperKeys, saved_keys, update_paper_keys, write_paper_keys
from index.search.parser import QueryBuilder
from index.search.positions import read_positions, updated_positions, write_positions
from index.search.prefixes import PREFIX_CAP, short_prefixes, write_letters
from index.search.spelling import add_words, count_words, write_words
from index.search.stored_postings import StoredPostings, write_stored_postings
from index.search.table_updates import stored_paper, update_table
from index.search.tables import read_counts, read_table, write_counts, write_table
from index.store.child import Publish, build_in_child
from index.store.leaving import LeaveBuilds
from index.whoosh_ext.columns import column_values, deleted_docnums
from index.whoosh_ext.internals import start_writer_tasks
from index.whoosh_ext.pool import fast_pool
from index.whoosh_ext.positioned import PositionedStorage

Progress = Callable[[int, int], None]
"""`progress(done, total)`: `done` of the `total` papers are in the writer. `(total, total)`
comes once every paper is in and before the index is written (the commit, then the tables),
which at 20,000 papers takes a third of the build: a caller says so instead of showing 99%."""
# Builds this large run in a fresh process (index.store.child) with two writer processes;
# smaller ones are quicker in place than starting an interpreter.
PARALLEL_MIN_PAPERS = 3000
# Up to this many papers the finished index is read through mmap for its tables (see
# `build_into`): a few MB at most, never the memory a big index's pages would take.
MAPPED_READ_PAPERS = 5000
# ...as long as no more than this share of the papers changed.
INCREMENTAL_MAX_SHARE = 0.25
# How much lower a yielding build runs (`build`): on two busy cores a preview of 1,000
# papers beside the build took 20 s at the same priority.
YIELDING_NICE = 10
# Each writer's in-memory posting pool before it spills a sorted run to disk. 64 MB cut a
# worker's peak from 413 to 166 MB at the same speed on 10,000 papers: the runs are merged
# at commit anyway, so a larger pool buys little but memory.
LIMIT_MB = 64


def keys_of(paper: Paper) -> PaperKeys:
    """The paper's handles for the user's layer and its citation key (index.search.paper_keys)."""
    # Here, not at the top: `index.citations` costs ~70 ms to import, and a search on a
    # current index imports this module but never writes.
    from index.citations.keys import base_key

    return PaperKeys(
        paper.id,
        identities(paper),
        paper.citation_key,
        paper.keywords,
        paper.collections,
        base_key(paper),
    )


def build(
    path: Path,
    papers: Sequence[Paper],
    progress: Progress | None,
    *,
    yielding: bool = False,
    publish: Publish | None = None,
    leave: LeaveBuilds | None = None,
) -> tuple[dict[str, float] | None, bool]:
    """Builds a complete index of `papers` in the empty folder `path`.

    A large library is built by a fresh interpreter fed a stream of the papers: the
    caller's library is neither copied into the writer's forked workers nor forked along
    with the caller's threads. That process also publishes the build when `publish` says
    where (`index.store.publish.finish_build`), so it can finish on its own if the
    caller stops waiting (`leave`: `index.store.child.LeaveBuilds`).
    `yielding`: that process runs at a lower priority (`YIELDING_NICE`), so what the
    caller does meanwhile (a preview index) is not slowed by it.

    Returns that build's peak memory (None when built here), and whether it was published.

    Raises:
        BuildFailed: the build process failed (one-line message).
        BuildDetached: the caller stopped waiting; the build process finishes and publishes.
    """
    if len(papers) >= PARALLEL_MIN_PAPERS and sys.executable:
        # Whoosh's writer workers are forked: one process where there is no fork.
        procs = 2 if (os.cpu_count() or 1) > 1 and hasattr(os, "fork") else 1
        nice = YIELDING_NICE if yielding else 0
        peak = build_in_child(path, papers, progress, procs, nice, publish=publish, leave=leave)
        return peak, publish is not None
    build_into(path, papers, progress)
    return None, False


def build_into(
    path: Path,
    papers: Iterable[Paper | tuple[Paper, str]],
    progress: Progress | None,
    *,
    total: int | None = None,
    procs: int = 1,
    compressed: bool = True,
) -> None:
    """Builds a complete index of `papers` in the empty folder `path`, with its tables.

    `papers` may carry each paper's `paper_json` already (the build process is sent it),
    so the stored field and digest are exactly what the caller's process would compute.
    `procs` > 1 forks writer workers: only call it so from a process without threads.
    `compressed=False` writes the posting blocks without zlib: for an index that lives
    one build (a sample's), 1,000 papers cost 6.3 -> 5.3 s of CPU and a third more disk.
    """
    if total is None:
        papers = list(papers)
        total = len(papers)
    ix = PositionedStorage(str(path)).create_index(build_schema())
    try:
        with fast_pool():
            words, keys = _write_all(ix, papers, total, progress, procs, compressed)
    finally:
        ix.close()
    write_words(path, words)
    # A big index is read without mmap: the tables below read much of the posting files, and
    # mapped pages count as this process's memory (at 100,000 papers they were most of its
    # peak). A small one is mapped: read through files, every block is a system call that
    # releases the GIL, and a build in a thread (a small library in the app, the sample
    # index) then waits on the app's busy UI thread (index.whoosh_ext.positioned).
    ix = FileStorage(str(path), supports_mmap=total <= MAPPED_READ_PAPERS).open_index()
    with ix.reader() as reader:
        write_table(path, reader, PREFIX_CAP)
        write_stored_postings(path, reader)
        _store_letters(path, reader)
        write_facet_masks(path, reader)  # what opening the index would compute
        write_paper_keys(path, reader, keys)  # the user's layer without the library
    ix.close()


def _store_letters(path: Path, reader: IndexReader) -> None:
    """Stores the short prefixes' match sets (index.search.prefixes) for segments that lack them."""
    table = read_table(path) or {}
    # Parsed exactly as the engine will parse the first keystrokes (same table).
    builder = QueryBuilder(None, table)
    nodes = {}
    for prefix in short_prefixes(table, reader.doc_count_all()):
        node = builder.parse(prefix, reader, as_you_type=True).query
        if node is not None:
            nodes[prefix] = node
    stored = StoredPostings.open(path, reader)  # the long lists, decoded (written first)
    try:
        write_letters(path, reader, nodes, stored)
    finally:
        stored.close()


def _write_all(
    ix: Index,
    papers: Iterable[Paper | tuple[Paper, str]],
    total: int,
    progress: Progress | None,
    procs: int,
    compressed: bool = True,
) -> tuple[Counter[str], list[PaperKeys]]:
    """Adds every paper and commits; returns the surface-word counts (index.search.spelling)
    and each paper's keys for the user's layer (index.search.paper_keys).

    With two procs, two forked workers analyze while this process only prepares the
    documents; `multisegment` keeps their two segments instead of merging them (a merge
    would cost as much again: docs/whoosh.md measured 1.8-2x over one process this way).
    """
    options: dict[str, Any] = {"limitmb": LIMIT_MB}
    if not compressed:  # each block says whether it is compressed: readers take both
        options["codec"] = W3Codec(compression=0)
    if procs > 1:
        options.update(procs=procs, multisegment=True)
    words: Counter[str] = Counter()
    keys: list[PaperKeys] = []
    writer = ix.writer(**options)
    try:
        if procs > 1:
            start_writer_tasks(writer, procs)  # fork the workers before any thread starts
        step = max(1, total // 100)
        for done, item in enumerate(papers, 1):
            paper, stored = item if isinstance(item, tuple) else (item, None)
            writer.add_document(**document(paper, stored))
            count_words(words, paper)
            keys.append(keys_of(paper))
            if progress is not None and (done % step == 0 or done == total):
                progress(done, total)  # (total, total): every paper is in, the writing starts
        writer.commit()
    except BaseException:
        _cancel(writer)
        raise
    return words, keys


def _cancel(writer: Any) -> None:
    """Cancels a writer; Whoosh's own cancel leaves a multi-process writer's workers
    waiting on their job queue for ever, so they are stopped here."""
    try:
        writer.cancel()
    finally:
        for task in getattr(writer, "tasks", ()):
            if task.is_alive():
                task.terminate()
                task.join(5)


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
    """
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
    wanted = {paper.id for paper in library.papers}
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
    with ix.reader() as reader:  # the new segment's first-keystroke masks; the rest are kept
        counts = update_table(
            folder, reader, before[1], added, [fields for _, fields in gone], PREFIX_CAP
        )
        write_stored_postings(folder, reader)
        _store_letters(folder, reader)
        masks, key = before
        after = index_key(reader)
        if masks is not None and key is not None and after is not None:
            write_facet_masks(folder, reader, updated_facet_masks(masks, key, reader, after))
        else:
            write_facet_masks(folder, reader)
        order = [paper.id for paper in library.papers]
        if not update_paper_keys(folder, reader, order, [keys_of(paper) for paper in papers]):
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
        writer = ix.writer(limitmb=LIMIT_MB)
    except LockError:  # someone else's writer: build a fresh copy instead of waiting
        return None
    try:
        reader = writer.reader()
        # The masks saved for the index as it is, patched after the commit (before the
        # deletions below, which change the segments this reader reads).
        before = read_facet_masks(folder, reader), index_key(reader)
        ids = before[0].ids if before[0] is not None else column_values(reader, "id")
        digests = column_values(reader, "digest")
        indexed: dict[str, tuple[int, bytes]] = {}
        doomed: set[int] = set()
        removed = 0
        deleted = set(deleted_docnums(reader))
        for docnum, paper_id in enumerate(ids):
            if docnum in deleted:
                continue
            if paper_id not in wanted or paper_id in indexed:  # gone, or a duplicate
                doomed.add(docnum)
                removed += paper_id not in wanted
            else:
                indexed[paper_id] = (docnum, digests[docnum])
        papers = []
        for paper in touched:
            old = indexed.get(paper.id)
            if old is None or old[1] != paper_digest(paper):
                papers.append(paper)
                if old is not None:
                    doomed.add(old[0])
        missing = wanted.difference(indexed).difference(p.id for p in papers)
        papers += [p for p in library.papers if p.id in missing]
        if len(papers) > INCREMENTAL_MAX_SHARE * max(1, len(library.papers)):
            writer.cancel()
            return None
        # What the removed documents held: the word and prefix counts lose them.
        gone = [stored_paper(reader, docnum) for docnum in sorted(doomed)]
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
