"""CSL-JSON's own shapes: name objects, dates in their three forms, rich-text markup.

Zotero and Better BibTeX write CSL-JSON with names as `{family, given,
non-dropping-particle, ...}` or `{literal}`, dates as `date-parts`, a `literal` ("Spring
2001") or a `raw` string, and titles with CSL's rich-text HTML subset (`<i>`, `<b>`,
`<sub>`, `<sup>`, `<span class="nocase">`). Readers and the search index need the plain
text; the markup is dropped by a real HTML parser (never a regex over tags), so `a < b`
in a title survives and no markup from a file ever reaches the terminal.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

from index.library.identifiers import find_month, find_year
from index.library.normalize import latex_to_unicode
from index.models import Name

__all__ = ["csl_date", "csl_names", "rich_text"]

_OTHERS = frozenset({"others", "et al.", "et al"})


class _TextOnly(HTMLParser):
    """Collects the character data of a CSL rich-text string; tags are dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def rich_text(value: Any) -> str:
    """CSL rich text -> plain text: `<i>Prouerbia</i>` -> `Prouerbia`, `g<sub>1</sub>` -> `g1`."""
    if value is None or isinstance(value, (dict, list)):
        return ""
    text = str(value)
    if "<" not in text:
        return latex_to_unicode(html.unescape(text) if "&" in text else text)
    parser = _TextOnly()
    try:
        parser.feed(text)
        parser.close()
    except Exception:  # html.parser is lenient; never let a title stop a load
        return latex_to_unicode(text)
    return latex_to_unicode("".join(parser.parts))


def _part(person: Mapping[str, Any], *keys: str) -> str:
    return " ".join(rich_text(person.get(key)) for key in keys if person.get(key)).strip()


def csl_names(people: Any) -> tuple[tuple[Name, ...], bool]:
    """A CSL name list -> (names, complete); an "others" entry marks the list as cut."""
    names: list[Name] = []
    complete = True
    for given in people if isinstance(people, list) else []:
        # A plain name string is not CSL, but it is seen: it is a literal.
        person = {"literal": given} if isinstance(given, str) else given
        if not isinstance(person, Mapping):
            continue
        literal = _part(person, "literal")
        family = _part(person, "family")
        if (literal or family).lower() in _OTHERS:
            complete = False
            continue
        if literal or (
            family and not person.get("given") and not person.get("non-dropping-particle")
        ):
            if literal or family:
                names.append(Name(literal=literal or family))
            continue
        name = Name(
            family=family,
            given=_part(person, "given"),
            particle=_part(person, "dropping-particle", "non-dropping-particle"),
            suffix=_part(person, "suffix"),
        )
        if str(name):
            names.append(name)
    return tuple(names), complete


def csl_date(value: Any) -> tuple[int | None, int | None]:
    """(year, month) from `{"date-parts": [[2020, 5]]}`, `{"literal": "Spring 2001"}`,
    `{"raw": "2020-05-01"}`, or a bare string; (None, None) when it holds no year."""
    if isinstance(value, (str, int)):
        text = str(value)
        return find_year(text), find_month(text) if not text.isdigit() else None
    if not isinstance(value, Mapping):
        return None, None
    parts = value.get("date-parts")
    first = parts[0] if isinstance(parts, list) and parts and isinstance(parts[0], list) else []
    if first:
        year = find_year(str(first[0]))
        month = None
        if len(first) > 1 and str(first[1]).isdigit() and 1 <= int(first[1]) <= 12:
            month = int(first[1])
        if year is not None:
            return year, month
    for key in ("raw", "literal"):
        given = value.get(key)
        if isinstance(given, (str, int)) and find_year(str(given)) is not None:
            written = str(given)
            return find_year(written), find_month(written) if not written.isdigit() else None
    return None, None
