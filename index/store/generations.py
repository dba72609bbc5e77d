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

import hashlib
import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from threading import Thread
from typing import IO, TYPE_CHECKING, Any

from whoosh.index import Index

from index.atomic import write_text_atomic
from index.library.cache import code_fingerprint
from index.models import Library, LoadWarning, Paper
from index.schema.fields import SCHEMA_VERSION, build_schema
from index.store import integrity
from index.store.child import BuildFailed, BuildProcess
from index.whoosh_ext.positioned import PositionedStorage

if TYPE_CHECKING:
    from index.store.writer import Progress

try:  # POSIX; elsewhere two processes may build at once, which is merely wasteful.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

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


# Told, from the preview's thread, of a small index to serve while the full one is built.
Preview = Callable[[Opened], None]


def taxonomy_fingerprint(taxonomy: Any) -> str:
    """The taxonomy's own fingerprint when it has one, else a digest of its values."""
    fingerprint = getattr(taxonomy, "fingerprint", None)
    if isinstance(fingerprint, str) and fingerprint:
        return fingerprint
    values = (getattr(taxonomy, "topics", ()), getattr(taxonomy, "hardware", ()))
    return hashlib.sha256(repr(values).encode()).hexdigest()[:16]


def _file_stats(files: Sequence[str]) -> dict[str, list[int]]:
    stats: dict[str, list[int]] = {}
    for name in files:
        try:
            st = os.stat(name)
            stats[name] = [st.st_size, st.st_mtime_ns]
        except OSError:
            stats[name] = [-1, -1]
    return stats


def _papers_digest(papers: Sequence[Paper]) -> str:
    """Identity of a library that was not read from files (tests, scripts)."""
    digest = hashlib.sha256()
    for paper in papers:
        digest.update(repr(paper).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:24]


def _read_stats(library: Library) -> dict[str, list[Any]]:
    """Each file as it was read (size, mtime, digest of the bytes parsed), not as it is now.

    A file changed after it was read but before its index was built would otherwise be
    recorded with its new stats, and its new words served as "up to date" but never found.
    Files without a stamp (a library made in code, an unreadable file) are stat'ed.
    """
    stats: dict[str, list[Any]] = dict(_file_stats(library.files))
    if len(library.stamps) == len(library.files):
        for name, stamp in zip(library.files, library.stamps):
            if stamp is not None:
                stats[name] = list(stamp)
    return stats


def manifest_for(library: Library, taxonomy: Any) -> dict[str, Any]:
    """Everything the index depends on: if any of it changes, the index is stale."""
    return {
        "schema": SCHEMA_VERSION,
        "taxonomy": taxonomy_fingerprint(taxonomy),
        "files": _read_stats(library),
        "content": None if library.files else _papers_digest(library.papers),
        "papers": len(library.papers),
        # The papers carry what only the loaded library answers (the source's notes, which
        # the saved paper keys do not hold: index.search.paper_keys), so a search needs it.
        "needs_library": any(p.source_notes for p in library.papers),
        # What a library-free open (`open_if_current`) serves in place of the loaded
        # library: its load problems, and the loader code that read the files.
        "warnings": [[w.path, w.line, w.message] for w in library.warnings],
        "library_code": code_fingerprint(),
    }


def library_dir(cache_dir: Path, library: Library) -> Path:
    """The folder of this library's index: one per set of source files."""
    if library.files:
        return _files_dir(cache_dir, library.files)
    names = "content:" + _papers_digest(library.papers)
    return Path(cache_dir) / f"library-{hashlib.sha256(names.encode()).hexdigest()[:16]}"


def _files_dir(cache_dir: Path, files: Sequence[str]) -> Path:
    names = "\n".join(sorted(os.path.abspath(name) for name in files))
    return Path(cache_dir) / f"library-{hashlib.sha256(names.encode()).hexdigest()[:16]}"


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
    holds (`_sweep_previews`): on None the caller loads the library and calls `open_index`,
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
    folder = _files_dir(cache_dir, files)
    current = _read_current(folder)
    old = current.get("manifest") if current else None
    if not isinstance(old, dict) or old.get("content") is not None:
        return None
    if old.get("needs_library", True):  # Zotero's notes: load the library
        return None
    recorded = old.get("files")
    if (
        old.get("schema") != SCHEMA_VERSION
        or old.get("taxonomy") != taxonomy_fingerprint(taxonomy)
        or old.get("library_code") != code_fingerprint()
        or not isinstance(recorded, dict)
    ):
        return None
    # The manifest holds each file as it was read (size, mtime and a digest of the bytes,
    # `_read_stats`); a stat can only compare the first two.
    was = {name: list(stats)[:2] for name, stats in recorded.items()}
    now = _file_stats(files)
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
    _sweep_previews(folder)
    opened = Opened(
        ix,
        path,
        f"outdated ({len(changed)} changed file{'' if len(changed) == 1 else 's'})"
        if changed
        else "up to date",
        ix.doc_count(),
        time.perf_counter() - started,
        warnings=_recorded_warnings(old.get("warnings")),
    )
    return opened, changed


