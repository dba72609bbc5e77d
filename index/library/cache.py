"""The loaded library on disk, so a warm start reads one file instead of parsing and tagging.

Parsing, merging and tagging 100,000 papers takes minutes, and the app does it on every
start although the user's files rarely change. Three layers, each keyed so that a stale
entry can never be used:

- the whole `Library`, keyed by every input file's identity (resolved path, size,
  mtime_ns, the name shown in sources), the discovery warnings, the taxonomy fingerprint
  and the code fingerprint: a warm start with nothing changed is one unpickle;
- each file's parse result (papers before merging, sidecar records, warnings), keyed by
  that file's identity: when one file of a large folder changes, only it is re-parsed;
- each paper's labels, keyed by a digest of what the tagger reads (title, abstract, venue,
  keywords, source labels), taken from the previous library of the same inputs: merging
  runs again, but only new or changed papers are tagged;
- dedupe's texts and text pairs (`index.library.text_memory`), keyed by each abstract's
  digest: only new texts are compared with the others.

The cache is an optimisation, never a source of errors: an unreadable, corrupt or
incompatible file is ignored (and replaced on the next write), and a failed write is
dropped. Files are pickles written atomically (temporary file + `os.replace`); they live
in the user's own cache folder, which is trusted like the rest of their home directory.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from index.models import Label, Library, Paper

__all__ = [
    "LOADER_VERSION",
    "LibraryCache",
    "code_fingerprint",
    "pack_file_result",
    "tag_digest",
    "unpack_file_result",
]

# Bump when loading gives different papers from the same files for a reason the code
# fingerprint below cannot see (it already covers the source of every module involved).
LOADER_VERSION = 1
_FORMAT = "paperscope-library-cache"
# The code that decides what a loaded library holds, relative to the `index` package:
# whole packages are walked, so a module added to or moved within them is covered.
_CODE = ("library", "facets", "models.py", "assets.py")
_PACKAGES = ("pylatexenc", "bibtexparser", "rispy")

# Resolved path, size in bytes, mtime in nanoseconds; then size and mtime of each companion
# file (a database's write-ahead log), -1 when it is absent.
Identity = tuple[Any, ...]
Tags = tuple[tuple[Label, ...], tuple[Label, ...]]  # topics, hardware


def code_fingerprint() -> str:
    """A hash of the loader code and parser versions: new code never reads old entries.

    Hashing the sources (a few hundred kB, under a millisecond) rather than trusting a
    version constant alone means a developer's edit to a loader cannot leave a stale
    cache behind, the bug that is hardest to notice.
    """
    digest = hashlib.sha256(f"{LOADER_VERSION} {sys.version_info[:2]}".encode())
    root = Path(__file__).resolve().parent.parent
    for path in _code_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for package in _PACKAGES:
        digest.update(f"{package}={_installed_version(package)}".encode())
    return digest.hexdigest()[:24]


def _code_files(root: Path) -> list[Path]:
    """Every source file under `_CODE`, in a stable order.

    Raises:
        RuntimeError: when a listed part is missing: a moved module must fail loudly here,
            never leave a fingerprint that no longer covers the code.
    """
    files: list[Path] = []
    for name in _CODE:
        part = root / name
        if part.is_dir():
            files += sorted(part.rglob("*.py"))
        elif part.is_file():
            files.append(part)
        else:
            raise RuntimeError(f"library cache fingerprint: {part} is missing")
    return files


def _installed_version(package: str) -> str:
    """The package's version from its `*.dist-info` folder name, found without importing.

    `importlib.metadata` would say the same but costs ~10 ms to import, a fiftieth of the
    app's start-up budget. "" when the package is not installed as a distribution (the
    source hash above still holds).
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.origin:
        return ""
    site = Path(spec.origin).parent.parent
    names = sorted(p.name for p in site.glob(f"{package}-*.dist-info"))
    return names[-1].removeprefix(f"{package}-").removesuffix(".dist-info") if names else ""


def identity(path: Path, companions: Sequence[Path] = ()) -> Identity | None:
    """What says a file is unchanged without reading it; None when it cannot be stat'ed.

    `companions` are files that change what `path` holds without touching it: Zotero
    writes new items to `zotero.sqlite-wal`, and `zotero.sqlite` changes only when that
    log is checkpointed, maybe hours later.
    """
    try:
        resolved = path.resolve()
        stat = resolved.stat()
    except OSError:
        return None
    found: list[int] = []
    for companion in companions:
        try:
            companion_stat = companion.stat()
            found += [companion_stat.st_size, companion_stat.st_mtime_ns]
        except OSError:
            found += [-1, -1]
    return (str(resolved), stat.st_size, stat.st_mtime_ns, *found)


def tag_digest(paper: Paper) -> bytes:
    """A digest of everything `tag_paper` reads, so equal inputs reuse earlier labels."""
    blob = pickle.dumps(
        (
            paper.title,
            paper.abstract,
            paper.venue,
            paper.keywords,
            [(label.value, label.reason) for label in paper.topics],
            [(label.value, label.reason) for label in paper.hardware],
        ),
        protocol=4,
    )
    return hashlib.blake2b(blob, digest_size=16).digest()


def pack_file_result(result: Any) -> bytes:
    """A file's parse result as a file-cache entry stores it (`LibraryCache.write_file`'s
    `packed`). A load's worker packs what it parsed, so the caller unpacks it once and
    writes the same bytes, instead of pickling every paper again (the real exports:
    ~0.15 s of the caller's time, on the way to the first rows)."""
    return pickle.dumps({"result": result}, protocol=pickle.HIGHEST_PROTOCOL)


