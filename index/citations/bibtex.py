"""BibTeX and BibLaTeX entries that compile, and parse back to the facts they came from.

Two things go wrong with hand-made .bib entries and both are handled here: characters
that are special to LaTeX (`&`, `%`, `_`, `#`, `$`, braces) break the build, and BibTeX
styles lowercase titles, which turns "DynaPipe" into "Dynapipe" unless it is braced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from index.citations.fields import (
    ascii_fold,
    cited_title,
    container,
    how_published,
    kind,
    notes,
    page_range,
    paper_names,
)
from index.citations.record_facts import edited_volume, facts
from index.models import Name, Paper

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_SPECIAL_RE = re.compile("|".join(re.escape(char) for char in _LATEX_SPECIALS))
_WORD_RE = re.compile(r"(\S+)")
# Punctuation that stays outside the protecting braces, so "{DynaPipe}:" not "{DynaPipe:}".
_EDGE_PUNCT = "\"'()[]:;,.!?"

_BIBTEX_TYPES = {
    "conference": "inproceedings",
    "journal": "article",
    "preprint": "misc",
    "tutorial": "misc",
    "book": "book",
    "chapter": "incollection",
    "thesis": "phdthesis",
    "report": "techreport",
    "misc": "misc",
}
_BIBLATEX_TYPES = {**_BIBTEX_TYPES, "preprint": "online", "thesis": "thesis", "report": "report"}


def latex_escape(text: str) -> str:
    """Escapes the characters LaTeX would otherwise read as commands or comments."""
    return _SPECIAL_RE.sub(lambda match: _LATEX_SPECIALS[match.group()], text)


def _needs_protection(word: str) -> bool:
    """A capital after a part's first letter ("DynaPipe", "GPUs", "HAWQ-V3", "3D") is deliberate.

    Parts are split at hyphens and symbols, so a title-cased "Long-Context" stays free
    for the style to lowercase.
    """
    parts = re.split(r"[^0-9A-Za-z]+", ascii_fold(word))
    return any(char.isupper() for part in parts for char in part[1:])


def protect_title(title: str) -> str:
    """Escapes a title and braces the words whose capitals a style must not lowercase."""

    def protect(match: re.Match[str]) -> str:
        word = match.group(1)
        start, end = 0, len(word)
        while start < end and word[start] in _EDGE_PUNCT:
            start += 1
        while end > start and word[end - 1] in _EDGE_PUNCT:
            end -= 1
        core = word[start:end]
        escaped = latex_escape(core)
        if core and _needs_protection(core):
            escaped = "{" + escaped + "}"
        return latex_escape(word[:start]) + escaped + latex_escape(word[end:])

    return _WORD_RE.sub(protect, title)


def _bib_part(text: str) -> str:
    """A name part, escaped, and braced when BibTeX would otherwise split or re-read it:
    several words with no particle to explain them (`{de la Cruz Ortiz}`), a comma, or a
    lowercase first letter that BibTeX would take for a particle."""
    escaped = latex_escape(text)
    if " " in text or "," in text or text[:1].islower() or re.search(r"\band\b", text, re.I):
        return "{" + escaped + "}"
    return escaped


def bib_name(name: Name) -> str:
    """One name as BibTeX reads it back into the same parts: `von Last, Jr, First`.

    An institution is one braced group (`{U.S. Food and Drug Administration}`), so no
    BibTeX style splits it into a person called "Administration".
    """
    if name.literal:
        return "{" + latex_escape(name.literal) + "}"
    family = _bib_part(name.family) if name.family else "{}"
    if name.particle:
        family = f"{latex_escape(name.particle)} {family}"
    parts = [family]
    if name.suffix:
        parts.append(latex_escape(name.suffix))
    if name.given or name.suffix:
        parts.append(latex_escape(name.given))
    return ", ".join(parts)


def bib_name_list(names: Iterable[Name], complete: bool = True) -> str | None:
    """ "Family, Given and ..." (unambiguous for multi-word names), `and others` if cut."""
    written = [bib_name(name) for name in names]
    if not written:
        return None
    if not complete:
        written.append("others")
    return " and ".join(written)


def bibtex_names(paper: Paper) -> str | None:
    """The author field, from the authors' parts (`fields.paper_names`)."""
    if not paper.authors:
        return None
    return bib_name_list(paper_names(paper), paper.authors_complete)


