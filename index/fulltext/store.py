"""Extracted text kept by file content, so each PDF is read once, whatever its name.

A PDF renamed, moved, or attached to two papers (a preprint and its published version)
has the same bytes: the text is stored under the SHA-256 of those bytes, in
`<cache>/fulltext/<2 hex>/<digest>.json.gz`. Hashing a file costs a read of it, so the
digest of each path is remembered with the file's size, mtime and inode (`files.json`):
an unchanged file is not read again at all. Every write is atomic; a damaged entry is
a miss, read again, never an error.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from index.atomic import write_bytes_atomic, write_text_atomic
from index.fulltext.extract import Extracted

__all__ = ["FulltextStore", "file_digest"]

_CHUNK = 1 << 20
# The stored format; an entry of another version is a miss (read again).
_VERSION = 1


def file_digest(path: Path) -> str:
    """The SHA-256 of the file's bytes, read in chunks (a 250 MB PDF never whole in memory)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class FulltextStore:
    """The extracted texts under one cache folder (safe to share between processes)."""

    def __init__(self, cache_dir: Path) -> None:
        self.folder = Path(cache_dir) / "fulltext"
        self._known: dict[str, list[Any]] | None = None

    # -- which digest a path has -------------------------------------------------------

    def _files(self) -> dict[str, list[Any]]:
        if self._known is None:
            try:
                loaded = json.loads((self.folder / "files.json").read_text("utf-8"))
                self._known = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError, RecursionError):
                self._known = {}
        return self._known

    def known_digest(self, path: Path) -> str | None:
        """The digest recorded for `path` if the file is as it was then, else None."""
        stamp = _stamp(path)
        entry = self._files().get(str(path))
        if stamp is None or not isinstance(entry, list) or len(entry) != 2:
            return None
        return str(entry[1]) if entry[0] == stamp else None

    def digest(self, path: Path) -> str:
        """`path`'s digest, from the record when the file is unchanged, else by reading it."""
        known = self.known_digest(path)
        if known is not None:
            return known
        digest = file_digest(path)
        stamp = _stamp(path)
        if stamp is not None:
            self._files()[str(path)] = [stamp, digest]
        return digest

    def digest_known(self, path: Path, digest: str) -> None:
        """Records that `path` (as it is now) has `digest` (a worker computed it)."""
        stamp = _stamp(path)
        if stamp is not None:
            self._files()[str(path)] = [stamp, digest]

    def save_files(self) -> None:
        """Writes the path -> digest record (call after a batch; one write per batch)."""
        if self._known is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.folder / "files.json", json.dumps(self._known))

    # -- the texts -----------------------------------------------------------------------

    def _entry(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest}.json.gz"

    def get(self, digest: str) -> Extracted | None:
        """The text stored for `digest`, None when there is none (or it is damaged)."""
        try:
            data = json.loads(gzip.decompress(self._entry(digest).read_bytes()))
        except (OSError, ValueError, EOFError, RecursionError):
            return None
        if not isinstance(data, dict) or data.get("version") != _VERSION:
            return None
        pages = data.get("pages")
        if not isinstance(pages, list) or not all(isinstance(p, str) for p in pages):
            return None
        problem = data.get("problem")
        return Extracted(
            pages=tuple(pages),
            problem=problem if isinstance(problem, str) else None,
            truncated=bool(data.get("truncated")),
            paged=bool(data.get("paged", True)),
        )

    def put(self, digest: str, extracted: Extracted) -> None:
        """Stores `extracted` for `digest` atomically (a crash leaves the old entry or none)."""
        entry = self._entry(digest)
        entry.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "version": _VERSION,
            "pages": list(extracted.pages),
            "problem": extracted.problem,
            "truncated": extracted.truncated,
            "paged": extracted.paged,
        }
        write_bytes_atomic(entry, gzip.compress(json.dumps(data).encode("utf-8"), 6))

    def forget_all_but(self, digests: set[str]) -> int:
        """Removes the texts of files no paper has any more; returns how many went."""
        removed = 0
        for entry in self.folder.glob("??/*.json.gz"):
            if entry.name.removesuffix(".json.gz") not in digests:
                try:
                    entry.unlink()
                    removed += 1
                except OSError:
                    pass
        files = self._files()
        for path in [
            p for p, e in files.items() if not isinstance(e, list) or e[-1] not in digests
        ]:
            del files[path]
        return removed


def _stamp(path: Path) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino]
