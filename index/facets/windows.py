"""Where a rule with no anchor can match: near a literal every match holds.

A rule such as `(?:execution |running )?(?:time|cost)s? (?:of|for) training` has no literal
text it starts with, so it used to be run with `finditer` over the whole paper, the regex
tried at every character: ~70 µs a paper, a fifth of tagging. But every match holds
" training" after at most 20 characters, so a match can only start in the 20 characters
before an occurrence of " training"; trying the regex at those positions alone finds the
very matches `finditer` finds, in a paper that has " training" once, ~20 tries instead of
~2,000.

The literal and how far before it a match can start are read from the pattern's parse
tree (the standard library's own regex parser, so the analysis is the engine's view of the
pattern): the longest run of plain characters in the pattern's top-level sequence, the
widths of what precedes it and, where that is unbounded (`\\d+-bit`), which characters it
can be made of. A pattern this does not understand (case-insensitive flags, a character
class with a negation, a back reference, ...) gets no window and is run as before.
"""

from __future__ import annotations

import importlib
import re
import string
import sys
from dataclasses import dataclass
from typing import Any

__all__ = ["Window", "matches_near", "window"]

# The regex parser `re` compiles with (named `sre_parse` before Python 3.11). It is not
# public: on a Python that moves or reshapes it, no pattern gets a window and every rule
# runs over the whole text as before (slower, the same matches).
_NEW = sys.version_info >= (3, 11)
try:
    _parser: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")
    _codes: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")
except ImportError:  # pragma: no cover - a future Python
    _parser = _codes = None

_SHORTEST_LITERAL = 3  # a shorter one (" ", "of") occurs too often to be worth it
_MOST_TRIES = 24  # a wider window is searched with the regex from its start instead
_ASCII = "".join(map(chr, range(128)))
_CATEGORIES = (  # the ASCII characters of each class `re` has (Unicode mode)
    {
        _codes.CATEGORY_DIGIT: string.digits,
        _codes.CATEGORY_WORD: "".join(c for c in _ASCII if c.isalnum() or c == "_"),
        _codes.CATEGORY_SPACE: "".join(c for c in _ASCII if c.isspace()),
    }
    if _codes is not None
    else {}
)


class _Unknown(Exception):
    """A construct whose characters this module does not work out."""


@dataclass(frozen=True)
class Window:
    """A literal every match holds, and where before it a match can start.

    A match holding `literal` at position q starts at p with q - p >= `shortest`, and
    either q - p <= `longest` or every character in [p, q) is one of `chars` (a
    non-ASCII character counts as one of them when `unicode` is set: the classes `\\d`,
    `\\w`, `\\s` hold many).
    """

    literal: str
    shortest: int
    longest: int | None  # None: no bound on the width alone
    chars: str | None  # None: no bound on the characters alone
    unicode: bool = False


def window(source: str) -> Window | None:
    """The window of a pattern (as compiled, case included), or None when it has none
    (or the regex parser is not the one this module knows: see `_parser`)."""
    if _parser is None:
        return None
    try:
        return _window(source)
    except (re.error, AttributeError, TypeError, ValueError, IndexError):
        return None


def _window(source: str) -> Window | None:
    parsed = _parser.parse(source, 0)
    if parsed.state.flags & re.IGNORECASE:  # a literal then also matches other cases
        return None
    items = list(parsed.data)
    start, length = _longest_literal(items)
    if length < _SHORTEST_LITERAL:
        return None
    literal = "".join(chr(code) for _, code in items[start : start + length])
    before = items[:start]
    shortest, widest = _parser.SubPattern(parsed.state, before).getwidth()
    if widest < _codes.MAXREPEAT:
        return Window(literal, shortest, widest, None)
    alternatives = _alternatives(before)
    longest, chars, unicode = -1, "", False
    try:
        for sequence in alternatives:
            _, high = _parser.SubPattern(parsed.state, sequence).getwidth()
            if high < _codes.MAXREPEAT:
                longest = max(longest, high)
            else:
                more, wide = _chars(sequence)
                chars, unicode = chars + more, unicode or wide
    except _Unknown:
        return None
    chars = "".join(sorted(set(chars)))
    return Window(literal, shortest, longest if longest >= 0 else None, chars, unicode)


