"""BibTeX and BibLaTeX files, parsed by bibtexparser v2 and decoded to clean Unicode.

bibtexparser does the block splitting and error recovery (a malformed entry becomes a
`ParsingFailedBlock` with its line, a repeated key a `DuplicateBlockKeyBlock` that still
carries the entry) and the name splitting (`bibnames`). Values are resolved here rather
than by its `ResolveStringReferencesMiddleware` because that middleware neither handles
`#` concatenation nor says which macros were undefined, and paperscope must warn about
those (once per macro, not once per entry) and resolve them from the other files of the
same load (a lab's folder where one file holds the `@string`s the others use: see
`index.library.load`). Inheritance (`crossref`, `xdata`, PMLR volumes) is in
`bibinherit`, which bibtexparser leaves undone; LaTeX is decoded through
`normalize.latex_to_unicode`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from index.library.attachments import parse_file_field
from index.library.identifiers import (
    bare_doi,
    find_arxiv,
    find_month,
    find_year,
    volume_and_doi,
)
from index.library.loaders.bibinherit import Record, SharedParents, inherit, named_parents
from index.library.loaders.bibnames import parse_names
from index.library.loaders.untitled import untitled_title
from index.library.normalize import clean_text, latex_to_unicode
from index.models import LoadWarning, Paper, Source, SourceRecord

if TYPE_CHECKING:
    from bibtexparser import model
    from bibtexparser.library import Library as BibLibrary

__all__ = [
    "BibResult",
    "load_bibtex",
    "parse_bibtex",
    "person_name",
    "resolve_value",
    "split_names",
]

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_CONCAT = re.compile(r"\s*#\s*")
_KEYWORD_SPLIT = re.compile(r"\s*[;,]\s*")


@dataclass
class BibResult:
    """One file's entries as papers, its warnings, and its macros for the rest of the load.

    Attributes:
        strings: the `@string` macros the file defines (lower-case names, resolved values).
        undefined: the macros its entries use without a definition, so a load can parse the
            file again with the macros another of its files defines.
        keys: every entry's key (lower case), so a load knows which file holds a parent.
        missing_parents: the `crossref`/`xdata` parents (lower case) named but not in the file.
        exported: the entries other files name as parents (`SharedParents.referenced`),
            with their own inheritance resolved, for those files to inherit from.
    """

    papers: list[Paper] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    strings: dict[str, str] = field(default_factory=dict)
    undefined: frozenset[str] = frozenset()
    keys: frozenset[str] = frozenset()
    missing_parents: frozenset[str] = frozenset()
    exported: dict[str, Record] = field(default_factory=dict)


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """Split on `separator` only outside braces and quotes; `\\{` is no brace."""
    if separator.search(text) is None:  # most values (every abstract without `#`): one part
        return [text.strip()]
    parts, depth, start, i, quoted = [], 0, 0, 0, False
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif depth == 0 and not quoted:
            match = separator.match(text, i)
            if match:
                parts.append(text[start:i])
                start = i = match.end()
                continue
        i += 1
    parts.append(text[start:])
    return [part.strip() for part in parts]


def split_names(value: str) -> tuple[tuple[str, ...], bool]:
    """A BibTeX author field -> (`First Last` display names, complete)."""
    names, complete = parse_names(value)
    return tuple(str(name) for name in names), complete


def person_name(raw: str) -> str:
    """`Last, First` / `von Last, Jr, First` / `First Last` -> `First von Last Jr`."""
    names, _ = parse_names(raw)
    return str(names[0]) if names else ""


def _resolve(
    raw: str, strings: Mapping[str, str], undefined: set[str], found: set[str] | None = None
) -> str:
    """A raw field value with `#` concatenation, quotes, braces and macros resolved.

    `found` collects the defined macros the value uses (lower case), for the entry's record.
    """
    pieces = []
    for piece in _split_top(raw.strip(), _CONCAT):
        if (len(piece) >= 2 and piece[0] == "{" and piece[-1] == "}") or (
            len(piece) >= 2 and piece[0] == '"' and piece[-1] == '"'
        ):
            pieces.append(piece[1:-1])
        elif piece.isdigit():
            pieces.append(piece)
        elif piece.lower() in strings:
            pieces.append(strings[piece.lower()])
            if found is not None:
                found.add(piece.lower())
        elif piece.lower()[:3] in _MONTHS and piece.isalpha():
            pieces.append(piece.lower())
        else:
            undefined.add(piece)
            pieces.append(piece)  # keep the literal: better than losing the value
    return "".join(pieces)


def resolve_value(raw: str, strings: Mapping[str, str]) -> str:
    """A field value as written (`SourceRecord.fields`) with its macros and `#` resolved."""
    return _resolve(raw, strings, set())


def _keywords(value: str) -> tuple[str, ...]:
    decoded = latex_to_unicode(value, full=True) if value else ""
    return tuple(dict.fromkeys(k for k in _KEYWORD_SPLIT.split(decoded) if k))


def _unpunctuated(value: str | None) -> str | None:
    """A volume or issue without the separator a record left at its end.

    Mendeley writes `issue = {May 12,}`: the style's own comma after it made IEEE print
    "no. May 12, . 2019.". A volume or an issue never ends in ",", ";" or ":".
    """
    return (value.rstrip(",;: ") or None) if value else value


# A `howpublished` that is an address and nothing else: `\url{...}` or a bare URL.
_ADDRESS_ONLY = re.compile(r"\s*(?:\\url\{([^{}\s]+)\}|(https?://[^\s{}]+))\s*")


def _address_only(value: str | None) -> str | None:
    """The URL a `howpublished` gives when it gives nothing else.

    @misc entries put their link there (`howpublished = "\\url{http://...pdf}"`): shown as
    the venue it read "<http://java.sun.com/...pdf>", and the paper had no link to open or
    cite. Read raw: inside `\\url` every character is the address's own.
    """
    match = _ADDRESS_ONLY.fullmatch(value) if value else None
    return (match.group(1) or match.group(2)) if match else None


# A `chapter` that is a number ("3", "IV", "Chapter 2", "Part II", "3.1"), as BibTeX means it.
_CHAPTER_NUMBER = re.compile(
    r"(?i)\s*(?:(?:ch(?:apter|ap\.|\.)?|part|sec(?:tion|\.)?|§)\s*)?[\divxlc]+(?:\.\d+)*\s*"
)


def _names_a_chapter(chapter: str) -> bool:
    """Whether a `chapter` field holds the chapter's title rather than its number."""
    return bool(re.search(r"[^\W\d_]{3,}", chapter)) and not _CHAPTER_NUMBER.fullmatch(chapter)


