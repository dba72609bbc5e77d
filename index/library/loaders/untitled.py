"""A shown title for a record that has none, made only of what the record says.

A legal case, a personal communication, an interview or a letter is often cited with no
title at all: CSL-JSON's `legal_case` gives the court (`authority`), the reporter
(`container-title`) and a date; a `personal_communication` gives a person and a day.
Such a record is a paper. The list still needs a line to show, so one is put together
from the record's own facts (who, where, when, what kind) and the paper is marked
`title_inferred`, never passed off as a real title.
"""

from __future__ import annotations

from collections.abc import Iterable

from index.models import Name

__all__ = ["untitled_title"]


def untitled_title(
    names: Iterable[Name] = (),
    container: str | None = None,
    year: int | None = None,
    kind: str | None = None,
    authority: str | None = None,
) -> str | None:
    """ "Smith, personal communication, 2001", "Supreme Court, U.S. Reports, 1984 (legal
    case)"; None when the record says nothing to show (the caller's "(untitled)" stays)."""
    people = [name.family_full or name.literal or str(name) for name in names]
    who = people[0] if len(people) == 1 else f"{people[0]} et al." if people else None
    what = (kind or "").replace("_", " ").replace("-", " ").strip() or None
    parts = [part for part in (who or authority, container, str(year) if year else None) if part]
    if not parts:
        return None
    return ", ".join(parts) + (f" ({what})" if what else "")
