"""Hayagriva YAML, the bibliography format Typst reads (`#bibliography("refs.yml")`).

Follows Hayagriva's `docs/file-format.md`: one mapping of keys to entries; a paper in
proceedings or a journal is an `article` with a `proceedings` or `periodical` parent that
holds the container's title, volume, issue and publisher, as Hayagriva's own BibLaTeX import
does; identifiers go in `serial-number` (`doi`, `arxiv`). The YAML is written by PyYAML
(`safe_dump`), so quoting is never ours to get wrong.

Two things YAML quoting does not cover, because Hayagriva parses them inside the string:

* formattable strings (titles, publishers, notes) treat `{`, `}`, `$` and `\\` as markup
  (verbatim groups, Typst math): an unmatched `}` makes Typst reject the whole file, and a
  `$` in a title would be typeset as math, so they are escaped with a backslash; in a
  paper's title, words with capitals after the first letter ("DynaPipe") are braced so a
  sentence-case style keeps them;
* a person given as `"Family, Given"` is split again by Hayagriva (at commas, with BibTeX's
  rule for lowercase prefixes), so a name that would not come back the same is written as a
  mapping (`name`, `given-name`, `prefix`, `suffix`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import yaml

from index.citations.fields import (
    PersonName,
    arxiv_url,
    cited_title,
    container,
    how_published,
    kind,
    notes,
    page_range,
    split_name,
)
from index.citations.record_facts import edited_volume, facts
from index.models import Name, Paper

__all__ = ["hayagriva_entries", "hayagriva_entry", "hayagriva_yaml"]

_CONTROL = re.compile(r"([\\{}$])")
_WORD = re.compile(r"\S+")
_EDGE_PUNCT = "\"'()[]:;,.!?"  # kept outside the braces: "{DynaPipe}:", not "{DynaPipe:}"
_PARENT_TYPES = {"conference": "proceedings", "journal": "periodical", "chapter": "book"}
_TYPES = {
    "conference": "article",
    "journal": "article",
    "preprint": "article",  # an article with no parent is CSL's `article`, a preprint
    "book": "book",
    "chapter": "chapter",
    "thesis": "thesis",
    "report": "report",
    "tutorial": "misc",
    "misc": "misc",
}
_WEB_TYPES = frozenset({"online", "www", "electronic", "webpage"})


def _escaped(text: str) -> str:
    return _CONTROL.sub(r"\\\1", text)


def formattable(text: str, protect: bool = True) -> str:
    """Text for a Hayagriva formattable string: markup escaped, deliberate capitals braced.

    Only a work's own title is protected: styles sentence-case it. Container titles and
    publishers are title-cased at most, which keeps capitals, and Hayagriva (Typst 0.15)
    drops the space after a braced group that opens a periodical's title ("PLOSComputational").
    """
    if not protect:
        return _escaped(" ".join(text.split()))

    def brace(match: re.Match[str]) -> str:
        word = match.group()
        start, end = 0, len(word)
        while start < end and word[start] in _EDGE_PUNCT:
            start += 1
        while end > start and word[end - 1] in _EDGE_PUNCT:
            end -= 1
        core = word[start:end]
        escaped = _escaped(core)
        if any(char.isupper() for char in re.sub(r"[^A-Za-z]", "", core)[1:]):
            escaped = "{" + escaped + "}"
        return _escaped(word[:start]) + escaped + _escaped(word[end:])

    return _WORD.sub(brace, " ".join(text.split()))


def _hayagriva_split(family_full: str) -> tuple[str, str]:
    """(prefix, name) as Hayagriva splits the part before the first comma (`Person::from_strings`).

    Everything up to the last word that starts lowercase is the prefix, if some word
    starts with a capital; otherwise all but the last word is.
    """
    words = family_full.split()
    uppercase = [i for i, word in enumerate(words) if not word[:1].islower()]
    lowercase = [i for i, word in enumerate(words) if word[:1].islower()]
    if uppercase:
        cut = lowercase[-1] + 1 if lowercase else 0
    else:
        cut = len(words) - 1
    return " ".join(words[:cut]), " ".join(words[cut:])


def _person(name: PersonName | Name) -> str | dict[str, str]:
    """`"Family, Given"` when Hayagriva reads it back the same, else the mapping form."""
    literal = getattr(name, "literal", "")
    if literal or (not name.given and not name.particle and not name.suffix):
        whole = literal or name.family
        # An institution is one name; a comma or a leading lowercase word would split it.
        if "," in whole or _hayagriva_split(whole)[0]:
            return {"name": whole}
        return whole
    parts = (name.family, name.given, name.particle, name.suffix)
    if not any("," in part for part in parts) and _hayagriva_split(name.family_full) == (
        name.particle,
        name.family,
    ):
        middle = [name.suffix] if name.suffix else []
        return ", ".join([name.family_full, *middle, name.given])
    record = {
        "name": name.family,
        "given-name": name.given,
        "prefix": name.particle,
        "suffix": name.suffix,
    }
    return {field: value for field, value in record.items() if value}


def _authors(paper: Paper) -> list[str | dict[str, str]]:
    """The structured names when the source gave them, else split from the display names."""
    if paper.names and len(paper.names) == len(paper.authors):
        return [_person(name) for name in paper.names]
    return [_person(split_name(full)) for full in paper.authors]


def _url(url: str | None) -> str | None:
    """A URL Hayagriva can parse (it rejects the whole file otherwise), else nothing."""
    if not url:
        return None
    parts = urlsplit(url.strip())
    if (
        parts.scheme in ("http", "https", "ftp")
        and parts.netloc
        and not re.search(r"\s", url.strip())
    ):
        return url.strip()
    return None


# BibLaTeX's `langid` names -> the BCP 47 tags Hayagriva reads (it rejects a file with
# a language it cannot parse); a name not listed and not a tag is left out.
_LANGUAGES = {
    "english": "en",
    "american": "en-US",
    "british": "en-GB",
    "german": "de",
    "ngerman": "de",
    "french": "fr",
    "italian": "it",
    "spanish": "es",
    "portuguese": "pt",
    "dutch": "nl",
    "latin": "la",
    "greek": "el",
    "russian": "ru",
    "swedish": "sv",
    "norwegian": "no",
    "danish": "da",
    "finnish": "fi",
    "polish": "pl",
    "czech": "cs",
    "japanese": "ja",
    "chinese": "zh",
}
_TAG = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")


def _language_tag(language: str | None) -> str | None:
    if not language:
        return None
    folded = language.strip().lower()
    if folded in _LANGUAGES:
        return _LANGUAGES[folded]
    return language.strip() if _TAG.fullmatch(language.strip()) else None


def hayagriva_entry(paper: Paper) -> dict[str, Any]:
    """One entry as plain data (what `safe_dump` writes); unknown facts are left out."""
    paper_kind = kind(paper)
    entry_type = _TYPES[paper_kind]
    if paper_kind == "misc" and paper.entry_type.lower() in _WEB_TYPES:
        entry_type = "web"
    entry: dict[str, Any] = {"type": entry_type}
    if paper.title.strip():
        entry["title"] = formattable(cited_title(paper))
    extra = facts(paper)
    edited = edited_volume(paper)
    if paper.authors and not edited:  # an edited volume's editors are not its authors
        entry["author"] = _authors(paper)
    if paper.year is not None:
        entry["date"] = f"{paper.year:04d}" + (f"-{paper.month:02d}" if paper.month else "")
        if paper.month and extra.day:
            entry["date"] += f"-{extra.day:02d}"
    first, last = page_range(paper)
    serial: dict[str, str] = {}
    if paper.pages and "," in paper.pages:  # "431-456, 791-823": every part
        entry["page-range"] = ", ".join(
            re.sub(r"\s*(?:--|-|\u2013)\s*", "-", part.strip())
            for part in paper.pages.split(",")
            if part.strip()
        )
    elif paper_kind == "journal" and first and not last and not first.isdigit():
        serial["serial"] = first  # "e1005209" is an article number, not a page
    elif first:
        entry["page-range"] = f"{first}-{last}" if last else first
    if paper.doi:
        serial["doi"] = re.sub(
            r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", paper.doi.strip(), flags=re.I
        )
    if paper.arxiv:
        serial["arxiv"] = paper.arxiv.strip()
    if extra.isbn:
        serial["isbn"] = extra.isbn
    if extra.issn:
        serial["issn"] = extra.issn
    if serial:
        entry["serial-number"] = serial
    url = _url(paper.url) or (
        arxiv_url(paper.arxiv) if paper_kind == "preprint" and paper.arxiv else None
    )
    if url:
        date = (
            extra.urldate
            if extra.urldate and re.fullmatch(r"\d{4}-\d{2}-\d{2}", extra.urldate)
            else None
        )
        entry["url"] = {"value": url, "date": date} if date else url
    venue = container(paper)
    parent_type = _PARENT_TYPES.get(paper_kind)
    publisher = formattable(paper.publisher, protect=False) if paper.publisher else None
    if paper_kind == "preprint" and paper.arxiv and not publisher:
        publisher = "arXiv"
    # The container's facts go on its parent entry when it has one (a journal, proceedings,
    # the book a chapter is in: its editors edited that), else on the entry itself.
    holder = entry
    if parent_type and venue:
        holder = {"type": parent_type, "title": formattable(venue, protect=False)}
        entry["parent"] = holder
    for field, value in (("volume", paper.volume), ("issue", paper.number)):
        if value:
            holder[field] = value.strip()
    if publisher:
        holder["publisher"] = publisher
    if paper.editors:
        holder["editor"] = [_person(name) for name in paper.editors]
    if extra.place:
        holder["location"] = formattable(extra.place, protect=False)
    if extra.edition:
        entry["edition"] = extra.edition
    language = _language_tag(extra.language)
    if language:
        entry["language"] = language
    if extra.genre:
        entry["genre"] = formattable(extra.genre, protect=False)
    if extra.translators:
        entry["affiliated"] = [
            {"role": "translator", "names": [_person(name) for name in extra.translators]}
        ]
    if extra.series:
        # Hayagriva names a series by a parent of the volume: the book is in the series.
        holder.setdefault(
            "parent", {"type": "book", "title": formattable(extra.series, protect=False)}
        )
    if paper.abstract:
        entry["abstract"] = formattable(paper.abstract, protect=False)
    remarks = notes(paper)
    presented = how_published(paper)
    if presented:
        remarks.insert(0, presented)
    if remarks:
        entry["note"] = formattable("; ".join(remarks), protect=False)
    return entry


def hayagriva_entries(papers: Sequence[Paper], keys: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Entries by citation key, in the order given (a YAML mapping keeps it)."""
    return {keys[paper.id]: hayagriva_entry(paper) for paper in papers}


def hayagriva_yaml(papers: Sequence[Paper], keys: dict[str, str]) -> str:
    """The `.yml` file's text (`{}` for no papers, which Typst reads as an empty bibliography).

    This is the function the app's export dialog calls for `.yml` and `.yaml` paths.
    """
    if not papers:
        return "{}\n"
    return str(
        yaml.safe_dump(
            hayagriva_entries(papers, keys),
            allow_unicode=True,
            sort_keys=False,
            default_flow_style=False,
            width=100,
        )
    )