def _record_to_paper(record: Record, shown: str, raw: SourceRecord | None = None) -> Paper:
    values = record.values

    def text(*names: str) -> str | None:
        for name in names:
            if values.get(name):
                decoded = latex_to_unicode(values[name], full=True)
                if decoded:
                    return decoded
        return None

    names, complete = parse_names(values.get("author") or "")
    editors, editors_complete = parse_names(values.get("editor") or "")
    if not names and editors:  # an edited volume is cited by its editors
        names, complete = editors, editors_complete
    title = text("title")
    subtitle = text("subtitle")
    if title and subtitle:
        title = f"{title}: {subtitle}"
    container = text("booktitle")
    chapter = text("chapter")
    if (
        record.entry_type in ("inbook", "incollection")
        and not container
        and title
        and chapter
        and _names_a_chapter(chapter)
    ):
        # BibDesk's way (a lab's shared .bib): the chapter's title in `chapter`, the
        # book's in `title`. Shown as it stood, "Neural integrators: recurrent mechanisms
        # and models" by Goldman et al. was a paper called "New encyclopedia of
        # neuroscience", cited as the whole encyclopedia.
        title, container = chapter, title
    journal = text("journal", "journaltitle")
    year_text = text("year")
    volume, doi = volume_and_doi(_unpunctuated(text("volume")), bare_doi(text("doi")))
    published_at = _address_only(values.get("howpublished"))
    url = text("url") or published_at
    shown_title = title or untitled_title(
        names or editors,
        container or journal or text("howpublished", "institution", "school"),
        find_year(year_text, text("date")),
        record.entry_type,
    )
    return Paper(
        id=record.key,
        title=shown_title or "(untitled)",
        title_inferred=not title,
        authors=tuple(str(name) for name in names),
        names=names,
        editors=editors,
        authors_complete=complete,
        year=find_year(year_text, text("date")),
        month=find_month(
            values.get("month"),
            text("date"),
            year_text if year_text and not year_text.isdigit() else None,
        ),
        venue=container
        or journal
        or (None if published_at else text("howpublished"))
        or text("institution", "school"),
        entry_type=record.entry_type,
        booktitle=container,
        journal=journal,
        volume=volume,
        number=_unpunctuated(text("number", "issue")),
        pages=(text("pages") or "").replace("--", "-").replace("–", "-") or None,
        publisher=text("publisher", "organization"),
        doi=doi,
        arxiv=find_arxiv(
            eprint=text("eprint", "arxiv", "arxivid"),
            archive=text("archiveprefix", "eprinttype"),
            journal=journal,
            volume=text("volume"),
            number=text("number"),
            url=url,
        ),
        url=url,
        abstract=latex_to_unicode(values.get("abstract", ""), full=True),
        keywords=_keywords(values.get("keywords", "")),
        # Raw, not LaTeX-decoded: backslashes in paths are the path's own.
        attachments=parse_file_field(values["file"], Path(shown).parent)
        if values.get("file")
        else (),
        # The record's own Source object: one copy in memory and in the cache.
        sources=(raw.source if raw is not None and raw.source else Source(shown, record.line),),
        citation_key=clean_text(record.key) or None,
        records=(raw,) if raw is not None else (),
    )


