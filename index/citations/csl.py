"""APA, IEEE, ACM, Chicago and MLA (and the user's CSL styles) through the CSL engine.

The formatting is the style's and the engine's (`index.citations.engine`: pandoc's
citeproc); this module only decides what the engine reads for each paper and hands it
over with the style's file. The vendored styles are used as published, unmodified.

What the engine reads (`engine_reference`): the source's own record when the paper keeps
one (a paper's `records`, each a `SourceRecord`: a BibTeX entry goes to pandoc as the
entry, with its `@string`s and crossref parents, so pandoc maps BibLaTeX to CSL itself; a
CSL-JSON item goes as the item); otherwise the CSL-JSON item the `csl-json` export writes
(`csl_export.full_csl_item`: the paper's fields and whatever its RIS or Zotero record adds).

For a built item, two things are decided here, both about the input, not the output:

* a record with no title at all (the loaders' description or "(untitled)") has no title
  in the item: the style leaves it out or puts what it substitutes, as for the source;
* an author list known to be incomplete ends with the name `{"literal": "others"}`, which
  is how pandoc reads BibTeX's "and others" and what CSL engines print as "et al.";
* paperscope's own remarks (an inferred title, a cut author list) are not the source's
  `note`, so they are not given to the styles, which print `note` (the abstract is: an
  annotated bibliography's style prints it); nor
  is the arXiv id as an archive (pandoc reads a `.bib` file's `eprint` as the URL only,
  and APA would print "arXiv (2407.09111)" beside the URL).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from index.citations.csl_export import full_csl_item
from index.citations.engine import (
    BibEntry,
    EngineError,
    EngineStyle,
    Reference,
    render_bibliography,
)
from index.citations.engine.partition import style_facts
from index.citations.record_facts import bib_value
from index.models import Paper

__all__ = [
    "CSL_DIR",
    "CSL_FILES",
    "csl_path",
    "engine_item",
    "engine_reference",
    "engine_style",
    "format_csl",
    "render_papers",
]

CSL_DIR = Path(__file__).resolve().parent / "styles"
CSL_FILES = {
    "apa": "apa.csl",
    "ieee": "ieee.csl",
    "acm": "association-for-computing-machinery.csl",
    "chicago": "chicago-author-date.csl",
    "mla": "modern-language-association.csl",
}
_NOT_RENDERED = ("note", "archive", "archive_location", "file", "keyword")
_NO_TITLE = "(untitled)"  # what every loader calls a record without a title


def csl_path(style: str) -> Path:
    """The style's file: a user's `CslStyle` carries its own, a built-in one is vendored."""
    path = getattr(style, "path", None)
    return Path(path) if path is not None else CSL_DIR / CSL_FILES[style]


def engine_style(style: str) -> EngineStyle:
    """What the engine renders `style` with: a dependent user style gives its parent."""
    resolved = getattr(style, "engine_style", None)
    if isinstance(resolved, EngineStyle):
        return resolved
    return EngineStyle(csl_path(style))


# What a style that never names the variable is not sent: pandoc parses every abstract it is
# given (as LaTeX in a BibTeX entry), which made a 10,000-paper APA bibliography ~12x slower.
_UNPRINTED = ("abstract",)


def unused_variables(style: EngineStyle) -> frozenset[str]:
    """The bulky variables (`_UNPRINTED`) `style` never prints, to be left out of what the
    engine reads; an annotated bibliography's style that prints abstracts gets them. None
    left out for a style that cannot be read (pandoc names its problem)."""
    try:
        named = style_facts(style.path).variables
    except (OSError, ElementTree.ParseError):
        return frozenset()
    return frozenset(name for name in _UNPRINTED if name not in named)


def engine_item(paper: Paper, key: str, unused: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The paper's CSL-JSON item as the engine gets it (see the module doc), without the
    `unused` variables."""
    item = full_csl_item(paper, key)
    item["id"] = key
    for name in (*_NOT_RENDERED, *unused):
        item.pop(name, None)
    if paper.title_inferred and (paper.records or paper.title == _NO_TITLE):
        # The source has no title; the loader's description ("Azikiwe et al., 2020
        # (book)") is for lists, not citations. A title guessed from an abstract (a
        # plain-text source, no record) stays, bracketed.
        item.pop("title", None)
    if item.get("author") and not paper.authors_complete:
        item["author"] = [*item["author"], {"literal": "others"}]
    return item


