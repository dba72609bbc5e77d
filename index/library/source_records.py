"""What each source said about a paper, as it said it, and where it was read from.

`Source` and `SourceRecord` are part of every `Paper` (index.library.papers); they live
beside it in the library package because the library cache pickles them, and its code
fingerprint (index.library.cache) walks this package. `index.models` re-exports them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "JSON_FORMATS",
    "Source",
    "SourceRecord",
    "json_fields",
    "json_value",
    "reduce_by_fields",
]


def reduce_by_fields(self: Any) -> tuple[type, tuple[Any, ...]]:
    """Pickle a frozen slotted record as its class called with its field values.

    Papers, labels and sources have slots (no per-object dict: a quarter less memory for a
    100,000-paper library); the `__setstate__` that dataclasses gives such classes looks
    the fields up again for every object, which made reading the library cache ~25%
    slower. The constructor call pickle makes instead restores the same value.
    """
    return type(self), tuple(getattr(self, name) for name in self.__slots__)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a paper's text was read from, so the user can go back to the file.

    Attributes:
        path: the file as the user named it (or the bundled file's name).
        line: 1-based line where the paragraph or entry starts, when known.
        paragraph: 0-based paragraph index in a plain-text abstract list, when it is one.
    """

    __reduce__ = reduce_by_fields

    path: str
    line: int | None = None
    paragraph: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
        if self.paragraph is not None:
            where += f" (paragraph {self.paragraph})"
        return where


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """What one source said about a paper, field for field, as it said it.

    `Paper`'s own fields are paperscope's reading (decoded, normalised, merged); a record
    keeps the text they were read from, so an export can copy an entry instead of
    rebuilding it from a narrower model, a citation can use every field the source gave,
    and `show --json` can show both side by side.

    Attributes:
        format: "bibtex", "csl-json", "ris", "zotero", "arxiv", "json" (paperscope's own
            field names) or another loader's name.
        type: the entry type as the source spells it ("collection" for `@Collection`,
            "legal_case", "CASE", "journalArticle").
        key: the source's own key or id ("" when it had none).
        fields: (name, value) pairs in source order, names as written (stored packed in
            one string, `packed`; build a record with `SourceRecord.of`). BibTeX: each value's
            text as written, delimiters, macros and `#` included (`{Foo}`, `"Bar"`,
            `acm # { Press}`), before LaTeX is decoded. RIS: one pair per tag line, repeated
            tags repeated. JSON formats (CSL-JSON, Zotero, arXiv): a string as itself,
            any other value (names, dates, numbers) as compact JSON text, so it keeps its
            structure (`json_fields`, `SourceRecord.item`). paperscope's own JSON records
            keep only the members `Paper` has no field for.
        source: the file and line it was read from.
        strings: BibTeX only: the `@string` macros the entry uses, (name as defined,
            value as written), so a copied entry still compiles.
        parents: BibTeX only: the records the entry's `crossref`/`xdata` name, in the order
            named (their own parents in theirs), so a copied entry keeps what it inherits.
    """

    __reduce__ = reduce_by_fields

    format: str
    type: str
    key: str
    # The fields packed into one string, `name NUL value NUL name NUL value`: the library
    # cache of a 3,670-entry .bib unpickles in 69 ms so, 143 ms with a tuple of string
    # pairs (50 ms with no records). Build with `SourceRecord.of`; read `fields`, `get`.
    packed: str = ""
    source: Source | None = None
    strings: tuple[tuple[str, str], ...] = ()
    parents: tuple[SourceRecord, ...] = ()

    @classmethod
    def of(
        cls,
        format: str,
        type: str,
        key: str,
        fields: Iterable[tuple[str, str]],
        source: Source | None = None,
        strings: tuple[tuple[str, str], ...] = (),
        parents: tuple[SourceRecord, ...] = (),
    ) -> SourceRecord:
        """A record from its (name, value) pairs (a NUL in a value, never seen in a real
        file, becomes U+FFFD: it is the packing's separator)."""
        packed = "\0".join(part.replace("\0", "\ufffd") for pair in fields for part in pair)
        return cls(format, type, key, packed, source, strings, parents)

    @property
    def fields(self) -> tuple[tuple[str, str], ...]:
        """(name, value) pairs in source order (see the class's docstring)."""
        if not self.packed:
            return ()
        parts = self.packed.split("\0")
        return tuple(zip(parts[::2], parts[1::2]))

    def get(self, name: str) -> str | None:
        """The first value of field `name` (case-insensitive), as stored, or None."""
        folded = name.casefold()
        return next((value for key, value in self.fields if key.casefold() == folded), None)

    def replace_fields(self, fields: Iterable[tuple[str, str]]) -> SourceRecord:
        """The same record with other fields."""
        return SourceRecord.of(
            self.format, self.type, self.key, fields, self.source, self.strings, self.parents
        )

    def item(self) -> dict[str, Any]:
        """A JSON format's record as the object it was read from (CSL-JSON's item)."""
        return {name: json_value(value) for name, value in self.fields}

    def bibtex(self) -> str:
        """A BibTeX record as an entry: its type, key, field names and value text as the
        file has them (only the spacing between fields is paperscope's)."""
        body = "".join(f",\n  {name} = {value}" for name, value in self.fields)
        return f"@{self.type}{{{self.key}{body}\n}}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; JSON formats' values are decoded, so the item shows as JSON."""
        data: dict[str, Any] = {"format": self.format, "type": self.type, "key": self.key}
        if self.format in JSON_FORMATS:
            data["fields"] = self.item()
        else:
            data["fields"] = [list(pair) for pair in self.fields]
        if self.source is not None:
            data["source"] = {"path": self.source.path, "line": self.source.line}
        if self.strings:
            data["strings"] = dict(self.strings)
        if self.parents:
            data["parents"] = [parent.to_dict() for parent in self.parents]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SourceRecord:
        """Rebuild a record from `to_dict` output."""
        raw = data.get("fields") or ()
        if isinstance(raw, Mapping):
            pairs = json_fields(raw)
        else:
            pairs = tuple((str(k), str(v)) for k, v in raw)
        source = data.get("source")
        return cls.of(
            format=str(data.get("format") or ""),
            type=str(data.get("type") or ""),
            key=str(data.get("key") or ""),
            fields=pairs,
            source=Source(str(source.get("path") or ""), source.get("line"))
            if isinstance(source, Mapping)
            else None,
            strings=tuple((str(k), str(v)) for k, v in (data.get("strings") or {}).items()),
            parents=tuple(cls.from_dict(p) for p in data.get("parents") or ()),
        )


# Formats whose record values are JSON text (`SourceRecord.item` decodes them).
JSON_FORMATS = frozenset({"csl-json", "zotero", "arxiv", "json"})


def _reads_as_json(text: str) -> bool:
    """Whether a stored JSON-format value is JSON text rather than a plain string."""
    return text[:1] in ('"', "[", "{", "-") or text[:1].isdigit() or text in _JSON_WORDS


_JSON_WORDS = frozenset({"true", "false", "null"})


def json_fields(item: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A JSON object's members as a record's fields, in order.

    A string is kept as itself (readable in `show --json`, no JSON quoting to undo),
    anything else, and a string that would read as JSON, as compact JSON text;
    `json_value` reverses it.
    """
    return tuple(
        (
            str(name),
            value
            if isinstance(value, str) and not _reads_as_json(value)
            else json.dumps(value, ensure_ascii=False, separators=(",", ":")),
        )
        for name, value in item.items()
    )


def json_value(stored: str) -> Any:
    """A JSON-format record's stored value as the value it was (`json_fields`)."""
    return json.loads(stored) if _reads_as_json(stored) else stored
