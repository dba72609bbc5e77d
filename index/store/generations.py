"""The index's life on disk: where it lives, when it is stale, and how it is (re)built.

Layout under the cache directory, one folder per library (keyed by its source files):

    library-<key>/current.json   which generation is served, and the manifest it was built from
    library-<key>/gen-<token>/   a complete Whoosh index
    library-<key>/build-<token>/ a build in progress (renamed to gen-<token> when complete)
    library-<key>/build.lock     held by whichever process is building

A full build writes a fresh folder and is published by atomically replacing
`current.json`, so a build killed half-way leaves the previous index served (the leftover
folder is removed by the next build). Small changes to a large library are applied in place
through Whoosh's own transactional commit (a killed commit leaves the previous generation of
Whoosh's table of contents), then the manifest is rewritten.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from whoosh.index import Index

from index.models import Library, LoadWarning, Paper
from index.schema.fields import build_schema
from index.store import integrity
from index.store.child import BuildFailed, BuildProcess, Publish
from index.store.leaving import BuildDetached, LeaveBuilds
from index.store.locks import Held, build_lock, hold, hold_folder, sweep_previews
from index.store.manifest import (
    built_by_this_code,
    changed_files,
    file_stats,
    files_dir,
    library_dir,
    manifest_for,
    read_current,
    recorded_warnings,
)
from index.store.publish import finish_build, publish
from index.whoosh_ext.positioned import PositionedStorage

if TYPE_CHECKING:
    from index.store.writer import Progress

log = logging.getLogger("paperscope.index")

# Libraries at least this large get changed files re-indexed in place instead of rebuilt.
INCREMENTAL_MIN_PAPERS = 2000
# Indexes up to this size on disk (~20,000 papers) are memory-mapped: see `_open_checked`.
MMAP_UP_TO_BYTES = 128 * 2**20


class IndexUnavailable(RuntimeError):
    """No usable index could be opened or built; the message says why, in one line."""


@dataclass(frozen=True)
class Opened:
    """An open index and what was done to get it, for `paperscope index` to report."""

    index: Index
    path: Path
    action: str  # "up to date", "built", "rebuilt", "updated N papers, removed M", "stale (...)"
    doc_count: int
    seconds: float
    # Peak memory of the build's own process tree (process + largest writer worker, MB),
    # when a fresh build process measured it (index.store.child); for `paperscope index`
    # and the benchmark.
    build_peak_mb: float | None = None
    # The library's load problems, as recorded when its index was built: what an open
    # without the library (`open_if_current`) says instead of loading it.
    warnings: tuple[LoadWarning, ...] = ()


# Told of a lean index of the whole library to serve while the full one is built
# (index.store.lean), from the thread that builds.
Preview = Callable[[Opened], None]


def open_if_current(files: Sequence[str], taxonomy: Any, cache_dir: Path) -> Opened | None:
    """The index of the library read from `files`, when it is current; else None.

    `files` is what `Library.files` would be (`index.library.inputs.library_files`). Current
    means what `open_index` checks after a full load, decided without one: the schema, the
    taxonomy fingerprint and the loader code are the ones the index was built with, and
    every input file has the size and mtime the manifest recorded (a stat each, nothing
    parsed). The paper count the manifest recorded is checked against the index instead of
    the library's. A library whose papers carry notes of their own (Zotero's) is never
    served this way: those are searched from the loaded papers, not from the index.
    Never builds or waits, and writes nothing but the removal of sample indexes no process
    holds (`sweep_previews`): on None the caller loads the library and calls `open_index`,
    which builds.
    """
    found = _open_recorded(files, taxonomy, cache_dir, outdated=False)
    return found[0] if found is not None else None


def open_outdated(
    files: Sequence[str], taxonomy: Any, cache_dir: Path
) -> tuple[Opened, tuple[str, ...]] | None:
    """The index last built from these same files, as it is, and the files changed since.

    For the app's start after a file was edited (a paper added to an export): it shows
    the papers as they were at once and reads the changed files in the background
    (tui.library_host), instead of a blank terminal while the whole library loads. Only
    when just the files' contents changed: the same files, every one still there, and the
    index built by this schema, taxonomy and loader code (what `open_if_current` checks);
    None when it is current (`open_if_current` serves it) or cannot be served as it was.
    """
    return _open_recorded(files, taxonomy, cache_dir, outdated=True)


def _open_recorded(
    files: Sequence[str], taxonomy: Any, cache_dir: Path, *, outdated: bool
) -> tuple[Opened, tuple[str, ...]] | None:
    """The last built index of `files` and the files whose size or mtime differ from the
    manifest's; only a current one unless `outdated`, then only an outdated one."""
    started = time.perf_counter()
    if not files:
        return None
    folder = files_dir(cache_dir, files)
    current = read_current(folder)
    old = current.get("manifest") if current else None
    if not isinstance(old, dict) or old.get("content") is not None:
        return None
    if old.get("needs_library", True):  # Zotero's notes: load the library
        return None
    recorded = old.get("files")
    if not built_by_this_code(old, taxonomy) or not isinstance(recorded, dict):
        return None
    # The manifest holds each file as it was read (size, mtime and a digest of the bytes,
    # `index.store.manifest`); a stat can only compare the first two.
    was = {name: list(stats)[:2] for name, stats in recorded.items()}
    now = file_stats(files)
    if set(was) != set(now):
        return None
    changed = tuple(name for name in now if now[name] != was[name])
    if bool(changed) != outdated or any(stats == [-1, -1] for stats in now.values()):
        return None
    papers = old.get("papers")
    path = folder / current["dir"]  # type: ignore[index]
    # Not memory-mapped: a command answers one request, and Whoosh would first copy every
    # file of a mapped segment into memory (~0.1-0.3 s at 11,000 papers).
    ix = _open_checked(
        path,
        papers if isinstance(papers, int) else None,
        current.get("checksums"),  # type: ignore[union-attr]
        mapped=False,
    )
    if ix is None:
        return None
    sweep_previews(folder)
    opened = Opened(
        ix,
        path,
        f"outdated ({len(changed)} changed file{'' if len(changed) == 1 else 's'})"
        if changed
        else "up to date",
        ix.doc_count(),
        time.perf_counter() - started,
        warnings=recorded_warnings(old.get("warnings")),
    )
    return opened, changed