def _linked(
    record: Record,
    by_key: Mapping[str, Record],
    done: dict[str, SourceRecord | None],
    depth: int = 0,
) -> SourceRecord | None:
    """The entry's record with the records of the parents it names (theirs in turn), so a
    copy of the entry takes what it inherits along; one object per parent, shared."""
    from dataclasses import replace

    raw = record.raw
    if raw is None or depth > 8:
        return raw
    key = record.key.lower()
    if key and key in done:
        return done[key]
    named = [
        name.strip().lower()
        for field_name in ("xdata", "crossref")
        for name in record.values.get(field_name, "").split(",")
        if name.strip()
    ]
    done[key] = raw  # a cycle ends here
    parents = tuple(
        linked
        for name in dict.fromkeys(named)
        if name in by_key
        and by_key[name] is not record
        and (linked := _linked(by_key[name], by_key, done, depth + 1)) is not None
    )
    if parents:
        raw = replace(raw, parents=parents)
    if key:
        done[key] = raw
    return raw


def _entries(library: BibLibrary, shown: str, warnings: list[LoadWarning]) -> list[model.Entry]:
    """Every entry, the ones behind duplicate-key or duplicate-field errors included."""
    from bibtexparser import model

    entries: list[model.Entry] = list(library.entries)
    for failed in library.failed_blocks:
        line = (failed.start_line or 0) + 1
        duplicate = getattr(failed, "ignore_error_block", None)
        if isinstance(failed, model.DuplicateBlockKeyBlock) and isinstance(duplicate, model.Entry):
            entries.append(duplicate)
            if not failed.key.strip():  # two keyless entries: each is reported as keyless
                continue
            warnings.append(
                LoadWarning(
                    shown,
                    f"duplicate BibTeX key {failed.key!r}; both entries kept under different ids",
                    line,
                )
            )
            continue
        if isinstance(failed, model.DuplicateFieldKeyBlock) and isinstance(duplicate, model.Entry):
            entries.append(duplicate)
            warnings.append(
                LoadWarning(
                    shown,
                    f"a field appears twice in entry {duplicate.key!r}; the last value kept",
                    line,
                )
            )
            continue
        if isinstance(failed, model.DuplicateBlockKeyBlock):
            continue
        first_line = (failed.raw or "").strip().splitlines()[0][:60] if failed.raw else ""
        warnings.append(
            LoadWarning(shown, f"malformed BibTeX entry skipped: {clean_text(first_line)!r}", line)
        )
    entries.sort(key=lambda e: e.start_line or 0)
    return entries


def _name(key: str) -> str:
    return f"entry {key!r}" if key else "an entry without a key"


