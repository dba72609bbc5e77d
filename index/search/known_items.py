"""A query that names one paper: a DOI, an arXiv id, a URL, a PubMed id or an ISBN.

What a researcher pastes first is an identifier, copied from a browser, a PDF or a
sentence: `https://doi.org/10.1145/3767295.3769364`, `HTTP://DX.DOI.ORG/10.1145/...` with
the sentence's full stop, `arXiv:2511.15915v2`, `https://arxiv.org/pdf/2511.15915v1.pdf`,
`hep-th/9901001`. Whoosh's parser reads these as words (or as a field `https:`) and finds
nothing. This module recognises the whole query as one identifier, in the form the index
holds it (index.schema.fields: lower case, a DOI bare, an arXiv id without its version),
so the parser can put the paper first, as it does for a typed citation key, and the empty
result can say what was looked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from whoosh import query as wq
from whoosh.reading import IndexReader

from index.library.identifiers import isbn_key, normal_url
from index.library.ids import ID_PATTERN
from index.library.lookup import paper_name

__all__ = ["FUZZY_TRIED", "Identifier", "Known", "completions", "identify", "known_papers"]

# What a sentence puts around a pasted identifier: quotes, brackets, its full stop.
_TRAILING = ".,;:!?)]}>'\"\u201d\u2019"
_LEADING = "([{<'\"\u201c\u2018"
_DOI_URL = re.compile(r"(?:https?://)?(?:www\.)?(?:dx\.)?doi\.org/", re.IGNORECASE)
_DOI = re.compile(r"10\.\d{4,9}/\S+")
# `doi:10.1145` (a publisher's prefix, no suffix) or `doi:10.1145/37*`.
_DOI_PREFIX = re.compile(r"10\.\d{4,9}(?:/\S*)?")
_ARXIV_URL = re.compile(
    r"(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/", re.IGNORECASE
)
# New style YYMM.NNNNN (a month 01-12), or old style archive(.XX)/YYMMNNN; any version.
_ARXIV = re.compile(
    r"(?P<id>\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://\S+", re.IGNORECASE)
# How a result's notice starts when a query that found nothing found nothing fuzzily either.
FUZZY_TRIED = "Fuzzy words found nothing either"
# Letters a citation key's prefix needs before it is looked for (`XieN*`).
KEY_PREFIX = 3
# Keys one prefix may complete to; papers a prefix puts first at most.
KEY_CAP = 50
FIRST_CAP = 20
# DOIs one `doi:` prefix may complete to (a publisher's prefix: thousands in a big library).
DOI_CAP = 5000


@dataclass(frozen=True)
class Identifier:
    """One identifier the whole query is, as the index holds it.

    Attributes:
        kind: what the user is told was looked for ("DOI", "arXiv id", ...).
        field: the index field holding it (index.schema.fields).
        value: the value as indexed (lower case); a prefix when `prefix`.
        prefix: match every value starting with `value` (`doi:10.1145`).
    """

    kind: str
    field: str
    value: str
    prefix: bool = False

    def __str__(self) -> str:
        return f"{self.kind} {self.value}{'…' if self.prefix else ''}"


def _trimmed(text: str) -> str:
    return text.strip().lstrip(_LEADING).rstrip(_TRAILING)


def identify(text: str) -> tuple[Identifier, ...]:
    """The identifiers the whole of `text` can be (none for ordinary words).

    One token (or `doi: 10...` with a space), trailing punctuation ignored, any case.
    """
    token = _trimmed(text)
    if not token or len(token) > 300:
        return ()
    lowered = token.lower()
    for name in ("doi:", "arxiv:", "pmid:", "isbn:", "key:"):
        if lowered.startswith(name):
            value = _trimmed(token[len(name) :])
            if name == "doi:":
                value = unquote(_DOI_URL.sub("", value, count=1))
                if _DOI.fullmatch(value):
                    return (Identifier("DOI", "doi", value.lower()),)
                if _DOI_PREFIX.fullmatch(value.rstrip("*")):
                    bare = value.rstrip("*").lower()
                    return (Identifier("DOI", "doi", bare if "/" in bare else bare + "/", True),)
                return ()
            if name == "arxiv:":
                found = _ARXIV.fullmatch(_ARXIV_URL.sub("", value, count=1))
                return (Identifier("arXiv id", "arxiv", found["id"].lower()),) if found else ()
            if name == "pmid:":
                return (Identifier("PMID", "pmid", value),) if value.isdigit() else ()
            if name == "isbn:":
                key = isbn_key(value)
                return (Identifier("ISBN", "isbn", key),) if key else ()
            return ()
    if " " in token:
        return ()
    doi = unquote(_DOI_URL.sub("", token, count=1)) if _DOI_URL.match(token) else token
    if _DOI.fullmatch(doi):
        return (Identifier("DOI", "doi", doi.lower()),)
    arxiv = _ARXIV_URL.sub("", token, count=1) if _ARXIV_URL.match(token) else token
    found = _ARXIV.fullmatch(arxiv)
    # An old-style id bare needs its slash and digits: `hep-th/9901001`.
    if found and (arxiv is not token or "/" in arxiv or "." in arxiv):
        return (Identifier("arXiv id", "arxiv", found["id"].lower()),)
    if _URL.fullmatch(token):
        return (Identifier("URL", "url", normal_url(token)),)
    key = isbn_key(token)
    if key is not None and ("-" in token or len(token) in (10, 13)):
        return (Identifier("ISBN", "isbn", key),)
    return ()


@dataclass(frozen=True)
class Known:
    """What the whole query names: the papers to put first, and a query for all of them.

    Attributes:
        query: matches every paper the query names (None: it names none).
        first: the documents to rank first, in index order: the whole query is their id,
            their citation key (any case), one of their identifiers, or, for a few, a
            prefix of their key.
        identifiers: the identifiers the query was read as, to say what was looked for.
    """

    query: wq.Query | None = None
    first: tuple[int, ...] = ()
    identifiers: tuple[Identifier, ...] = field(default=())


def completions(reader: IndexReader, fieldname: str, prefix: str, cap: int) -> list[str]:
    """Up to `cap` of the field's values that start with `prefix`, in order."""
    found: list[str] = []
    for term in reader.expand_prefix(fieldname, prefix):
        found.append(term.decode("utf-8") if isinstance(term, bytes) else str(term))
        if len(found) >= cap:
            break
    return found


