"""What one edit of a big BibTeX file changed, read without parsing the whole file again.

A 100,000-entry `.bib` edited in one entry takes a minute to parse whole; a language
server must offer the edited entry within about two seconds. So the content a reader
holds is kept as hashes (`BibEntries.scan`): of fixed blocks counted from the file's start
and from its end, and of each entry. After an edit, comparing the blocks finds the one
stretch that differs (an editor's save changes one place); the entries around it are
split off and hashed, and only those whose text is new are parsed, by the loader's own
`parse_bibtex`, their lines counted from the file's start. The base's entries whose text
is gone are named by key, so the reader can hide what it still holds of them.

An entry starts at a line that starts with `@`, as every BibTeX writer starts one (an
entry indented under another line stays with that one, which only makes a chunk hold
two). What a stretch cannot be read alone is left to a full read (`None`): a changed
`@string` or `@preamble`, an entry with `crossref`/`xdata`, an entry other entries
inherit from, or a stretch bigger than a glance should parse (edits far apart). The
file's own `@string` macros are handed to the parser, so a changed entry that uses them
reads as in a full load.

Everything here runs in short steps (a block's or an entry's hash at a time), so a
thread that serves requests beside it is never kept waiting for the interpreter's lock
for long; hashing a 200 MB file this way takes a fraction of a second.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass, replace

from index.models import LoadWarning, Paper, Source

__all__ = ["BLOCK", "MAX_CHANGED", "MAX_STRETCH", "BibDelta", "BibEntries", "bib_delta"]

BLOCK = 16_384  # bytes per compared block
MAX_CHANGED = 200  # entries parsed at most; beyond that a full read is no slower to wait for
MAX_STRETCH = 8_000_000  # bytes of differing stretch split into entries at most
_ENTRY = re.compile(rb"\n@")
# The entry's type and key at its start.
_HEAD = re.compile(rb"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()]*)")
_INHERITS = re.compile(rb"(?i)\b(?:crossref|xdata)\s*=\s*[{\"]?\s*([^,}\"\s]+)")
_SPECIAL = frozenset({b"string", b"preamble"})
_BLANK = frozenset(b" \t\r\n")


def _blocks(view: memoryview, from_end: bool, stop: int | None = None) -> list[int]:
    """Hashes of the content's blocks, counted from its start or from its end."""
    size = len(view)
    count = -(-size // BLOCK)
    if stop is not None:
        count = min(count, stop)
    if from_end:
        return [hash(view[max(size - (n + 1) * BLOCK, 0) : size - n * BLOCK]) for n in range(count)]
    return [hash(view[n * BLOCK : (n + 1) * BLOCK]) for n in range(count)]


def _starts(data: bytes | memoryview, begin: int, end: int) -> list[int]:
    """Offsets of the entries' `@` in data[begin:end], with `begin` first (the stretch
    before the first entry, or the entry at `begin`)."""
    return [begin] + [m.start() + 1 for m in _ENTRY.finditer(data, begin, end)]


def _trimmed(data: bytes, start: int, end: int) -> int:
    """`end` before the blank lines and spaces that end an entry (removing the entry after
    it changes them, not the entry)."""
    while end > start and data[end - 1] in _BLANK:
        end -= 1
    return end


def _head(entry: bytes | memoryview) -> tuple[bytes, str]:
    """(type lower-cased, key) of an entry; (b"", "") for text that starts none."""
    found = _HEAD.match(entry)
    if found is None:
        return b"", ""
    return found.group(1).lower(), found.group(2).decode("utf-8", "replace")


def _mentions_parents(data: bytes) -> bool:
    """Whether the file names any `crossref`/`xdata` (as the common spellings write it),
    without lower-casing a file of hundreds of megabytes."""
    return any(word in data for word in (b"crossref", b"Crossref", b"CROSSREF", b"xdata", b"XDATA"))


@dataclass(frozen=True)
class BibEntries:
    """A `.bib` file's content as hashes: what a later edit is compared with.

    Attributes:
        size: the content's length in bytes.
        head, tail: hashes of its `BLOCK`-byte blocks from the start and from the end.
        starts: each entry's offset (the first is 0: what precedes the first entry).
        lines: each entry's 1-based line.
        hashes: each entry's hash (its text up to the blank before the next).
        keys: each entry's key ("" for none).
        special: the indices of `@string` and `@preamble` entries.
        parents: keys other entries name in `crossref`/`xdata` (lower case).
        strings: the file's `@string` entries, for the parser of a changed entry.
    """

    size: int
    head: list[int]
    tail: list[int]
    starts: array[int]
    lines: array[int]
    hashes: list[int]
    keys: list[str]
    special: frozenset[int]
    parents: frozenset[str]
    strings: bytes

    @classmethod
    def scan(cls, data: bytes) -> BibEntries:
        """The content's hashes; about a second for 100,000 entries, in short steps."""
        view = memoryview(data)
        starts = _starts(data, 0, len(data))
        lines = array("q")
        hashes: list[int] = []
        keys: list[str] = []
        special: set[int] = set()
        strings: list[bytes] = []
        line, previous = 1, 0
        for index, start in enumerate(starts):
            end = starts[index + 1] - 1 if index + 1 < len(starts) else len(data)
            line += data.count(b"\n", previous, start)
            previous = start
            lines.append(line)
            entry = view[start : _trimmed(data, start, end)]
            hashes.append(hash(entry))
            kind, key = _head(entry)
            keys.append(key)
            if kind in _SPECIAL:
                special.add(index)
                if kind == b"string":
                    strings.append(bytes(entry))
        parents: frozenset[str] = frozenset()
        if _mentions_parents(data):
            parents = frozenset(
                m.group(1).decode("utf-8", "replace").lower() for m in _INHERITS.finditer(data)
            )
        return cls(
            len(data),
            _blocks(view, False),
            _blocks(view, True),
            array("q", starts),
            lines,
            hashes,
            keys,
            frozenset(special),
            parents,
            b"\n".join(strings),
        )


@dataclass(frozen=True)
class BibDelta:
    """What an edit changed: entries to show as the file now has them, and what is gone.

    Attributes:
        papers: the new or changed entries, read as a full load reads them (lines are the
            file's).
        gone: keys of the base's entries the file no longer holds as they were (changed
            or removed); a changed entry's key is in both.
        warnings: problems of the changed entries (a broken one): the reader keeps what it
            had until a full read says more.
    """

    papers: tuple[Paper, ...] = ()
    gone: frozenset[str] = frozenset()
    warnings: tuple[LoadWarning, ...] = ()


def _same_blocks(old: list[int], view: memoryview, from_end: bool) -> int:
    """How many blocks, from the start or the end, are the same in both contents."""
    size = len(view)
    for n, digest in enumerate(old):
        if from_end:
            block = view[max(size - (n + 1) * BLOCK, 0) : size - n * BLOCK]
        else:
            block = view[n * BLOCK : (n + 1) * BLOCK]
        if len(block) < BLOCK or hash(block) != digest:
            return n
    return len(old)


def bib_delta(base: BibEntries, data: bytes, shown: str) -> BibDelta | None:
    """The entries `data` holds that `base` did not, parsed; None when the change needs a
    full read (see the module's docstring)."""
    view = memoryview(data)
    size = len(data)
    same_head = _same_blocks(base.head, view, False) * BLOCK
    same_tail = _same_blocks(base.tail, view, True) * BLOCK
    same_tail = min(same_tail, size - same_head, base.size - same_head)
    if same_head >= size and size == base.size:
        return BibDelta()
    # The base's entries around the differing stretch: from the last one starting before
    # it (its `@` and the line break before are the same in both) to the first whose line
    # break is past it.
    first = max(bisect.bisect_left(base.starts, same_head) - 1, 0)
    old_end = base.size - same_tail
    last = bisect.bisect_left(base.starts, old_end + 1)
    begin = base.starts[first]
    shift = size - base.size
    end = base.starts[last] + shift - 1 if last < len(base.starts) else size
    if end - begin > MAX_STRETCH or last - first > MAX_CHANGED:
        return None
    starts = _starts(data, begin, end)
    if len(starts) > MAX_CHANGED:
        return None
    old = dict(zip(base.hashes[first:last], range(first, last)))
    changed: list[tuple[int, memoryview]] = []
    kept: set[int] = set()
    for index, start in enumerate(starts):
        stop = starts[index + 1] - 1 if index + 1 < len(starts) else end
        entry = view[start : _trimmed(data, start, stop)]
        found = old.get(hash(entry))
        if found is not None:
            kept.add(found)
        else:
            changed.append((start, entry))
    gone_entries = [index for index in range(first, last) if index not in kept]
    if any(index in base.special for index in gone_entries):
        return None
    gone = frozenset(base.keys[index] for index in gone_entries if base.keys[index])
    if base.parents and {key.lower() for key in gone} & base.parents:
        return None
    for _, entry in changed:
        if _head(entry)[0] in _SPECIAL or _INHERITS.search(entry):
            return None
    papers: list[Paper] = []
    warnings: list[LoadWarning] = []
    if changed:
        from index.library.loaders.bibtex import parse_bibtex

        macros = parse_bibtex(base.strings.decode("utf-8", "replace"), shown).strings
        line = base.lines[first]
        at = begin
        for start, entry in changed:
            line += data.count(b"\n", at, start)
            at = start
            result = parse_bibtex(bytes(entry).decode("utf-8", "replace"), shown, macros)
            papers.extend(_moved(paper, line - 1) for paper in result.papers)
            warnings.extend(
                replace(w, line=w.line + line - 1) if w.line is not None else w
                for w in result.warnings
                if "no BibTeX entries found" not in w.message
            )
    return BibDelta(tuple(papers), gone, tuple(warnings))


def _moved(paper: Paper, lines: int) -> Paper:
    """The paper with its source lines counted from the file's start, not the entry's."""

    def shifted(source: Source) -> Source:
        return replace(source, line=source.line + lines) if source.line is not None else source

    records = tuple(
        replace(r, source=shifted(r.source)) if r.source is not None else r for r in paper.records
    )
    return replace(paper, sources=tuple(shifted(s) for s in paper.sources), records=records)