def _folder_bytes(path: Path) -> int:
    try:
        return sum(entry.stat().st_size for entry in path.iterdir() if entry.is_file())
    except OSError:
        return 0


damage = integrity.damage


def _open_checked(
    path: Path,
    expected_docs: int | None,
    recorded: Any = None,
    *,
    mapped: bool | None = None,
    lean: bool = False,
) -> Index | None:
    """The index at `path`, or None when it is missing, corrupt or not what was written.

    `recorded` are the generation's checksums from `current.json`: any file changed,
    truncated or missing since the build means a damaged index, which is rebuilt.

    Whoosh copies each file of a memory-mapped compound segment into a BytesIO, for every
    searcher: ~7% faster requests (10k papers: p50 11.8 vs 12.7 ms) for memory the size
    of the index. Small indexes are mapped; large ones are read from the file instead (at
    100,000 papers the copies held ~600 MB; without them requests were ~15% slower, p95
    71 -> 89 ms, far inside the 250 ms target). `mapped` overrides that choice.
    `lean`: a lean first index (index.store.lean), read with its own schema.
    """
    try:
        why = damage(path, recorded)
        if why is not None:
            log.warning("index at %s is damaged (%s); rebuilding", path, why)
            return None
        if mapped is None:
            mapped = _folder_bytes(path) <= MMAP_UP_TO_BYTES
        # Positioned: an in-place update writes through this index (index.whoosh_ext.positioned).
        storage = PositionedStorage(str(path), supports_mmap=mapped)
        ix = storage.open_index(schema=build_schema(lean))
        with ix.searcher() as searcher:
            count = searcher.doc_count()
            if searcher.doc_count_all():
                searcher.reader().column_reader("id")
        if expected_docs is not None and count != expected_docs:
            log.warning("index at %s holds %d papers, expected %d", path, count, expected_docs)
            return None
        hold(ix, path)
        return ix
    except Exception as error:  # any damage at all means: rebuild
        log.warning("index at %s is unreadable (%s); rebuilding", path, error)
        return None