def known_papers(text: str, reader: IndexReader, typing: bool = False) -> Known:
    """The papers the whole of `text` names: by id or citation key (the key in any case,
    or its prefix: `XieN20*`, or the key being typed when `typing`), or by an identifier
    (`identify`). A citation key is compared folded, as fzf-bibtex users expect."""
    exact: list[wq.Term] = []
    prefixed: list[wq.Term] = []
    name = paper_name(text)
    if name is not None:
        # Each lookup is a hash probe per segment (~1 ms at 3,700 papers): the folded key
        # holds every exact key, and an id has one shape.
        folded = name.lower()
        exact.append(wq.Term("key_folded", folded))
        if ID_PATTERN.match(name):
            exact.append(wq.Term("id", name))
        stem = folded.rstrip("*")
        # Only the last `*` is the prefix's: a key may hold one (`ijcai73*524`).
        if (folded.endswith("*") or typing) and len(stem) >= KEY_PREFIX:
            prefixed += [
                wq.Term("key_folded", k) for k in completions(reader, "key_folded", stem, KEY_CAP)
            ]
    identifiers = identify(text)
    for found in identifiers:
        if found.prefix:
            prefixed += [
                wq.Term(found.field, v)
                for v in completions(reader, found.field, found.value, DOI_CAP)
            ]
        else:
            exact.append(wq.Term(found.field, found.value))
    exact = [t for t in dict.fromkeys(exact) if (t.fieldname, t.text) in reader]
    docs: set[int] = set()
    for term in exact:
        docs.update(reader.postings(term.fieldname, term.text).all_ids())
    near: set[int] = set()
    for term in prefixed:
        near.update(reader.postings(term.fieldname, term.text).all_ids())
        if len(near) > FIRST_CAP:
            break
    if len(near) <= FIRST_CAP:
        docs |= near
    terms = list(dict.fromkeys([*exact, *prefixed]))
    if not terms:
        return Known(identifiers=identifiers)
    query = terms[0] if len(terms) == 1 else wq.Or(terms)
    return Known(query, tuple(sorted(docs)), identifiers)