def _raw(value: str) -> str:
    """DOIs and URLs are verbatim fields: keep them as typed, only keep braces balanced."""
    return value.replace("{", "%7B").replace("}", "%7D")


def bib_fields(paper: Paper, dialect: str = "bibtex") -> list[tuple[str, str]]:
    """The (field, value) pairs of an entry, already escaped, in a conventional order."""
    paper_kind = kind(paper)
    biblatex = dialect == "biblatex"
    extra = facts(paper)
    edited = edited_volume(paper)
    fields: list[tuple[str, str | None]] = [
        # An edited volume's editors are its editors, not its authors.
        ("author", None if edited else bibtex_names(paper)),
        ("title", protect_title(cited_title(paper))),
    ]
    if paper.editors:
        fields.append(("editor", bib_name_list(paper.editors)))
    if extra.translators:
        fields.append(("translator", bib_name_list(extra.translators)))
    venue = container(paper)
    presented = how_published(paper)
    if presented:
        fields.append(("howpublished", latex_escape(presented)))
    if venue is not None:
        if paper_kind == "journal":
            fields.append(("journaltitle" if biblatex else "journal", latex_escape(venue)))
        else:
            fields.append(("booktitle", latex_escape(venue)))
    if biblatex:
        if paper.year is not None:
            month = f"-{paper.month:02d}" if paper.month else ""
            day = f"-{extra.day:02d}" if paper.month and extra.day else ""
            fields.append(("date", f"{paper.year}{month}{day}"))
    else:
        fields.append(("year", str(paper.year) if paper.year is not None else None))
        fields.append(("month", str(paper.month) if paper.month else None))
    fields += [
        ("volume", latex_escape(paper.volume) if paper.volume else None),
        ("number", latex_escape(paper.number) if paper.number else None),
        ("pages", bib_pages(paper)),
        ("publisher", latex_escape(paper.publisher) if paper.publisher else None),
        ("location" if biblatex else "address", _escaped(extra.place)),
        ("edition", _escaped(extra.edition)),
        ("series", _escaped(extra.series)),
        ("type", _escaped(extra.genre) if paper_kind in ("thesis", "report") else None),
        ("langid" if biblatex else "language", _escaped(extra.language)),
        ("isbn", _escaped(extra.isbn)),
        ("issn", _escaped(extra.issn)),
        ("doi", _raw(paper.doi) if paper.doi else None),
    ]
    if paper.arxiv:
        fields.append(("eprint", _raw(paper.arxiv)))
        fields.append(("eprinttype", "arxiv") if biblatex else ("archiveprefix", "arXiv"))
    fields.append(("url", _raw(paper.url) if paper.url else None))
    fields.append(("urldate", _escaped(extra.urldate)))
    remarks = notes(paper)
    fields.append(("note", latex_escape("; ".join(remarks)) if remarks else None))
    fields.append(("abstract", latex_escape(paper.abstract) if paper.abstract else None))
    keywords = ", ".join(k.replace(",", " ") for k in paper.keywords)
    fields.append(("keywords", latex_escape(keywords) if keywords else None))
    fields.append(("file", file_field(paper.attachments)))
    return [(name, value) for name, value in fields if value]


def _escaped(text: str | None) -> str | None:
    return latex_escape(text) if text else None


def bib_pages(paper: Paper) -> str | None:
    """`542--559`; a range of several parts ("431-456, 791-823") keeps every part."""
    if paper.pages and "," in paper.pages:
        parts = [p.strip() for p in paper.pages.split(",") if p.strip()]
        return ", ".join(re.sub(r"\s*(?:--|-|\u2013)\s*", "--", p) for p in parts)
    first, last = page_range(paper)
    return f"{first}--{last}" if first and last else first


