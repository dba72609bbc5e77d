"""APA, IEEE, ACM, Chicago and MLA through citeproc-py and the vendored CSL styles.

The formatting itself is the CSL style's; this module only feeds citeproc-py good
CSL-JSON and works around the few CSL features citeproc-py 0.11 does not implement, each
named where it is handled:

* an author list known to be incomplete: CSL has no "and others" marker, so the paper is
  rendered with an in-memory copy of the style whose et-al settings truncate right after
  the known names (a placeholder name stands for the missing ones and is never printed);
* `punctuation-in-quote` (en-US puts a comma or period inside closing quotes) is parsed
  but not applied by citeproc-py, so it is applied to the rendered text;
* `second-field-align` is ignored, which glues "[1]" to the first author; a space is put back;
* `capitalize-first` capitalises mixed-case words ("arXiv"), so identifiers are marked
  `nocase`;
* IEEE, ACM and MLA have no "no date" term, so a missing year is given as the literal
  date "n.d." (APA and Chicago print their own);
* page ranges like "8-13" lose a digit ("8-3") in `minimal-two`; they are passed unsplit;
* a title ending in "?" or "!" gets a second punctuation mark ("?."); it is dropped;
* `<substitute>` through a macro does not suppress the substituted title, so a paper with
  no authors would repeat its title; the repeat is removed;
* `text-case="title"` on a `<label>` is never applied (the label is cased without a
  language, and title case is for English only): APA printed "(eds.)" and "(ed. &
  trans.)" for "(Eds.)" and "(Ed. & Trans.)". In a style whose locale is English, such
  a label is given `capitalize-all`, which is the same for these short terms;
* a given name with a lower-case word ("Wu-chun", "m. c.") lost its initials ("W.-.
  chun .", ". m ."): `index.citations.name_initials` initialises each word in its case.

Parsed styles are cached (parsing APA takes milliseconds, rendering one paper less), so
the app can call this on every cursor move.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from lxml import etree

from index.citations import name_initials
from index.citations.csljson import csl_item
from index.citations.fields import page_range
from index.models import Paper

name_initials.install()  # fixes citeproc-py's initials for every style rendered here

CSL_DIR = Path(__file__).resolve().parent / "styles"
CSL_FILES = {
    "apa": "apa.csl",
    "ieee": "ieee.csl",
    "acm": "association-for-computing-machinery.csl",
    "chicago": "chicago-author-date.csl",
    "mla": "modern-language-association.csl",
}
_NS = "{http://purl.org/net/xbiblio/csl}"
_PLACEHOLDER = {"family": "Zzplaceholder", "given": "Zz"}  # stands for the unknown rest
# Fields the styles do not need; some styles would print them where they do not belong.
_NOT_RENDERED = ("abstract", "note", "archive", "archive_location", "citation-key", "title-short")
_UNSPLIT_DASH = "\u2011"  # a non-breaking hyphen citeproc-py does not split page ranges at
_NO_DATE_TERM = frozenset({"ieee", "acm", "mla"})
_RENDER_LOCK = threading.Lock()  # a parsed style keeps per-render state: one at a time


def csl_path(style: str) -> Path:
    """The style's file: a user's `CslStyle` carries its own, a built-in one is vendored."""
    path = getattr(style, "path", None)
    return Path(path) if path is not None else CSL_DIR / CSL_FILES[style]


def _style_xml(path: Path, known_authors: int | None) -> bytes:
    """The style file as citeproc-py needs it; `known_authors` adds the et-al variant.

    citeproc-py ignores `initialize="false"` (MLA and Chicago spell given names out in
    the bibliography) and would initialise them with the style-wide `initialize-with`.
    The equivalent that it does understand: the style-wide value is moved onto every
    `<name>` that inherits it, and taken away from the ones that say `initialize="false"`.
    """
    root = etree.fromstring(path.read_bytes())
    if root.get("default-locale", "en-US").startswith("en"):
        for label in root.iter(f"{_NS}label"):
            if label.get("text-case") == "title":
                label.set("text-case", "capitalize-all")
    inherited = root.attrib.pop("initialize-with", None)
    for element in root.iter(f"{_NS}name"):
        if element.get("initialize") == "false":
            element.attrib.pop("initialize-with", None)
        elif inherited is not None and element.get("initialize-with") is None:
            element.set("initialize-with", inherited)
    if known_authors is not None:
        for element in root.iter(
            f"{_NS}style", f"{_NS}bibliography", f"{_NS}citation", f"{_NS}name"
        ):
            element.set("et-al-min", str(known_authors + 1))
            element.set("et-al-use-first", str(known_authors))
            for attribute in (
                "et-al-use-last",
                "et-al-subsequent-min",
                "et-al-subsequent-use-first",
            ):
                element.attrib.pop(attribute, None)
    return etree.tostring(root, xml_declaration=True, encoding="utf-8")


def load_style(style: str, known_authors: int | None = None) -> CitationStylesStyle:
    """A parsed style, cached; `known_authors` selects the et-al variant (see module doc)."""
    return _load_style(csl_path(style), known_authors)


@lru_cache(maxsize=64)
def _load_style(path: Path, known_authors: int | None) -> CitationStylesStyle:
    # Keyed by file, not name: a user's style may share a name with another file.
    return CitationStylesStyle(io.BytesIO(_style_xml(path, known_authors)), validate=False)


def _nocase(value: str) -> str:
    return f'<span class="nocase">{value}</span>'


def _render_item(paper: Paper, key: str, style: str) -> dict[str, Any]:
    """The CSL-JSON item as citeproc-py should see it (see the module doc for why)."""
    item = csl_item(paper, key)
    for name in _NOT_RENDERED:
        item.pop(name, None)
    if "number" in item:
        number = item["number"]
        if style == "ieee" and item.get("publisher") == "arXiv":
            # IEEE prints "publisher: number"; "arXiv: arXiv:2307.05617" says it twice.
            number = number.removeprefix("arXiv:")
        item["number"] = _nocase(number)
    if "publisher" in item:
        item["publisher"] = _nocase(item["publisher"])
    first, last = page_range(paper)
    if "page" in item and first and last and first.isdigit() and len(first) < len(last):
        # citeproc-py shortens "8-13" to "8-3" (minimal-two with a one-digit first page).
        # A range whose ends differ in length has nothing to shorten, so it is passed
        # through unsplit and the dash restored afterwards.
        item["page"] = f"{first}{_UNSPLIT_DASH}{last}"
    if "issued" not in item and style in _NO_DATE_TERM:
        # These styles have no "no date" term and would print nothing at all; an unknown
        # year must still show, so it is given as CSL's literal date "n.d.".
        item["issued"] = {"literal": "n.d."}
    if paper.authors and not paper.authors_complete:
        item["author"] = [*item["author"], dict(_PLACEHOLDER)]
    return item


def _bibliography(
    style: str, known_authors: int | None, items: list[dict[str, Any]]
) -> list[tuple[str, str]]:
    """(item id, entry text) in the order the style sorts the bibliography."""
    parsed = load_style(style, known_authors)
    bibliography = CitationStylesBibliography(parsed, CiteProcJSON(items), formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    if len(items) > 1:  # sorting evaluates every sort macro: a third of the time for one item
        bibliography.sort()
    entries = bibliography.bibliography()
    return [(item.key, str(entry)) for item, entry in zip(bibliography.items, entries)]


def _without_repeated_title(text: str, title: str) -> str:
    """Drops a second copy of a title that was moved to the author position.

    Compared case-insensitively, because title-casing styles change the copy's case.
    """
    folded, needle = text.casefold(), title.casefold()
    first = folded.find(needle)
    second = folded.find(needle, first + len(needle)) if first >= 0 else -1
    if second < 0:
        return text
    start, end = second, second + len(needle)
    if start > 0 and text[start - 1] in '\u201c"':
        start -= 1
    while end < len(text) and text[end] in '\u201d".,':
        end += 1
    return (text[:start].rstrip() + " " + text[end:].lstrip()).strip()


def _polish(text: str, paper: Paper, title: str, quote_punct: bool) -> str:
    """Applies what citeproc-py leaves out: field spacing, punctuation in quotes, repeats."""
    text = " ".join(text.split()).replace(_UNSPLIT_DASH, "\u2013")
    text = re.sub(r"^(\[\d+\])(?=\S)", r"\1 ", text)  # second-field-align
    if quote_punct:
        text = re.sub(r"\u201d([.,])", "\\1\u201d", text)
    # CSL drops a period after a title's own "?" or "!" and a doubled period; citeproc-py
    # does not ("Training?." -> "Training?").
    text = re.sub(r"([?!])\.", r"\1", text)
    text = re.sub(r"(?<!\.)\.\.(?!\.)", ".", text)
    # ...also across a group's trailing space: ACM's proceedings with no publisher or
    # pages ended "2026. . Retrieved from" (a spaced ellipsis ". . ." is left alone).
    text = re.sub(r"(?<![\s.])\. \.(?= (?!\.)|$)", ".", text)
    if not paper.authors:
        text = _without_repeated_title(text, title)
    return text


def _punctuation_in_quote(style: str) -> bool:
    """Whether the style's locale (en-US for all five) puts "," and "." inside quotes."""
    return str(load_style(style).root.get_locale_option("punctuation-in-quote")).lower() == "true"


def format_csl(papers: Sequence[Paper], style: str) -> list[str]:
    """Bibliography entries for `papers` in `style`, ordered as the style sorts them."""
    ids = {f"p{index}": paper for index, paper in enumerate(papers)}
    items = [_render_item(paper, item_id, style) for item_id, paper in ids.items()]
    with _RENDER_LOCK:
        entries = dict(_bibliography(style, None, items))
        order = list(entries)
        # Where the style's own et-al rule already hid the placeholder, the entry is right;
        # elsewhere the known names are followed by "et al." through a style variant.
        cut = {i: len(p.authors) for i, p in ids.items() if _PLACEHOLDER["family"] in entries[i]}
        for known in sorted(set(cut.values())):
            variant = dict(_bibliography(style, known, items))
            entries.update({i: variant[i] for i, n in cut.items() if n == known})
        quote_punct = _punctuation_in_quote(style)
    titles = {item["id"]: item["title"] for item in items}
    return [_polish(entries[i], ids[i], titles[i], quote_punct) for i in order]
