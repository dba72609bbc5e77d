"""Is a generation on disk what was written? Checksums, and remembering a clean check.

`current.json` records the size and SHA-256 of every file of the generation it serves
(`checksums`), and every open compares them (`damage`): a flipped byte, a truncated or
missing file means a damaged index, which is rebuilt. Hashing every file is the costliest
part of opening an index (~50 ms per 50 MB here; ~0.5 s at 100,000 papers), paid again
by every command and every start of the app although the files did not change.

So a clean check is remembered: `verified.json` in the generation holds, for the
checksums it verified, each file's size, mtime, ctime and inode as they were before it
was hashed. The next open that finds the same stats for the same recorded checksums
skips the hashing. Any write to a file moves its ctime (which `os.utime` cannot set
back), so whatever replaced or altered a file since is hashed again; only a change
below the file system (a disk's bit rot) goes unseen until the file is next written.

Publishing a generation (`recorded_checksums`) writes the same stamp for the checksums it
just computed, and an in-place update hashes only the files it wrote: the others keep
the checksums the last clean check verified, as long as their stats are unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from index.atomic import write_text_atomic

__all__ = ["IN_USE_FILE", "VERIFIED_FILE", "checksums", "damage", "recorded_checksums"]

# Held (shared) by every process that has a generation open (index.store.generations).
IN_USE_FILE = "in-use.lock"
# The stats of the files as last verified against `current.json`'s checksums.
VERIFIED_FILE = "verified.json"


def _unchecked(name: str) -> bool:
    """Files that are no part of the index: locks, and the verification stamp itself."""
    return name in (IN_USE_FILE, VERIFIED_FILE) or "LOCK" in name.upper()


def checksums(path: Path, recorded: Any = None) -> dict[str, list[Any]]:
    """Size and SHA-256 of every file of a generation, as recorded in `current.json`.

    Everything paperscope and Whoosh wrote is covered (segments, table of contents, the
    prefix, letter, word and facet tables), so a flipped byte anywhere is found on open.
    `recorded`: the generation's checksums before an in-place update wrote to it. A file
    the last clean check verified against them and that was not written since keeps its
    recorded checksum: Whoosh never rewrites a segment's files, so at 1,000,000 papers
    the update hashes the few files it wrote, not 4.7 GB (10 s).
    """
    unchanged = _verified_unchanged(path, recorded)
    sums: dict[str, list[Any]] = {}
    for entry in sorted(os.scandir(path), key=lambda e: e.name):
        if not entry.is_file(follow_symlinks=False) or _unchecked(entry.name):
            continue
        if entry.name in unchanged:
            sums[entry.name] = list(unchanged[entry.name])
            continue
        digest = hashlib.sha256()
        with open(entry.path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        sums[entry.name] = [entry.stat().st_size, digest.hexdigest()]
    return sums


def recorded_checksums(path: Path, recorded: Any = None) -> dict[str, list[Any]]:
    """`checksums` for a generation about to be published, remembered as verified.

    They were computed from the files just now, so the first open after a build or an
    update need not hash them again (`damage`): the stamp holds each file's stats as they
    were before it was hashed, as a clean check's stamp does.
    """
    names = sorted(
        entry.name
        for entry in os.scandir(path)
        if entry.is_file(follow_symlinks=False) and not _unchecked(entry.name)
    )
    before = _stats(path, names)
    sums = checksums(path, recorded)
    if before is not None and sorted(sums) == names:
        try:
            write_text_atomic(path / VERIFIED_FILE, _stamp(sums, before))
        except OSError:  # a read-only cache: verified at the next open instead
            pass
    return sums


def _verified_unchanged(path: Path, recorded: Any) -> dict[str, list[Any]]:
    """The `recorded` checksums of the files whose stats are still those of the last
    clean check against exactly these checksums (`verified.json`, written by `damage`)."""
    if not isinstance(recorded, dict):
        return {}
    try:
        stamp = json.loads((path / VERIFIED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(stamp, dict) or stamp.get("checksums") != recorded:
        return {}
    verified = stamp.get("stats")
    if not isinstance(verified, dict):
        return {}
    names = [name for name in recorded if name in verified]
    now = _stats(path, names, missing_ok=True) or {}
    return {name: recorded[name] for name in names if now.get(name) == verified[name]}


def _stats(
    path: Path, names: list[str], *, missing_ok: bool = False
) -> dict[str, list[int]] | None:
    """Each file's size, mtime, ctime and inode; None when one cannot be stat'ed (with
    `missing_ok`, that file is left out)."""
    found: dict[str, list[int]] = {}
    for name in names:
        try:
            st = os.stat(path / name)
        except OSError:
            if missing_ok:
                continue
            return None
        found[name] = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    return found


def _stamp(recorded: dict[str, Any], stats: dict[str, list[int]]) -> str:
    return json.dumps({"checksums": recorded, "stats": stats}, sort_keys=True)


def damage(path: Path, recorded: Any) -> str | None:
    """Why the generation at `path` does not match its recorded checksums, or None."""
    if recorded is None:
        return None  # an index from before checksums were recorded: trusted as before
    if not isinstance(recorded, dict) or not all(
        isinstance(v, list) and len(v) == 2 for v in recorded.values()
    ):
        return "its recorded checksums are malformed"
    for name, (size, _digest) in recorded.items():
        file = path / str(name)
        try:
            actual_size = file.stat().st_size
        except OSError:
            return f"{name} is missing"
        if actual_size != size:
            return f"{name} has {actual_size} bytes, {size} were written"
    # Taken before hashing: a file written meanwhile has other stats at the next open.
    stats = _stats(path, sorted(str(name) for name in recorded))
    stamp = _stamp(recorded, stats) if stats is not None else None
    try:
        if stamp is not None and (path / VERIFIED_FILE).read_text(encoding="utf-8") == stamp:
            return None  # verified before, and no file was written since
    except OSError:
        pass
    actual = checksums(path)
    for name, (_, digest) in recorded.items():
        if actual.get(str(name), [None, None])[1] != digest:
            return f"{name} does not match its checksum"
    if stamp is not None:
        try:
            write_text_atomic(path / VERIFIED_FILE, stamp)
        except OSError:  # a read-only cache: verified again next time, nothing worse
            pass
    return None
