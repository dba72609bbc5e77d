"""The loading pipeline behind `load_library`: parse, apply sidecars, merge, give ids, tag.

`index.library.load` decides whether the cached library can be used; when it cannot,
this runs: every file's parse result (from the per-file cache when unchanged), shared
BibTeX macros and parents, sidecars, dedupe (only new texts compared, see
`index.library.text_memory`), ids, links and labels (only changed texts tagged).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from index.facets.taxonomy import Taxonomy
from index.library.bibshare import share_macros, share_parents
from index.library.cache import Identity, LibraryCache
from index.library.dedupe import dedupe, merge_group
from index.library.early_sample import (
    SAMPLE_LIKELY_BYTES,
    Sample,
    SampleAhead,
    early_sample,
    raw_ids,
    settled_ids,
)
from index.library.first_rows import Read, ReadRecords
from index.library.ids import IdAllocator, paper_slug, slugify, title_words
from index.library.inputs import read_files
from index.library.labelling import Labelling, Progress
from index.library.loaders import FileResult
from index.library.loaders.files import SIDECAR_SUFFIX, Stamp
from index.library.loaders.sidecar import SidecarRecord
from index.library.parallel import LoadPool, file_bytes
from index.library.text_memory import TextMemory, remembered_pairs
from index.models import Library, LoadWarning, Paper, replace

__all__ = ["build_library"]


def _sidecar_target(record_file: str | None, sidecar_path: Path) -> Path:
    if record_file is None:
        stem = (
            sidecar_path.name[: -len(SIDECAR_SUFFIX)]
            if sidecar_path.name.endswith(SIDECAR_SUFFIX)
            else sidecar_path.stem
        )
        return (sidecar_path.parent / f"{stem}.txt").resolve()
    return (sidecar_path.parent / record_file).resolve()


def _apply_sidecars(
    papers: list[Paper],
    origin: dict[tuple[Path, int], int],
    records: list[tuple[SidecarRecord, Path]],
    warnings: list[LoadWarning],
) -> tuple[list[Paper], list[bool]]:
    """Merge the paragraphs each sidecar record names and set its curated facts.

    Returns the new paper list and, for each paper, whether its id is curated (pinned).
    """
    replaced: dict[int, Paper] = {}
    absorbed: set[int] = set()
    for record, sidecar_path in records:
        members = []
        for file_name, paragraph in record.paragraphs:
            index = origin.get((_sidecar_target(file_name, sidecar_path), paragraph))
            if index is not None and index not in absorbed and index not in members:
                members.append(index)
        if not members:
            continue  # its text file was not loaded this time: nothing to enrich
        group = merge_group([papers[i] for i in members])
        facts = dict(record.facts)
        if "authors" not in facts and group.authors:
            facts["authors_complete"] = group.authors_complete
        replaced[members[0]] = replace(group, id=record.id, **facts)
        absorbed.update(members)
    result, pinned = [], []
    for i, paper in enumerate(papers):
        if i in replaced:
            result.append(replaced[i])
            pinned.append(True)
        elif i not in absorbed:
            result.append(paper)
            pinned.append(False)
    return result, pinned


def _assign_ids(
    papers: list[Paper], pinned: list[bool], warnings: list[LoadWarning], settled: set[str]
) -> list[Paper]:
    """Each paper's id: curated ones first, then the settled raw ids, then the rest in order.

    `settled` (`early_sample.settled_ids`, from the records before dedupe) are raw ids
    one record alone had: its paper keeps it and no other paper gets it, even when that
    record was merged away, so an id the early sample showed never names another paper.
    """
    allocator = IdAllocator()
    ids: list[str | None] = [None] * len(papers)
    for i, paper in enumerate(papers):
        if pinned[i]:
            ids[i] = allocator.allocate(paper.id)
            if ids[i] != slugify(paper.id):
                warnings.append(
                    LoadWarning(
                        str(paper.sources[0].path) if paper.sources else "",
                        f"curated id {paper.id!r} is used twice; renamed {ids[i]!r}",
                    )
                )
    kept = settled - allocator.taken
    allocator.reserve(kept)
    for i, paper in enumerate(papers):
        if ids[i] is None and paper.id and slugify(paper.id) in kept:
            ids[i] = slugify(paper.id)
    for i, paper in enumerate(papers):
        if ids[i] is None:
            if paper.authors or paper.year or not paper.title_inferred:
                slug = paper_slug(paper.authors, paper.year, paper.title)
            else:  # text alone: the opening words, short enough to type
                slug = "-".join(title_words(paper.title)[:4])
            ids[i] = allocator.allocate(paper.id, paper.short_name, slug)
    # A paper keeping its id (most: an arXiv id, a curated one) is kept as it is: a copy of a
    # 30-field record per paper is most of what a start after a small change costs.
    return [
        paper if paper.id == new_id else replace(paper, id=new_id)  # type: ignore[arg-type]
        for paper, new_id in zip(papers, ids)
    ]


def build_library(
    files: list[Path],
    shown: list[str],
    warnings: list[LoadWarning],
    taxonomy: Taxonomy,
    inputs: list[str] | None,
    cache: LibraryCache | None,
    identities: list[Identity | None] | None,
    key: Any,
    progress: Progress,
    sample: Sample | None = None,
    sample_ahead: SampleAhead | None = None,
    pool: LoadPool | None = None,
    read: Read | None = None,
) -> Library:
    """The library of `files` (shown as `shown`), written to `cache` under `key` if given.

    Args:
        files: the input files, in load order; `shown` is how sources name each.
        warnings: discovery's warnings so far (extended in place).
        taxonomy: the facet vocabulary the tagger uses.
        inputs: the paths the user named (absolute), None for the bundled corpus.
        cache: the library cache, or None to load everything afresh.
        identities: each file's `identity` when there is a cache.
        key: the cache key of the whole library (`index.library.load`).
        progress: told each step's progress.
        sample: given the early sample of a big load (`index.library.early_sample`)
            before dedupe starts, in this thread; dedupe starts when it returns.
        sample_ahead: told while the files are read when they may give a sample.
        pool: the load's workers, started ahead with `taxonomy` (else started here as
            needed); stopped when the load ends.
        read: given the records as read, before anything else (`index.library.first_rows`).
    """
    papers: list[Paper] = []
    origin: dict[tuple[Path, int], int] = {}
    records: list[tuple[SidecarRecord, Path]] = []
    stamps: list[Stamp | None] = []
    # Workers for the parsing and tagging of a big load (index.library.parallel).
    with pool if pool is not None else LoadPool(taxonomy) as pool:
        ahead = sample_ahead if sample is not None else None
        results = _load_files(files, shown, cache, identities, progress, pool, ahead)
        share_macros(files, shown, results)
        share_parents(files, shown, results)
        for file, result in zip(files, results):
            warnings.extend(result.warnings)
            stamps.append(getattr(result, "stamp", None))
            resolved = file.resolve()
            for paper in result.papers:
                for source in paper.sources:
                    if source.paragraph is not None:
                        origin[(resolved, source.paragraph)] = len(papers)
                papers.append(paper)
            records.extend((record, resolved) for record in result.sidecar)
        del results

        papers, pinned = _apply_sidecars(papers, origin, records, warnings)
        known = cache.previous_tags(inputs) if cache is not None else {}
        raw = raw_ids(papers)
        settled = settled_ids(raw)
        if read is not None:
            read(ReadRecords(papers, raw, settled))
        if sample is not None:  # first: sending the papers to be tagged holds this process
            early = early_sample(papers, raw, settled, taxonomy)
            if early:
                sample(early)
            del early
        del raw
        labelling = Labelling(pool, known, progress)
        del known
        labelling.start(papers)  # the workers tag while this process merges duplicates
        progress("merging duplicates", 0, 1)  # one step, no count
        memory = None
        if cache is None:
            merged, links, pinned = dedupe(papers, pinned)
        else:  # only the texts the last load did not have are compared with the others
            remembered = cache.read_texts(inputs)
            scored, memory = remembered_pairs(
                papers, remembered if isinstance(remembered, TextMemory) else None
            )
            merged, links, pinned = dedupe(papers, pinned, scored)
            del scored, remembered
        del papers, origin
        merged = _assign_ids(merged, pinned, warnings, settled)
        merged = _link(merged, links)
        tagged = labelling.finish(merged, digests=cache is not None)
    names, stamped = read_files(files, stamps)
    # Each problem once: a repeated line ("file is empty" for a file named twice) is noise.
    library = Library(
        papers=_share_equal_values(tagged),
        warnings=tuple(dict.fromkeys(warnings)),
        files=names,
        stamps=stamped,
    )
    if cache is not None and identities is not None and None not in identities:
        cache.write_library(inputs, key, library, labelling.digests)
        cache.write_texts(inputs, memory)
    return library


def _load_files(
    files: list[Path],
    shown: list[str],
    cache: LibraryCache | None,
    identities: list[Identity | None] | None,
    progress: Progress,
    pool: LoadPool,
    sample_ahead: SampleAhead | None = None,
) -> list[FileResult]:
    """Every file's parse result: from the cache when this exact version was parsed
    before, the others parsed (by the pool's workers when there is enough to parse).
    Each is written to the cache as it comes, while the workers parse the others.

    `sample_ahead` is told, once the files are sent to be parsed, if they are enough to
    give an early sample: its work then overlaps the parsing."""
    found: list[FileResult | None] = [None] * len(files)
    kept = identities if cache is not None and identities else [None] * len(files)
    for n, identity in enumerate(kept):
        if cache is not None and identity is not None:
            cached = cache.read_file(identity, shown[n])
            if isinstance(cached, FileResult):
                found[n] = cached
    missing = [n for n, result in enumerate(found) if result is None]
    done = len(files) - len(missing)
    progress("reading files", done, len(files))
    parsed = pool.parse([(files[n], shown[n]) for n in missing])
    if (
        sample_ahead is not None
        and sum(file_bytes(files[n]) for n in missing) >= SAMPLE_LIKELY_BYTES
    ):
        sample_ahead()
    for job, result, packed in parsed:
        n = missing[job]
        found[n] = result
        identity = kept[n]
        if cache is not None and identity is not None:
            cache.write_file(identity, shown[n], result, packed)
        done += 1
        progress("reading files", done, len(files))
    return [result for result in found if result is not None]


def _share_equal_values(papers: Sequence[Paper]) -> tuple[Paper, ...]:
    """The papers with one object for each repeated author name, keyword, venue and label.

    Every paper parsed or tagged on its own holds its own copies: at 100,000 papers that
    is ~900,000 strings and labels, most of them repeats ("Jeff Dean", `matched "GPU"`).
    Shared, they cost a fifth of the library's memory less, and the library cache (a
    pickle, which stores a shared object once) keeps them shared on every later start.
    """
    pool: dict[Any, Any] = {}
    one = pool.setdefault
    return tuple(
        replace(
            paper,
            authors=tuple(one(name, name) for name in paper.authors),
            names=tuple(one(name, name) for name in paper.names),
            editors=tuple(one(name, name) for name in paper.editors),
            categories=tuple(one(c, c) for c in paper.categories),
            keywords=tuple(one(word, word) for word in paper.keywords),
            topics=tuple(one(label, label) for label in paper.topics),
            hardware=tuple(one(label, label) for label in paper.hardware),
            venue=paper.venue and one(paper.venue, paper.venue),
            entry_type=one(paper.entry_type, paper.entry_type),
        )
        for paper in papers
    )


def _link(papers: list[Paper], links: list[tuple[int, int]]) -> list[Paper]:
    """Make `related` symmetric and keep only ids present in this library."""
    related: list[list[str]] = [list(paper.related) for paper in papers]
    for a, b in links:
        related[a].append(papers[b].id)
        related[b].append(papers[a].id)
    by_id = {paper.id: i for i, paper in enumerate(papers)}
    for i, ids in enumerate(related):
        for other in ids:
            if other in by_id:
                related[by_id[other]].append(papers[i].id)
    linked = []
    for i, paper in enumerate(papers):
        kept = tuple(dict.fromkeys(r for r in related[i] if r in by_id and r != paper.id))
        linked.append(paper if kept == paper.related else replace(paper, related=kept))
    return linked
