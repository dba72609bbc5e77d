"""What one hostile file can do to a loader, caught: no file takes the library down.

`guarded_parse` runs a loader and turns anything a file can make it raise (a JSON array
nested 100,000 deep is a `RecursionError`, a pathological entry a `MemoryError`, a bug a
`ValueError`) into one warning naming the file and the cause. `bound_paper` caps what one
paper may hold, so a 5 MB abstract or an entry with 100,000 authors stays cheap to index,
rank and show; each cut is a warning. `check_csl_types` looks at CSL-JSON fields before
conversion and says which values had the wrong type (a list for `DOI`, a string for
`author`), drops them, and keeps what it can (a number for a title becomes its text, a
year inside an `issued` string is read).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from index.models import LoadWarning, Paper, replace

__all__ = [
    "MAX_ABSTRACT_CHARS",
    "MAX_AUTHORS",
    "MAX_FIELD_CHARS",
    "bound_paper",
    "check_csl_types",
    "guarded_parse",
]

# Far beyond any real abstract (the longest arXiv abstracts are ~2,000 characters), small
# enough that indexing, highlighting and drawing one paper stay instant.
MAX_ABSTRACT_CHARS = 100_000
# Physics collaborations list ~3,000 authors; beyond that the list is noise to a reader.
MAX_AUTHORS = 5_000
# Titles, venues and other one-line fields.
MAX_FIELD_CHARS = 2_000

T = TypeVar("T")


def guarded_parse(parse: Callable[[], T], shown: str, empty: T) -> tuple[T, list[LoadWarning]]:
    """`parse()`, or `empty` and one warning when the file made the loader fail."""
    try:
        return parse(), []
    except RecursionError:
        return empty, [
            LoadWarning(shown, "nested too deeply to read (more than about 900 levels); skipped")
        ]
    except MemoryError:
        return empty, [LoadWarning(shown, "too large to parse in memory; skipped")]
    except Exception as error:  # a loader bug or a case it never met: one line, not a traceback
        detail = (str(error).strip().splitlines() or [""])[0][:160]
        return empty, [
            LoadWarning(
                shown,
                f"could not be parsed ({type(error).__name__}"
                f"{': ' + detail if detail else ''}); skipped",
            )
        ]


def _cut(text: str, limit: int) -> str:
    return text[:limit].rstrip() + " …"


def bound_paper(paper: Paper, shown: str, warnings: list[LoadWarning]) -> Paper:
    """The paper with its abstract, author list and one-line fields cut to the caps."""
    changes: dict[str, Any] = {}
    line = paper.sources[0].line if paper.sources else None
    if len(paper.abstract) > MAX_ABSTRACT_CHARS:
        changes["abstract"] = _cut(paper.abstract, MAX_ABSTRACT_CHARS)
        warnings.append(
            LoadWarning(
                shown,
                f"abstract of {len(paper.abstract):,} characters cut to {MAX_ABSTRACT_CHARS:,}",
                line,
            )
        )
    if len(paper.authors) > MAX_AUTHORS:
        changes.update(
            authors=paper.authors[:MAX_AUTHORS],
            names=paper.names[:MAX_AUTHORS],
            authors_complete=False,
        )
        warnings.append(
            LoadWarning(
                shown,
                f"{len(paper.authors):,} authors cut to the first "
                f"{MAX_AUTHORS:,} (shown as et al.)",
                line,
            )
        )
    for name in ("title", "venue", "booktitle", "journal", "publisher", "doi", "url"):
        value = getattr(paper, name)
        if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
            changes[name] = _cut(value, MAX_FIELD_CHARS)
            warnings.append(
                LoadWarning(
                    shown, f"{name} of {len(value):,} characters cut to {MAX_FIELD_CHARS:,}", line
                )
            )
    return replace(paper, **changes) if changes else paper


# CSL-JSON fields and the type each must have; a record with any of `_CSL_MARKERS` is CSL.
_CSL_TEXT = (
    "title",
    "abstract",
    "DOI",
    "URL",
    "container-title",
    "publisher",
    "page",
    "volume",
    "issue",
    "note",
    "collection-title",
    "event",
    "ISBN",
    "ISSN",
)
_CSL_NAMES = ("author", "editor")
_CSL_DATES = ("issued",)
_CSL_MARKERS = ("issued", "container-title", "DOI", "URL", "author", "type")
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d|21\d\d)\b")


def _type_name(value: Any) -> str:
    return {
        list: "a list",
        dict: "an object",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def check_csl_types(
    record: Mapping[str, Any], shown: str, line: int | None, what: str, warnings: list[LoadWarning]
) -> Mapping[str, Any]:
    """`record` with CSL fields of the wrong type repaired or dropped, each one reported."""
    if not any(key in record for key in _CSL_MARKERS) or "authors_parsed" in record:
        return record  # not CSL-JSON (arXiv metadata and paperscope's own records differ)
    fixed = dict(record)
    skipped: list[str] = []
    for key in _CSL_TEXT:
        value = fixed.get(key)
        if value is None or isinstance(value, str):
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            fixed[key] = str(value)  # `"page": 5`, `"title": 1984`: the text is clear
        else:
            del fixed[key]
            skipped.append(f"`{key}` ({_type_name(value)}, expected text)")
    for key in _CSL_NAMES:
        value = fixed.get(key)
        if value is None:
            continue
        if not isinstance(value, list):
            del fixed[key]
            skipped.append(f"`{key}` ({_type_name(value)}, expected a list of names)")
            continue
        names = [item for item in value if isinstance(item, Mapping)]
        if len(names) != len(value):
            skipped.append(
                f"{len(value) - len(names)} of {len(value)} `{key}` entries (not name objects)"
            )
            fixed[key] = names
    for key in _CSL_DATES:
        value = fixed.get(key)
        if value is None or (
            isinstance(value, Mapping) and isinstance(value.get("date-parts", []), list)
        ):
            continue
        year = _YEAR.search(str(value)) if isinstance(value, (str, int)) else None
        if year:
            fixed[key] = {"date-parts": [[int(year[1])]]}
        else:
            del fixed[key]
            skipped.append(f"`{key}` ({_type_name(value)}, expected a date object)")
    if skipped:
        warnings.append(LoadWarning(shown, f"{what}: skipped {', '.join(skipped)}", line))
    return fixed