def _full_build(
    folder: Path,
    library: Library,
    manifest: dict[str, Any],
    progress: Progress | None,
    preview: Preview | None = None,
    lock: Held | None = None,
    leave: LeaveBuilds | None = None,
) -> tuple[Path, float | None]:
    """Builds into a fresh folder and publishes it; `preview` gets a lean index of the
    whole library first, when it is big (`index.store.lean`).

    A build in a process of its own publishes itself, with `lock` (the build lock this
    process holds) inherited: if this process stops waiting for it (`BuildDetached`: the
    app quit), the build is finished and published all the same, the lock held until then.

    Returns the new generation's path and the build's peak memory when it was measured.

    Raises:
        IndexUnavailable: the build process failed (one-line message).
        BuildDetached: this process stopped waiting; the build process finishes it.
    """
    for leftover in folder.glob("build-*"):  # killed builds; we hold the lock
        shutil.rmtree(leftover, ignore_errors=True)
    for leftover in folder.glob("rest-*"):  # their papers, spooled for a detached build
        leftover.unlink(missing_ok=True)
    sweep_previews(folder)
    # Building needs the writer; opening a current index (every command, every warm start)
    # does not import it: the writer and what it brings are ~30 ms of a 0.35 s search.
    import uuid

    from index.store.lean import wants_lean
    from index.store.writer import build

    token = uuid.uuid4().hex[:12]
    served = False
    if preview is not None and wants_lean(len(library.papers)) and not _leaving(leave):
        served = _serve_lean(folder, token, library.papers, progress, preview)
    building = folder / f"build-{token}"
    building.mkdir()
    lock_fd = lock.fileno() if lock is not None else None
    job = Publish(str(folder), token, manifest, lock_fd)
    try:
        peak, published = build(
            building, library.papers, progress, yielding=served, publish=job, leave=leave
        )
    except BuildFailed as error:
        raise IndexUnavailable(f"cannot build the index in {building}: {error}") from None
    except BuildDetached:
        if lock is not None and lock_fd is not None:
            lock.hand_over()  # the build process holds it now, until it has published
        raise
    final = folder / f"gen-{token}"
    if not published:
        finish_build(folder, token, manifest)
    return final, (peak["self_mb"] + peak["children_mb"]) if peak else None


def _leaving(leave: LeaveBuilds | None) -> bool:
    """The caller is about to exit: no lean index, the full build is left to finish."""
    return leave is not None and leave.is_set()


def _serve_lean(
    folder: Path, token: str, papers: Sequence[Paper], progress: Progress | None, preview: Preview
) -> bool:
    """Builds the lean index of `papers` (`index.store.lean`), opens it and hands it to
    `preview`; whether it was served. A failure is logged: the full build serves later."""
    from index.store.lean import build_lean

    built = build_lean(folder, token, papers, progress)
    if built is None:
        return False
    path, building, seconds = built
    try:
        ix = _open_checked(path, len(papers), lean=True)
    finally:
        if building is not None:
            building.close()  # the open index holds the folder now
    if ix is None:
        return False
    try:
        preview(Opened(ix, path, "lean", ix.doc_count(), seconds))
    except Exception as error:  # the caller's problem must not end the build
        log.warning("the lean index could not be served: %s", error)
        return False
    return True


def open_sample(
    files: Sequence[str],
    papers: Sequence[Paper],
    cache_dir: Path,
    process: BuildProcess | None = None,
) -> Opened | None:
    """An index of `papers`, an early sample of the library read from `files` (before its
    duplicates are merged: `index.library.early_sample`), built by a build process
    (`process` if given, one started ahead) while this thread waits, and opened.

    It lives where the library's index will (`library_dir`), as a preview does: held while
    open, swept by the first open or build after that. None when it cannot be built (a
    full disk): the load goes on without it.
    """
    import uuid

    from index.store.preview import build_preview

    started = time.perf_counter()
    folder = files_dir(cache_dir, files)

    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"preview-{uuid.uuid4().hex[:12]}"
        path.mkdir()
    except OSError as error:
        log.warning("no sample index in %s: %s", folder, error)
        return None
    building = hold_folder(path)
    try:
        built = build_preview(path, papers, in_child=True, process=process)
    except BaseException:
        if building is not None:
            building.close()
        raise
    return _opened_sample(built, len(papers), building, started)


def _opened_sample(
    built: Path | None, papers: int, building: IO[str] | None, started: float
) -> Opened | None:
    """A sample index just built (`built`: None if that failed) opened and checked to hold
    `papers`, or None; `building`, the hold on its folder while it was written, is let go
    (the open index holds the folder now)."""
    try:
        ix = _open_checked(built, papers) if built is not None else None
    finally:
        if building is not None:
            building.close()
    if ix is None or built is None:
        return None
    return Opened(ix, built, "preview", ix.doc_count(), time.perf_counter() - started)


