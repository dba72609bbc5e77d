"""Citation keys like `jiang2024dynapipe`: readable, stable and unique in a library.

A key is pasted into LaTeX documents, so it must not change when the user reopens the
app: it depends only on the paper's own facts, and collisions are broken in the order of
the papers' ids (not of the input files), so reordering a corpus keeps every key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from index.citations.fields import ascii_fold, paper_names
from index.models import Paper

_STOP_WORDS = frozenset(
    "a an and the of on in for to with via from by at as is are towards toward into "
    "using how what when why do does can".split()
)
# A source's own key is kept exactly as written unless a .bib file could not hold it
# (a key ends at a comma; whitespace, braces, `%`, `#`, `"` and `\` break the entry).
_SOURCE_KEY = re.compile(r'^[^\s,{}%#"\\]+$')


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", ascii_fold(text).lower())


def _word(paper: Paper) -> str:
    """The short name if the paper has one, else the first significant title word.

    A long short name keeps its leading words ("Regional-Prompting-FLUX" ->
    "regionalprompting") rather than being cut mid-word.
    """
    if paper.short_name:
        slug = ""
        for part in re.split(r"[\s\-_/]+", paper.short_name.split("(")[0]):
            piece = _slug(part)
            if slug and len(slug) + len(piece) > 20:
                break
            slug += piece
        if slug:
            return slug[:24]
    for raw in re.split(r"[\s:;,.!?()\[\]/]+", paper.title):
        word = _slug(raw)
        if word and raw.lower() not in _STOP_WORDS and not word.isdigit():
            return word[:20]
    return ""


def base_key(paper: Paper) -> str:
    """The key before uniqueness: first author's family name, year, a word.

    A key the source gave (a BibTeX entry's own key) is kept, because the user's documents
    already cite it.
    """
    if paper.citation_key and _SOURCE_KEY.match(paper.citation_key):
        return paper.citation_key
    first = paper_names(paper)[0] if paper.authors else None
    family = (first.family or first.literal).split() if first else []
    author = _slug(family[0] if first and first.literal else " ".join(family))
    year = str(paper.year) if paper.year is not None else "nd"
    key = f"{author or 'anon'}{year}{_word(paper)}"
    return key


def citation_keys(papers: Sequence[Paper]) -> dict[str, str]:
    """Maps each paper id to a key that is unique within `papers`.

    Papers that would share a key get `a`, `b`, ... suffixes (all of them, so no key
    silently means "the first one"), assigned in id order.
    """
    return unique_keys((paper.id, base_key(paper)) for paper in papers)


def unique_keys(base_keys: Iterable[tuple[str, str]]) -> dict[str, str]:
    """`citation_keys` from each paper's (id, `base_key`), as the index saves them.

    The app on a current index has no `Paper` objects to hand (index.search.paper_keys
    saves every paper's base key), and must give each paper the key a loaded library would.
    """
    groups: dict[str, list[str]] = {}
    for paper_id, key in base_keys:
        groups.setdefault(key, []).append(paper_id)
    keys: dict[str, str] = {}
    taken = set(groups)
    for key, ids in groups.items():
        if len(ids) == 1:
            keys[ids[0]] = key
            continue
        suffixes = _suffixes()
        for paper_id in sorted(ids):
            candidate = key + next(suffixes)
            while candidate in taken:
                candidate = key + next(suffixes)
            taken.add(candidate)
            keys[paper_id] = candidate
    return keys


def _suffixes() -> Iterator[str]:
    """a, b, ..., z, aa, ab, ...: never runs out, however many papers collide."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    length = 1
    while True:
        for index in range(len(letters) ** length):
            word = ""
            for _ in range(length):
                index, rest = divmod(index, len(letters))
                word = letters[rest] + word
            yield word
        length += 1