def file_field(paths: Iterable[str]) -> str | None:
    """Attached files as JabRef's `file` field (`:path:PDF;...`), `\\`, `:`, `;` escaped."""
    written = []
    for path in paths:
        escaped = path.replace("\\", "\\\\").replace(":", "\\:").replace(";", "\\;")
        kind_of = path.rsplit(".", 1)[-1].upper() if "." in path[-6:] else ""
        written.append(f":{escaped}:{kind_of}")
    return ";".join(written) or None


# Types a source gives that a dialect has, kept as they are (`@collection` stays one).
_BIBLATEX_OWN = frozenset(
    "article book mvbook inbook bookinbook suppbook booklet collection mvcollection "
    "incollection suppcollection dataset manual misc online patent periodical "
    "suppperiodical proceedings mvproceedings inproceedings reference mvreference "
    "inreference report set software thesis unpublished mastersthesis phdthesis "
    "techreport".split()
)
_BIBTEX_OWN = frozenset(
    "article book booklet inbook incollection inproceedings manual mastersthesis misc "
    "phdthesis proceedings techreport unpublished".split()
)


# Types the kind of work decides (a journal article, a preprint's `misc`/`online`).
_BY_KIND = frozenset(
    "article inproceedings incollection inbook book misc online thesis phdthesis "
    "mastersthesis report techreport".split()
)


# Other formats' types whose BibLaTeX (or BibTeX) type says more than the kind of work.
_FROM_SOURCE_TYPE = {
    "collection": "collection",
    "patent": "patent",
    "PAT": "patent",
    "software": "software",
    "COMP": "software",
    "computerProgram": "software",
    "dataset": "dataset",
    "DATA": "dataset",
    "manuscript": "unpublished",
    "UNPB": "unpublished",
    "periodical": "periodical",
    "entry-encyclopedia": "inreference",
    "entry-dictionary": "inreference",
    "encyclopediaArticle": "inreference",
    "dictionaryEntry": "inreference",
    "webpage": "online",
    "post-weblog": "online",
    "ELEC": "online",
    "BLOG": "online",
    "pamphlet": "booklet",
    "PAMP": "booklet",
}


def entry_type(paper: Paper, dialect: str = "bibtex") -> str:
    """The entry type the venue calls for; a specific type from the source is kept."""
    paper_kind = kind(paper)
    known = paper.entry_type.lower()
    own = _BIBLATEX_OWN if dialect == "biblatex" else _BIBTEX_OWN
    if known in own and known not in _BY_KIND:
        return known
    source_type = next(
        (r.type for r in paper.records if r.format in ("csl-json", "ris", "zotero")), ""
    )
    from_source = _FROM_SOURCE_TYPE.get(source_type)
    if from_source is not None and from_source in own:  # a CSL collection, a RIS PAT...
        return from_source
    if paper_kind in ("thesis", "report") and dialect != "biblatex":
        specific = ("mastersthesis", "phdthesis", "techreport")
        return known if known in specific else _BIBTEX_TYPES[paper_kind]
    table = _BIBLATEX_TYPES if dialect == "biblatex" else _BIBTEX_TYPES
    return table[paper_kind]


def bib_entry(paper: Paper, key: str, dialect: str = "bibtex") -> str:
    """One entry, fields aligned, ready to paste into a .bib file."""
    fields = bib_fields(paper, dialect)
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name:<{width}} = {{{value}}}" for name, value in fields)
    return f"@{entry_type(paper, dialect)}{{{key},\n{body}\n}}"


def bib_entries(papers: Iterable[Paper], keys: dict[str, str], dialect: str = "bibtex") -> str:
    """Several entries, a blank line apart, in the order given: a paper read from a .bib
    file is copied as the file has it (`bibcopy`), with the @strings and parents it needs."""
    from index.citations.bibcopy import copied_bibliography

    return copied_bibliography(papers, keys, lambda paper, key: bib_entry(paper, key, dialect))
