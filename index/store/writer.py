"""Writing papers into a Whoosh index: a whole build (a few changed papers in place:
index.store.updates).

Split from index.store.generations, which decides *when* to build and where; this module is *how*.
The build is the slow part of a first start (docs/whoosh.md: the analysis dominates), so it
uses both cores when it can and keeps each writer's memory pool small. A large library is
built by a fresh process (index.store.child) that receives the papers as a stream, so
neither the caller's library nor its threads are forked into the writer's workers.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index
from whoosh.reading import IndexReader

from index.library.identity import identities
from index.models import Paper
from index.schema.fields import build_schema, document
from index.search.facet_store import write_facet_masks
from index.search.paper_keys import PaperKeys, write_paper_keys
from index.search.parser import QueryBuilder
from index.search.prefixes import PREFIX_CAP, short_prefixes, write_letters
from index.search.spelling import count_words, write_words
from index.search.stored_postings import StoredPostings, write_stored_postings
from index.search.tables import read_table, write_table
from index.store.child import Publish, build_in_child
from index.store.leaving import LeaveBuilds
from index.whoosh_ext.internals import start_writer_tasks
from index.whoosh_ext.patching import fast_pool
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
    lean: bool = False,
) -> None:
    """Builds a complete index of `papers` in the empty folder `path`, with its tables.

    `papers` may carry each paper's `paper_json` already: the stored field and digest are
    then that text (a build process is sent the papers themselves and computes it).
    `procs` > 1 forks writer workers: only call it so from a process without threads.
    `compressed=False` writes the posting blocks without zlib: for an index that lives
    one build (a sample's), 1,000 papers cost 6.3 -> 5.3 s of CPU and a third more disk.
    `lean`: a lean first index (index.store.lean): no edge n-grams, no positions, none of
    the tables (the engine computes its facet masks on open and its words from the
    library when first needed; the prefix tables and the saved keys serve the full
    index and a library-free open only).
    """
    if total is None:
        papers = list(papers)
        total = len(papers)
    ix = PositionedStorage(str(path)).create_index(build_schema(lean))
    try:
        with fast_pool():
            words, keys = _write_all(ix, papers, total, progress, procs, compressed, lean)
    finally:
        ix.close()
    if lean:
        return
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
        store_letters(path, reader)
        write_facet_masks(path, reader)  # what opening the index would compute
        write_paper_keys(path, reader, keys)  # the user's layer without the library
    ix.close()


def store_letters(path: Path, reader: IndexReader) -> None:
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
    lean: bool = False,
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
            writer.add_document(**document(paper, stored, lean))
            if not lean:  # the lean engine counts the words itself (index.search.lean)
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