def _bibtex_entry(record: Any, key: str, unused: frozenset[str] = frozenset()) -> BibEntry:
    """A BibTeX record as pandoc should read it: under `key`, after its macros, with parents,
    without the fields of the `unused` variables (and `file`, which no style prints).

    The entry is written under the id the bibliography needs (two files may use one key);
    the parents keep theirs, which is what the entry's `crossref` names.
    """
    left_out = {*unused, "file"}
    strings = [f"@string{{{name} = {value}}}" for name, value in record.strings]
    body = "".join(
        f",\n  {name} = {value}" for name, value in record.fields if name.casefold() not in left_out
    )
    entry = f"@{record.type}{{{key}{body}\n}}"
    parents: list[str] = []
    pending = list(record.parents)
    while pending:  # a parent's own parents too (xdata of a crossref parent)
        parent = pending.pop(0)
        strings.extend(f"@string{{{name} = {value}}}" for name, value in parent.strings)
        parents.append(parent.bibtex())
        pending.extend(parent.parents)
    return BibEntry(key, "\n".join([*dict.fromkeys(strings), entry, *parents]))


def _squeezed(value: object) -> str:
    text = str(value or "").replace("{", "").replace("}", "").replace("--", "-")
    return " ".join(text.replace("\u2013", "-").split()).casefold()


# Paper field -> the BibTeX fields it is read from: where paperscope's reading differs from
# the entry as written, the loader repaired something pandoc would print as written.
_CHECKED = {
    "title": ("title",),
    "volume": ("volume",),
    "number": ("number", "issue"),
    "pages": ("pages",),
    "doi": ("doi",),
}


def _read_as_written(paper: Paper, record: Any) -> bool:
    """Whether pandoc can read the entry as written and would read what paperscope did.

    A DOI in the volume field, a chapter's title in `chapter`, Mendeley's `@book_section`:
    paperscope's loader repairs these (and pandoc cannot parse the last); such a paper is
    given to the engine as paperscope read it, with everything its record adds.
    """
    if not re.fullmatch(r"[A-Za-z]+", record.type) or (record.parents and not record.key):
        return False
    for field, names in _CHECKED.items():
        written = next((v for n in names if (v := bib_value(record, n))), None)
        if field == "doi" and written:
            written = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", written, flags=re.I)
        if field == "title" and paper.title_inferred and not written:
            continue  # no title in the entry: the loader only described it
        if _squeezed(getattr(paper, field)) != _squeezed(written):
            return False
    year = bib_value(record, "year") or (bib_value(record, "date") or "")[:4]
    return str(paper.year or "") == (year or "").strip()


def engine_reference(paper: Paper, key: str, unused: frozenset[str] = frozenset()) -> Reference:
    """What the engine reads for `paper` under the id `key` (see the module doc), without
    the `unused` variables (`unused_variables` of the style).

    The source's own record when the paper keeps one (`paper.records`: a CSL-JSON item; a
    BibTeX entry that paperscope read as written, `_read_as_written`), else the item built
    from paperscope's reading and the records (`engine_item`).
    """
    for record in paper.records:
        if record.format == "bibtex" and record.type:
            if _read_as_written(paper, record):
                return _bibtex_entry(record, key, unused)
            break
        if record.format == "csl-json":
            item = {name: value for name, value in record.item().items() if name not in unused}
            item["id"] = key
            return item
    return engine_item(paper, key, unused)


def render_papers(
    papers: Sequence[Paper], ids: Sequence[str], style: str, fmt: str = "plain"
) -> list[tuple[str, str]]:
    """(id, entry) for `papers` under `ids`, in the order `style` sorts them.

    Raises:
        EngineUnavailable: pandoc cannot run.
        EngineError: pandoc cannot render with this style.
    """
    engine = engine_style(style)
    unused = unused_variables(engine)
    references = [engine_reference(paper, id_, unused) for paper, id_ in zip(papers, ids)]
    try:
        return render_bibliography(references, engine, fmt)
    except EngineError:
        if not any(isinstance(reference, BibEntry) for reference in references):
            raise
    # An entry pandoc's BibTeX reader rejects must not cost the whole bibliography: each
    # paper goes as paperscope read it (a style's own error is raised again here).
    items = [engine_item(paper, id_, unused) for paper, id_ in zip(papers, ids)]
    return render_bibliography(items, engine, fmt)


def format_csl(papers: Sequence[Paper], style: str) -> list[str]:
    """Bibliography entries for `papers` in `style`, ordered as the style sorts them."""
    ids = [f"p{index}" for index in range(len(papers))]
    return [text for _, text in render_papers(papers, ids, style)]