def open_index(
    library: Library,
    taxonomy: Any,
    cache_dir: Path,
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    preview: Preview | None = None,
    leave: LeaveBuilds | None = None,
) -> Opened:
    """Opens this library's index, building or refreshing it first when it is stale.

    A first build (or rebuild) of a big library hands `preview` a lean index of all of it
    before the full one is built (`index.store.lean`), from this thread.
    `leave`: the caller may stop waiting for a full build in a build process, which then
    finishes and publishes it alone (`index.store.child.LeaveBuilds`; `BuildDetached`).

    Raises:
        IndexUnavailable: the cache folder cannot be written (one-line message).
    """
    started = time.perf_counter()
    folder = library_dir(cache_dir, library)
    manifest = manifest_for(library, taxonomy)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise IndexUnavailable(f"cannot create the index folder {folder}: {error}") from None

    def done(ix: Index, path: Path, action: str, peak: float | None = None) -> Opened:
        return Opened(ix, path, action, ix.doc_count(), time.perf_counter() - started, peak)

    current = read_current(folder)
    if current and not rebuild and current.get("manifest") == manifest:
        ix = _open_checked(folder / current["dir"], manifest["papers"], current.get("checksums"))
        if ix is not None:
            sweep_previews(folder)
            return done(ix, folder / current["dir"], "up to date")
    try:
        with build_lock(folder, wait=False) as locked:
            if locked:
                return _refresh(
                    folder, library, manifest, rebuild, progress, done, preview, locked, leave
                )
            # Someone else is building: serve their last index, or wait for the new one.
            if current and not rebuild:
                ix = _open_checked(folder / current["dir"], None, current.get("checksums"))
                if ix is not None:
                    log.warning("another process is rebuilding the index; serving the last one")
                    return done(ix, folder / current["dir"], "stale (being rebuilt)")
        with build_lock(folder, wait=True):
            pass
        return open_index(library, taxonomy, cache_dir, rebuild=False, progress=progress)
    except OSError as error:
        raise IndexUnavailable(f"cannot write the index under {folder}: {error}") from None


def _refresh(
    folder: Path,
    library: Library,
    manifest: dict[str, Any],
    rebuild: bool,
    progress: Progress | None,
    done: Callable[..., Opened],
    preview: Preview | None = None,
    lock: Held | None = None,
    leave: LeaveBuilds | None = None,
) -> Opened:
    """Under the build lock (`lock`): reuse, update in place, or rebuild (a full build
    previewed)."""
    current = read_current(folder)  # another process may have finished meanwhile
    old = current.get("manifest", {}) if current else {}
    path = folder / current["dir"] if current else None
    recorded = current.get("checksums") if current else None
    if current and not rebuild and old == manifest and path is not None:
        ix = _open_checked(path, manifest["papers"], recorded)
        if ix is not None:
            return done(ix, path, "up to date")
    if (
        current
        and path is not None
        and not rebuild
        and len(library.papers) >= INCREMENTAL_MIN_PAPERS
        and {k: old.get(k) for k in ("schema", "taxonomy")}
        == {k: manifest[k] for k in ("schema", "taxonomy")}
        and old.get("content") is None
        and manifest["content"] is None
    ):
        ix = _open_checked(path, old.get("papers"), recorded)
        if ix is not None:
            changed = changed_files(old, manifest)
            if old.get("library_code") != manifest["library_code"]:
                # New loader code may read the same files into other papers: check them all.
                changed = set(library.files)
            from index.store.updates import update_in_place

            updated = update_in_place(ix, path, library, changed, progress)
            # The short-prefix table is not rebuilt (a walk of the whole lexicon): the
            # update patches it (index.search.table_updates).
            if updated is not None and ix.doc_count() == manifest["papers"]:
                publish(folder, path.name, manifest, recorded)
                return done(ix, path, str(updated))
            ix.close()
    action = "rebuilt" if current else "built"
    path, peak = _full_build(folder, library, manifest, progress, preview, lock, leave)
    ix = _open_checked(path, manifest["papers"])
    if ix is None:
        raise IndexUnavailable(f"the index just built in {path} cannot be read")
    return done(ix, path, action, peak)