def _recorded_warnings(rows: Any) -> tuple[LoadWarning, ...]:
    """The manifest's load problems; a row that is not [path, line, message] is skipped."""
    out = []
    for row in rows if isinstance(rows, list) else ():
        if isinstance(row, list) and len(row) == 3:
            path, line, message = row
            if isinstance(path, str) and isinstance(message, str):
                out.append(LoadWarning(path, message, line if isinstance(line, int) else None))
    return tuple(out)


@contextmanager
def _build_lock(folder: Path, wait: bool) -> Iterator[bool]:
    """Holds the folder's build lock; yields False when `wait` is False and it is taken."""
    folder.mkdir(parents=True, exist_ok=True)
    if fcntl is None:  # pragma: no cover - Windows
        yield True
        return
    handle = open(folder / "build.lock", "a+")
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            if not wait:
                yield False
                return
            log.warning("another paperscope process is building this index; waiting for it")
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    finally:
        handle.close()


def _read_current(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / "current.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "dir" in data else None


def _folder_bytes(path: Path) -> int:
    try:
        return sum(entry.stat().st_size for entry in path.iterdir() if entry.is_file())
    except OSError:
        return 0


# Held (shared) by every process that has a generation open, so a rebuild elsewhere never
# deletes the files under it; taken exclusively by `_publish` before deleting one.
IN_USE_FILE = integrity.IN_USE_FILE
damage = integrity.damage


def _hold(ix: Index, path: Path) -> None:
    """Keep the generation at `path` from being deleted while `ix` is alive."""
    handle = _hold_folder(path)
    if handle is not None:
        ix._paperscope_in_use = handle  # released with the index


def _hold_folder(path: Path) -> IO[str] | None:
    """A shared lock on the folder's in-use file: no other process deletes it meanwhile."""
    if fcntl is None:  # pragma: no cover - Windows
        return None
    try:
        handle = open(path / IN_USE_FILE, "a+")
        fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return None  # being deleted right now: the caller's open already succeeded, so rare
    return handle


def _sweep_previews(folder: Path) -> None:
    """Removes the sample indexes no process holds (`index.store.preview`): an app that
    served one holds it until it exits, so the publish after its build could not."""
    for preview in folder.glob("preview-*"):
        if not _in_use(preview):
            shutil.rmtree(preview, ignore_errors=True)


def _in_use(path: Path) -> bool:
    """True when some process holds the generation open (see `_hold`)."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        with open(path / IN_USE_FILE, "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def _open_checked(
    path: Path, expected_docs: int | None, recorded: Any = None, *, mapped: bool | None = None
) -> Index | None:
    """The index at `path`, or None when it is missing, corrupt or not what was written.

    `recorded` are the generation's checksums from `current.json`: any file changed,
    truncated or missing since the build means a damaged index, which is rebuilt.

    Whoosh copies each file of a memory-mapped compound segment into a BytesIO, for every
    searcher: ~7% faster requests (10k papers: p50 11.8 vs 12.7 ms) for memory the size
    of the index. Small indexes are mapped; large ones are read from the file instead (at
    100,000 papers the copies held ~600 MB; without them requests were ~15% slower, p95
    71 -> 89 ms, far inside the 250 ms target). `mapped` overrides that choice.
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
        ix = storage.open_index(schema=build_schema())
        with ix.searcher() as searcher:
            count = searcher.doc_count()
            if searcher.doc_count_all():
                searcher.reader().column_reader("id")
        if expected_docs is not None and count != expected_docs:
            log.warning("index at %s holds %d papers, expected %d", path, count, expected_docs)
            return None
        _hold(ix, path)
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
) -> tuple[Path, float | None]:
    """Builds into a fresh folder and publishes it; `preview` gets a small index of a
    sample meanwhile, when the library is big (`index.store.preview`).

    Returns the new generation's path and the build's peak memory when it was measured.

    Raises:
        IndexUnavailable: the build process failed (one-line message).
    """
    for leftover in folder.glob("build-*"):  # killed builds; we hold the lock
        shutil.rmtree(leftover, ignore_errors=True)
    _sweep_previews(folder)
    # Building needs the writer; opening a current index (every command, every warm start)
    # does not import it: the writer and what it brings are ~30 ms of a 0.35 s search.
    import uuid

    from index.store.preview import preview_sample
    from index.store.writer import build

    token = uuid.uuid4().hex[:12]
    building = folder / f"build-{token}"
    building.mkdir()
    sample = preview_sample(library.papers) if preview is not None else []
    previewing = _start_preview(folder / f"preview-{token}", sample, preview) if sample else None
    try:
        peak = build(building, library.papers, progress, yielding=previewing is not None)
    except BuildFailed as error:
        raise IndexUnavailable(f"cannot build the index in {building}: {error}") from None
    finally:
        if previewing is not None:  # handed over before the full index is: never after it
            previewing.join()
    final = folder / f"gen-{token}"
    os.replace(building, final)
    _publish(folder, final.name, manifest)
    return final, (peak["self_mb"] + peak["children_mb"]) if peak else None