def _longest_literal(items: list[tuple[Any, Any]]) -> tuple[int, int]:
    """Where the longest run of plain characters is in a sequence, and its length."""
    best, best_length, run = 0, 0, 0
    for index, (op, _) in enumerate(items):
        run = run + 1 if op is _codes.LITERAL else 0
        if run > best_length:
            best, best_length = index - run + 1, run
    return best, best_length


def _alternatives(items: list[tuple[Any, Any]]) -> list[list[tuple[Any, Any]]]:
    """A sequence that is one group of alternatives, as those; else the sequence itself."""
    while len(items) == 1 and items[0][0] is _codes.SUBPATTERN and not items[0][1][1]:
        items = list(items[0][1][3].data)  # a group without flags: what it holds
    if len(items) == 1 and items[0][0] is _codes.BRANCH:
        return [list(branch.data) for branch in items[0][1][1]]
    return [items]


def _chars(items: Any) -> tuple[str, bool]:
    """Every character a sequence can consume (ASCII and literals), and whether Unicode
    classes add more; raises _Unknown for what is not worked out."""
    chars, wide = "", False
    for op, av in items:
        if op is _codes.LITERAL:
            chars += chr(av)
        elif op is _codes.IN:
            for kind, value in av:
                if kind is _codes.LITERAL:
                    chars += chr(value)
                elif kind is _codes.RANGE and value[1] - value[0] < 256:
                    chars += "".join(map(chr, range(value[0], value[1] + 1)))
                elif kind is _codes.CATEGORY and value in _CATEGORIES:
                    chars, wide = chars + _CATEGORIES[value], True
                else:
                    raise _Unknown
        elif op is _codes.BRANCH:
            for branch in av[1]:
                more, also = _chars(branch.data)
                chars, wide = chars + more, wide or also
        elif op is _codes.SUBPATTERN:
            if av[1] & re.IGNORECASE:
                raise _Unknown
            more, also = _chars(av[3].data)
            chars, wide = chars + more, wide or also
        elif op in (_codes.MAX_REPEAT, _codes.MIN_REPEAT):
            more, also = _chars(av[2].data)
            chars, wide = chars + more, wide or also
        elif op not in (_codes.AT, _codes.ASSERT, _codes.ASSERT_NOT):  # those consume nothing
            raise _Unknown
    return chars, wide


def matches_near(regex: re.Pattern[str], subject: str, where: Window) -> list[re.Match[str]]:
    """What `regex.finditer(subject)` gives, trying the regex only where a match can start.

    Each occurrence of the literal gives the positions a match holding it there can start
    at; they are tried in order, as `finditer` would reach them, and a match found hides
    the positions it covers, as it does for `finditer`. A window wider than a few dozen
    positions is searched from its start instead (the same leftmost match).
    """
    found: list[re.Match[str]] = []
    literal, shortest, longest, chars = where.literal, where.shortest, where.longest, where.chars
    pos = 0  # no match can start before this: the previous match ends here
    at = subject.find(literal, shortest)
    while at != -1:
        last = at - shortest  # the last position a match holding this occurrence starts at
        first = at - longest if longest is not None else last + 1
        if chars is not None and first > pos:
            run = subject[pos:at]
            stripped = len(run.rstrip(chars))
            if stripped and where.unicode and not run[stripped - 1].isascii():
                stripped = 0  # perhaps a Unicode digit or letter too: no bound from this
            first = min(first, pos + stripped)
        first = max(first, pos)
        match = None
        if last - first >= _MOST_TRIES:
            match = regex.search(subject, first)
            if match is None:
                return found
        else:
            for start in range(first, last + 1):
                match = regex.match(subject, start)
                if match:
                    break
        if match:  # never empty: it holds the literal
            found.append(match)
            pos = match.end()
            at = subject.find(literal, max(at + 1, pos + shortest))
        else:
            pos = max(pos, last + 1)
            at = subject.find(literal, at + 1)
    return found
