"""The Whoosh schema: which field answers which part of the query language.

Every field is commented with what it is for. The analyzers are deliberately lean (the
analysis dominates build time, see docs/whoosh.md): one stemming pipeline for prose, one
folding pipeline for names, and edge n-grams only over the short fields, where they make
the word being typed a single term lookup instead of a lexicon scan.

Bump `SCHEMA_VERSION` whenever a field or analyzer changes: the store keys indexes by it,
so every user's index is rebuilt instead of being read with the wrong analysis.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import fields as dataclass_fields
from typing import Any

from whoosh import columns, fields
from whoosh.analysis import IDAnalyzer

from index.library.identifiers import normal_url
from index.models import Paper, SourceRecord
from index.schema.analysis import (
    AUTHOR_GAP,
    MAX_GRAM,
    SEP,
    FastFoldText,
    FastListText,
    FastNgramText,
    FastStemText,
    authors_analyzer,
    cached_stem,
    fold_analyzer,
    list_analyzer,
    prefix_analyzer,
    stem_analyzer,
)
from index.schema.venues import short_venue

__all__ = ["AUTHOR_GAP", "MAX_GRAM", "build_schema", "cached_stem", "document", "fold_analyzer"]

SCHEMA_VERSION = 10  # 9: key_folded, url, isbn, pmid; 10: sub- and superscripts folded

# The free-text fields a bare word searches, with the query-language name of each.
TEXT_FIELDS = ("title", "short_name", "authors", "abstract", "venue")
# The short fields whose word prefixes the `prefix` field holds (venues are long and rarely
# typed: their prefixes scan the small venue lexicon instead).
NGRAM_FIELDS = ("title", "short_name", "authors")


def build_schema(lean: bool = False) -> fields.Schema:
    """The schema of every paperscope index (see SCHEMA_VERSION).

    `lean`: a big library's first index (index.store.lean), served while the full one is
    built: the same fields and analyzers, but the word fields keep no positions (a
    phrase is checked against the library's text, index.search.lean_phrases) and
    `prefix` is left empty by `document`.
    """
    stem = stem_analyzer()
    fold = fold_analyzer()
    words = not lean  # positions in the word fields: phrases
    return fields.Schema(
        # The paper's stable id: unique key for updates, a column for docnum -> id.
        id=fields.ID(stored=True, unique=True, sortable=True),
        # The title, stemmed; boosted because a title match says most about a paper.
        title=FastStemText(analyzer=stem, field_boost=3.0, phrase=words),
        # The system's short name ("DynaPipe"): the most specific handle a reader types.
        short_name=FastFoldText(analyzer=fold, field_boost=4.0, phrase=words),
        # Authors, folded not stemmed; a gap between names stops phrases crossing them.
        authors=FastFoldText(
            analyzer=authors_analyzer(),
            field_boost=1.5,
            dropped=frozenset([AUTHOR_GAP]),
            phrase=words,
        ),
        # The abstract, stemmed and folded: the bulk of the text.
        abstract=FastStemText(analyzer=stem, phrase=words),
        # The venue as free text (`venue:osdi`).
        venue=FastFoldText(analyzer=fold, phrase=words),
        # Edge n-grams of the NGRAM_FIELDS' words: a typed prefix is one term lookup.
        prefix=FastNgramText(analyzer=prefix_analyzer(), phrase=False),
        # Publication year: `year:2021`, `year:2020..2024`, and sorting.
        # (A lean index keeps only the full-precision term: a range scans the few years.)
        year=fields.NUMERIC(int, bits=32, sortable=True, shift_step=32 if lean else 4),
        # Topic ids from the tagger: `topic:training` and the topic facet.
        topic=FastListText(analyzer=list_analyzer(True), lowercase=True),
        # Hardware ids, parents included: `hw:gpu` and the hardware facet.
        hw=FastListText(analyzer=list_analyzer(True), lowercase=True),
        # Exact author names as displayed: the author facet's values.
        author_facet=FastListText(analyzer=list_analyzer(False), lowercase=False),
        # The same names as one column per paper: exact author counts for small match sets.
        author_list=fields.COLUMN(columns.VarBytesColumn()),
        # The source's keywords (BibTeX keywords, Zotero tags, RIS KW) as whole values, and
        # as a column per paper: the keyword facet's values and exact counts.
        keyword_facet=FastListText(analyzer=list_analyzer(False), lowercase=False),
        keyword_list=fields.COLUMN(columns.VarBytesColumn()),
        # arXiv categories ("hep-ph", "cs.DC"), the same way: the category facet.
        category_facet=FastListText(analyzer=list_analyzer(False), lowercase=False),
        category_list=fields.COLUMN(columns.VarBytesColumn()),
        # The venue's short name ("EuroSys '24", see index.schema.venues): the venue facet's values.
        venue_facet=fields.ID(sortable=True),
        # The year as text ("" when unknown): the year facet's values.
        year_facet=fields.ID(),
        # Title folded to lower case: the `title` sort order.
        title_sort=fields.ID(sortable=True),
        # DOI and arXiv id, lower-cased whole values (`doi:10.1145/...`, `arxiv:2401.01234`).
        doi=fields.ID(analyzer=IDAnalyzer(lowercase=True)),
        arxiv=fields.ID(analyzer=IDAnalyzer(lowercase=True)),
        # The citation key from the user's own file, exact and case-sensitive as written
        # (`key:westfahl:space`, `key:Smith_2020`): what their documents already cite.
        key=fields.ID(),
        # The same key in lower case: found whole, by prefix and fuzzily in any case
        # (`xien2003`, `XieN20*`), as fzf-bibtex users find theirs.
        key_folded=fields.ID(),
        # The paper's URL as compared (index.library.identifiers.normal_url): a pasted link.
        url=fields.ID(),
        # ISBN-13 digits and PubMed id (index.library.identifiers): a pasted one finds it.
        isbn=fields.ID(),
        pmid=fields.ID(),
        # Source files the paper came from: which documents a changed file invalidates.
        source=FastListText(analyzer=list_analyzer(False), lowercase=False),
        # A digest of everything about the paper: incremental updates skip unchanged ones.
        digest=fields.COLUMN(columns.VarBytesColumn()),
        # The whole paper as JSON, so a stale index can still answer without the library.
        paper=fields.STORED(),
    )


# A source's position in its file, as `paper_json` writes it (path, line, paragraph in that
# order, no spaces); a string value cannot hold an unescaped `"`, so only a Source matches.
_POSITION = re.compile(r',"line":(?:\d+|null),"paragraph":(?:\d+|null)\}')
# The same for a source record's own source (`SourceRecord.to_dict`: path and line only).
_RECORD_POSITION = re.compile(r'("source":\{"path":"(?:[^"\\]|\\.)*"),"line":(?:\d+|null)\}')


def paper_digest(paper: Paper, stored: str | None = None) -> bytes:
    """Changes whenever anything about the paper changes but where it sits in its file.

    Its JSON holds every field; the line and paragraph of each source are left out: an
    entry deleted above moves every later one, and they are no different papers for it
    (index.search.positions records where they are now).
    `stored` is `paper_json(paper)` when the caller has it already (the build does).
    """
    text = _POSITION.sub("}", paper_json(paper) if stored is None else stored)
    text = _RECORD_POSITION.sub(r"\1}", text)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()


_PAPER_FIELDS = tuple(f.name for f in dataclass_fields(Paper))


def _plain(value: Any) -> Any:
    """A field value as JSON data: tuples of small dataclasses (sources, labels) as dicts."""
    if isinstance(value, tuple):
        if value and isinstance(value[0], SourceRecord):
            return [record.to_dict() for record in value]
        return [
            {name: getattr(item, name) for name in item.__dataclass_fields__}
            if hasattr(item, "__dataclass_fields__")
            else item
            for item in value
        ]
    return value


def paper_json(paper: Paper) -> str:
    """`paper.to_dict()` as JSON, built by hand: `dataclasses.asdict` deep-copies every
    value recursively, which cost ~5% of the whole build (`Paper.from_dict` reads it back).
    """
    data = {name: _plain(getattr(paper, name)) for name in _PAPER_FIELDS}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def document(paper: Paper, stored: str | None = None, lean: bool = False) -> dict[str, Any]:
    """The field values Whoosh indexes for one paper.

    `stored` is `paper_json(paper)` when the caller has it already (computed here
    otherwise, from the same values: the same text).
    `lean`: no edge n-grams (`build_schema(lean=True)`), a third of the postings; nor
    the stored paper and its digest: a lean index is searched with its library at hand
    (index.store.lean) and replaced whole, never updated.
    """
    if stored is None and not lean:
        stored = paper_json(paper)
    doc: dict[str, Any] = {
        "id": paper.id,
        "title": paper.title,
        "short_name": paper.short_name or "",
        "authors": f" {AUTHOR_GAP} ".join(paper.authors),
        "abstract": paper.abstract,
        "venue": paper.venue or "",
        "prefix": ""
        if lean
        else " ".join(filter(None, (paper.title, paper.short_name, *paper.authors))),
        "topic": SEP.join(paper.topic_ids),
        "hw": SEP.join(paper.hardware_ids),
        "author_facet": SEP.join(paper.authors),
        "author_list": SEP.join(paper.authors).encode("utf-8"),
        "keyword_facet": SEP.join(paper.keywords),
        "keyword_list": SEP.join(paper.keywords).encode("utf-8"),
        "category_facet": SEP.join(paper.categories),
        "category_list": SEP.join(paper.categories).encode("utf-8"),
        "venue_facet": short_venue(paper.venue),
        "year_facet": str(paper.year) if paper.year is not None else "",
        "title_sort": paper.title.casefold(),
        "source": SEP.join(source.path for source in paper.sources),
    }
    if not lean:  # a lean index is served with its library beside it, never updated
        doc["digest"] = paper_digest(paper, stored)
        doc["paper"] = stored
    if paper.year is not None and paper.year >= 0:
        doc["year"] = paper.year
    if paper.doi:
        doc["doi"] = paper.doi
    if paper.arxiv:
        doc["arxiv"] = paper.arxiv
    if paper.citation_key:
        doc["key"] = paper.citation_key
        doc["key_folded"] = paper.citation_key.lower()
    if paper.url:
        doc["url"] = normal_url(paper.url)
    if paper.isbn:
        doc["isbn"] = paper.isbn
    if paper.pmid:
        doc["pmid"] = paper.pmid
    return doc
