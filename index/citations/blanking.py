"""Blanking what a manuscript's syntax never reads a citation in, offsets and lines kept.

Each reader in `index.citations.manuscripts` blanks code, comments and raw text to spaces
before it looks for keys: the text keeps its length and its newlines, so a key's offset
still gives its line. Every helper here is linear in the text, however many unclosed
openers a draft holds (issue 46: a quadratic scan took 401 s on 20,000 `\\cite{`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

__all__ = ["blank", "blank_all", "blank_blocks", "blank_spans", "line_end", "line_of"]


_NOT_NEWLINE = re.compile(r"[^\n]")


def blank(span: str) -> str:
    """`span` as spaces, its newlines kept (so lines still count)."""
    return _NOT_NEWLINE.sub(" ", span)


def blank_all(text: str, pattern: re.Pattern[str], closer: str | None = None) -> str:
    """`text` with every match of `pattern` blanked.

    `closer`: the text every match ends with (`-->`), for a pattern that scans ahead for it
    (`<!--.*?-->`). Nothing past its last occurrence can match, so the search stops there:
    otherwise each of thousands of unclosed openers scans to the end of the text, which is
    quadratic.
    """
    if closer is not None:
        last = text.rfind(closer)
        if last < 0:
            return text
        end = last + len(closer)
        return pattern.sub(lambda m: blank(m.group()), text[:end]) + text[end:]
    return pattern.sub(lambda m: blank(m.group()), text)


def blank_spans(text: str, span_at: Callable[[str, int], int | None]) -> str:
    """`text` with the spans a scanner finds blanked, for what one regex cannot match.

    `span_at(text, i)` is the end of a skipped span (a comment, raw text) starting at `i`,
    or None. A backslash escapes the next character, which then starts no span (`\\%`).
    """
    out: list[str] = []
    i, copied, n = 0, 0, len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n:
            i += 2
            continue
        end = span_at(text, i)
        if end is None:
            i += 1
            continue
        out += (text[copied:i], blank(text[i:end]))
        i = copied = end
    out.append(text[copied:])
    return "".join(out)


def blank_blocks(
    text: str,
    begins: re.Pattern[str],
    ends: re.Pattern[str],
    kind: Callable[[str], str],
) -> str:
    """Blanks each block from a `begins` match through the next `ends` match of the same
    kind (`kind` of group 1: an Org block's `src`, a LaTeX environment's name); a begin
    never closed is no block. The ends are listed once and each begin finds its own by
    bisection, so thousands of unclosed begins do not each search the rest of the file."""
    closers: dict[str, list[tuple[int, int]]] = {}
    for end in ends.finditer(text):
        closers.setdefault(kind(end.group(1)), []).append((end.start(), end.end()))
    out: list[str] = []
    copied = 0
    for begin in begins.finditer(text):
        if begin.start() < copied:
            continue  # inside the block just blanked
        candidates = closers.get(kind(begin.group(1)), [])
        k = bisect.bisect_left(candidates, (begin.end(), -1))
        if k == len(candidates):
            continue
        out += (text[copied : begin.start()], blank(text[begin.start() : candidates[k][1]]))
        copied = candidates[k][1]
    out.append(text[copied:])
    return "".join(out)


def line_of(text: str) -> Callable[[int], int]:
    """The 1-based line of an offset in `text` (its line starts listed once, then bisected)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    return line


def line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end