def _start_preview(path: Path, sample: list[Paper], preview: Preview | None) -> Thread:
    """Builds the preview index in a thread and hands it to `preview`, opened and held.

    The folder is held from the start, so a sweep (`_sweep_previews`) by another process
    never deletes it while it is written.
    """
    started = time.perf_counter()
    path.mkdir()
    building = _hold_folder(path)

    def ready(built: Path | None) -> None:
        opened = _opened_sample(built, len(sample), building, started)
        if opened is None or preview is None:
            return
        try:
            preview(opened)
        except Exception as error:  # the caller's problem must not end the build
            log.warning("the preview index could not be served: %s", error)

    from index.store.preview import start_preview

    return start_preview(path, sample, ready)


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
    folder = _files_dir(cache_dir, files)

    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"preview-{uuid.uuid4().hex[:12]}"
        path.mkdir()
    except OSError as error:
        log.warning("no sample index in %s: %s", folder, error)
        return None
    building = _hold_folder(path)
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


def _publish(folder: Path, gen: str, manifest: dict[str, Any], recorded: Any = None) -> None:
    """Makes generation `gen` the current one; `recorded`: its checksums before an
    in-place update (the files it did not write are not hashed again)."""
    previous = _read_current(folder)
    sums = integrity.recorded_checksums(folder / gen, recorded)
    write_text_atomic(
        folder / "current.json",
        json.dumps({"dir": gen, "manifest": manifest, "checksums": sums}),
    )
    keep = {gen, previous["dir"] if previous else None}  # a reader may still use the last one
    _sweep_previews(folder)
    for old in folder.glob("gen-*"):
        if old.name not in keep and not _in_use(old):  # an open app keeps its generation
            shutil.rmtree(old, ignore_errors=True)


def _changed_files(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    before, after = old.get("files", {}), new.get("files", {})
    return {name for name in set(before) | set(after) if before.get(name) != after.get(name)}


def open_index(
    library: Library,
    taxonomy: Any,
    cache_dir: Path,
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    preview: Preview | None = None,
) -> Opened:
    """Opens this library's index, building or refreshing it first when it is stale.

    A first build (or rebuild) of a big library hands `preview` a small index of a
    sample of it while the full one is built (`index.store.preview`), from another thread.

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

    current = _read_current(folder)
    if current and not rebuild and current.get("manifest") == manifest:
        ix = _open_checked(folder / current["dir"], manifest["papers"], current.get("checksums"))
        if ix is not None:
            _sweep_previews(folder)
            return done(ix, folder / current["dir"], "up to date")
    try:
        with _build_lock(folder, wait=False) as locked:
            if locked:
                return _refresh(folder, library, manifest, rebuild, progress, done, preview)
            # Someone else is building: serve their last index, or wait for the new one.
            if current and not rebuild:
                ix = _open_checked(folder / current["dir"], None, current.get("checksums"))
                if ix is not None:
                    log.warning("another process is rebuilding the index; serving the last one")
                    return done(ix, folder / current["dir"], "stale (being rebuilt)")
        with _build_lock(folder, wait=True):
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
) -> Opened:
    """Under the build lock: reuse, update in place, or rebuild (a full build previewed)."""
    current = _read_current(folder)  # another process may have finished meanwhile
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
            changed = _changed_files(old, manifest)
            if old.get("library_code") != manifest["library_code"]:
                # New loader code may read the same files into other papers: check them all.
                changed = set(library.files)
            from index.store.writer import update_in_place

            updated = update_in_place(ix, path, library, changed, progress)
            # The short-prefix table is not rebuilt (a walk of the whole lexicon): the
            # update adds its own terms to it (index.search.tables.add_terms).
            if updated is not None and ix.doc_count() == manifest["papers"]:
                _publish(folder, path.name, manifest, recorded)
                return done(ix, path, str(updated))
            ix.close()
    action = "rebuilt" if current else "built"
    path, peak = _full_build(folder, library, manifest, progress, preview)
    ix = _open_checked(path, manifest["papers"])
    if ix is None:
        raise IndexUnavailable(f"the index just built in {path} cannot be read")
    return done(ix, path, action, peak)