def unpack_file_result(packed: bytes) -> Any:
    """The parse result `pack_file_result` packed."""
    return pickle.loads(packed)["result"]


def _name(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


class LibraryCache:
    """Reads and writes the three layers under one folder (created on first write).

    Args:
        directory: the cache folder, e.g. `<user cache>/library`.
        taxonomy_fingerprint: `Taxonomy.fingerprint` of the taxonomy the labels come from.
    """

    def __init__(self, directory: Path, taxonomy_fingerprint: str) -> None:
        self.directory = Path(directory)
        self.code = code_fingerprint()
        self.taxonomy = taxonomy_fingerprint

    # ---- the whole library --------------------------------------------------------------

    def _library_path(self, inputs: Sequence[str] | None) -> Path:
        """One slot per set of inputs, so switching between corpora does not thrash."""
        where = "bundled" if inputs is None else tuple(inputs)
        return self.directory / f"library-{_name(where)}.pkl"

    def read_library(self, inputs: Sequence[str] | None, key: Any) -> Library | None:
        """The cached library when its key is exactly `key`, else None."""
        found = self._read(self._library_path(inputs), {"key": key})
        if found is None or not isinstance(found.get("library"), Library):
            return None
        return found["library"]

    def previous_tags(self, inputs: Sequence[str] | None) -> dict[bytes, Tags]:
        """Labels from the last library of these inputs, by `tag_digest`, if still valid."""
        found = self._read(self._library_path(inputs), {})
        if found is None:
            return {}
        try:
            return {
                digest: (paper.topics, paper.hardware)
                for digest, paper in zip(found["digests"], found["library"].papers)
            }
        except (KeyError, TypeError, AttributeError):
            return {}

    def write_library(
        self, inputs: Sequence[str] | None, key: Any, library: Library, digests: Sequence[bytes]
    ) -> None:
        """Store the library, with each paper's `tag_digest` taken before tagging."""
        self._write(
            self._library_path(inputs), {"key": key}, {"library": library, "digests": list(digests)}
        )

    # ---- dedupe's remembered texts and pairs (`index.library.text_memory`) --------------

    def _texts_path(self, inputs: Sequence[str] | None) -> Path:
        where = "bundled" if inputs is None else tuple(inputs)
        return self.directory / f"texts-{_name(where)}.pkl"

    def read_texts(self, inputs: Sequence[str] | None) -> Any | None:
        """What dedupe remembered of the last load of these inputs, else None."""
        found = self._read(self._texts_path(inputs), {}, tagged=False)
        return None if found is None else found.get("texts")

    def write_texts(self, inputs: Sequence[str] | None, memory: Any) -> None:
        self._write(self._texts_path(inputs), {}, {"texts": memory}, tagged=False)

    # ---- one file's parse result --------------------------------------------------------

    def _file_path(self, file_identity: Identity, shown: str) -> Path:
        return self.directory / "files" / f"{_name(file_identity[0], shown)}.pkl"

    def read_file(self, file_identity: Identity, shown: str) -> Any | None:
        """The cached parse result of this exact file version, else None."""
        found = self._read(
            self._file_path(file_identity, shown),
            {"file": file_identity, "shown": shown},
            tagged=False,
        )
        return None if found is None else found.get("result")

    def write_file(
        self, file_identity: Identity, shown: str, result: Any, packed: bytes | None = None
    ) -> None:
        """Keeps this file version's parse result; `packed`, if given, is the result as
        `pack_file_result` packed it, written as it is."""
        self._write(
            self._file_path(file_identity, shown),
            {"file": file_identity, "shown": shown},
            packed if packed is not None else pack_file_result(result),
            tagged=False,
        )

    # ---- the file format: a small header pickle, then the payload pickle ----------------

    def _header(self, extra: dict[str, Any], tagged: bool = True) -> dict[str, Any]:
        header = {"format": _FORMAT, "code": self.code, **extra}
        if tagged:
            header["taxonomy"] = self.taxonomy
        return header

    def _read(
        self, path: Path, extra: dict[str, Any], tagged: bool = True
    ) -> dict[str, Any] | None:
        """The payload when the header matches; None for a miss or any kind of damage.

        The header is read first, so a stale multi-megabyte library is never unpickled.
        """
        expected = self._header(extra, tagged)
        try:
            with open(path, "rb") as handle:
                header = pickle.load(handle)
                if not isinstance(header, dict) or any(
                    header.get(name) != value for name, value in expected.items()
                ):
                    return None
                payload = pickle.load(handle)
        except Exception:  # missing, truncated, corrupt, from another version: rebuild
            return None
        return payload if isinstance(payload, dict) else None

    def _write(
        self,
        path: Path,
        extra: dict[str, Any],
        payload: dict[str, Any] | bytes,
        tagged: bool = True,
    ) -> None:
        """Write header and payload (bytes: pickled already) through a temporary file and
        a rename; never raise."""
        tmp_name = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(self._header(extra, tagged), handle, protocol=pickle.HIGHEST_PROTOCOL)
                if isinstance(payload, bytes):
                    handle.write(payload)
                else:
                    pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp_name, path)
            tmp_name = None
        except Exception:  # a full disk or read-only cache only costs the next start time
            pass
        finally:
            if tmp_name is not None:
                try:
                    os.unlink(tmp_name)
                except OSError:
                    pass
