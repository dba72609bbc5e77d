"""BibTeX name lists -> structured `Name`s, split by bibtexparser as BibTeX itself would.

BibTeX's own rules decide which words are the family name: `Last, First`, `von Last,
Jr, First`, `First von Last`, and a braced group is one word (`{de la Cruz Ortiz}, Ana`,
`{U.S. Food and Drug Administration}`). bibtexparser implements those rules
(`split_multiple_persons_names`, `parse_single_name_into_parts`, escapes like `\\{`
included); this module only decodes each part's LaTeX and recognises an institution: a
name that is one braced group with nothing else is a literal, never to be split again.
"""

from __future__ import annotations

from functools import lru_cache

from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)

from index.library.normalize import LATEX_SYNTAX, latex_to_unicode
from index.models import Name

__all__ = ["name_parts", "parse_names"]

_OTHERS = frozenset({"others", "{others}", "et al.", "et al", "etal"})


def _is_one_group(word: str) -> bool:
    """True for `{...}` whose outer braces enclose the whole word."""
    if len(word) < 2 or word[0] != "{" or word[-1] != "}":
        return False
    depth = 0
    for position, char in enumerate(word):
        if char == "{" and (position == 0 or word[position - 1] != "\\"):
            depth += 1
        elif char == "}" and word[position - 1] != "\\":
            depth -= 1
            if depth == 0 and position != len(word) - 1:
                return False
    return True


def _decode(words: list[str]) -> str:
    if not words:
        return ""
    text = " ".join(words)
    if text.isascii() and text.isprintable() and not LATEX_SYNTAX.search(text):
        return text  # most name parts: nothing to decode
    return latex_to_unicode(text, full=True)


# A lab's library names the same people thousands of times: each spelling is split once.
@lru_cache(maxsize=16384)
def name_parts(raw: str) -> Name:
    """One BibTeX name -> its parts; an institution in braces -> a literal `Name`."""
    raw = raw.strip()
    try:
        parts = parse_single_name_into_parts(raw, strict=False)
    except Exception:  # bibtexparser raises for names it cannot split: keep the text whole
        return Name(literal=latex_to_unicode(raw, full=True))
    if (
        not parts.first
        and not parts.von
        and not parts.jr
        and len(parts.last) == 1
        and _is_one_group(parts.last[0])
        and " " in parts.last[0].strip("{}").strip()
    ):
        return Name(literal=_decode(parts.last))
    return Name(
        family=_decode(parts.last),
        given=_decode(parts.first),
        particle=_decode(parts.von),
        suffix=_decode(parts.jr),
    )


def parse_names(value: str) -> tuple[tuple[Name, ...], bool]:
    """A BibTeX `author`/`editor` value -> (names, complete); `and others` = incomplete."""
    if not value.strip():
        return (), True
    names: list[Name] = []
    complete = True
    try:
        raws = split_multiple_persons_names(value)
    except Exception:
        raws = [value]
    for raw in raws:
        if raw.strip().lower() in _OTHERS:
            complete = False
            continue
        name = name_parts(raw)
        if str(name):
            names.append(name)
    return tuple(names), complete