def parse_bibtex(
    text: str,
    shown: str,
    macros: Mapping[str, str] | None = None,
    shared: SharedParents | None = None,
) -> BibResult:
    """Every entry that parses; each problem becomes one warning with its line.

    Args:
        text: the decoded file.
        shown: the file as the user named it.
        macros: `@string` macros defined by the other files of the same load; the file's
            own definitions take precedence.
        shared: parents in the other files of the load, and this file's entries that
            other files' entries name as parents (see `bibinherit`).
    """
    # Imported here: a warm start reads the library cache and never parses BibTeX.
    import bibtexparser

    result = BibResult()
    warnings = result.warnings
    splitter_log = logging.getLogger("bibtexparser")
    previous_level = splitter_log.level
    splitter_log.setLevel(logging.CRITICAL)  # it logs each error itself; we warn once
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
    except Exception as error:  # the splitter is robust, but never let it take the app down
        warnings.append(LoadWarning(shown, f"cannot parse BibTeX: {error}"))
        return result
    finally:
        splitter_log.setLevel(previous_level)
    strings: dict[str, str] = dict(macros or {})
    # Each macro as a copied entry needs it defined: (name, value as written).
    written: dict[str, tuple[str, str]] = {
        name: (name, "{" + value + "}") for name, value in strings.items()
    }
    for block in library.strings:
        value = _resolve(str(block.value), strings, set())
        strings[block.key.lower()] = result.strings[block.key.lower()] = value
        written[block.key.lower()] = (block.key, str(block.value).strip())
    records: list[Record] = []
    users: dict[str, list[Record]] = {}
    for entry in _entries(library, shown, warnings):
        line = (entry.start_line or 0) + 1
        used: set[str] = set()
        found: set[str] = set()
        raw_fields = tuple((f.key, str(f.value).strip()) for f in entry.fields)
        values = {key.lower(): _resolve(value, strings, used, found) for key, value in raw_fields}
        raw = SourceRecord.of(
            "bibtex",
            entry.entry_type,
            entry.key.strip(),
            raw_fields,
            Source(shown, line),
            tuple(written[name] for name in sorted(found)),
        )
        record = Record(entry.entry_type.lower(), entry.key.strip(), line, values, raw)
        for macro in used:
            users.setdefault(macro, []).append(record)
        if not record.key:
            warnings.append(
                LoadWarning(
                    shown,
                    f"@{entry.entry_type}{{, has no key; loaded "
                    "with an id made from its authors and title",
                    line,
                )
            )
        records.append(record)
    result.undefined = frozenset(macro.lower() for macro in users)
    # By first use, then name: two macros of one entry come from a set, whose order changes
    # with the interpreter's hash seed (a worker process parses with another one).
    for macro, where in sorted(users.items(), key=lambda item: (item[1][0].line, item[0])):
        if len(where) == 1:
            message = f"{_name(where[0].key)} uses undefined @string macro {macro!r}"
        else:
            message = (
                f"{len(where)} entries use undefined @string macro {macro!r} "
                f"(first {_name(where[0].key)})"
            )
        warnings.append(LoadWarning(shown, message + "; kept as written", where[0].line))
    result.keys = frozenset(record.key.lower() for record in records if record.key)
    result.missing_parents = named_parents(records) - result.keys
    papers, missing = inherit(records, shared)
    if shared is not None and shared.referenced:
        result.exported = {
            key: record for record in records if (key := record.key.lower()) in shared.referenced
        }
    if missing:  # one line for the file
        record, parent = missing[0]
        parents = len({key.lower() for _, key in missing})
        more = (
            f" ({len(missing)} references to {parents} entries in all)" if len(missing) > 1 else ""
        )
        warnings.append(
            LoadWarning(
                shown,
                f"{_name(record.key)} names crossref/xdata {parent!r}, which is in no "
                f"file of this library{more}; fields are not inherited from missing entries",
                record.line,
            )
        )
    by_key = dict(shared.records) if shared else {}
    by_key.update((r.key.lower(), r) for r in records if r.key)
    linked: dict[str, SourceRecord | None] = {}
    result.papers = [
        _record_to_paper(record, shown, _linked(record, by_key, linked)) for record in papers
    ]
    if not result.papers and not warnings and not library.strings and not records:
        warnings.append(LoadWarning(shown, "no BibTeX entries found"))
    return result


def load_bibtex(
    text: str, shown: str, macros: Mapping[str, str] | None = None
) -> tuple[list[Paper], list[LoadWarning]]:
    """`parse_bibtex`'s papers and warnings, for callers that need no macros."""
    result = parse_bibtex(text, shown, macros)
    return result.papers, result.warnings
