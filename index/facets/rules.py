"""One taxonomy regex, compiled for speed and matched at word edges.

Kept apart from `index.facets.tagger` so the taxonomy loader can check a user's pattern the same
way the tagger will run it, without importing the tagger.

Two tricks keep tagging 100,000 papers fast while the rules stay plain regexes:
- Each rule knows the literal text every match starts with (`anchors`). The tagger skips
  a rule whose anchors' first word starts no word of the paper, and a rule that does run
  is tried only where `str.find` sees an anchor, never at every position of the text.
- A case-insensitive rule is lowercased (escapes left alone) and run on a lowercased copy
  of the text without `re.IGNORECASE`; the left word edge is checked in Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from index.facets.windows import Window, matches_near, window

__all__ = ["AnchorScanner", "Rule", "Text", "anchors", "compile_rule", "normalise_name", "required"]

_SEPARATORS = re.compile(r"[\s_\-\u2010-\u2015]+")


class Text:
    """A paper's text prepared once for every rule: lowercased, with anchor positions cached."""

    def __init__(self, text: str) -> None:
        self.text = text
        low = text.lower()
        if len(low) != len(text):  # keep positions aligned with the original text
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        self.low = low
        self._positions: dict[str, list[int]] = {}
        self._scanned: frozenset[str] = frozenset()  # anchors `scan` found all of

    def scan(self, scanner: AnchorScanner) -> set[str]:
        """Find every word-start occurrence of all the scanner's anchors in one pass.

        Afterwards `positions` answers for those anchors from memory. Returns the anchors
        that occur at all, which is exactly the set of rules worth trying.
        """
        low = self.low
        # `split` gives [text, anchor, text, anchor, ..., text], each match taking the one
        # non-word character before its anchor: the k-th anchor starts after the first k
        # texts and k such characters. All counted in C; Python sees each anchor once.
        parts = (scanner.ascii if low.isascii() else scanner.regex).split(low)
        positions: dict[str, list[int]] = {}
        head = scanner.head.match(low)
        if head:
            positions[head.group(1)] = [0]
        ends = accumulate(map(len, parts[0:-1:2]))
        for number, (longest, end) in enumerate(zip(parts[1::2], ends), 1):
            starts = positions.get(longest)
            if starts is None:
                positions[longest] = [end + number]
            else:
                starts.append(end + number)
        present = set(positions)
        for longest in present & scanner.nested:  # anchors that are a longer one's start
            for anchor in scanner.prefixes[longest]:
                if anchor == longest:
                    continue
                if anchor in positions:  # found on its own too, or in another anchor
                    positions[anchor] = sorted({*positions[anchor], *positions[longest]})
                else:
                    positions[anchor] = positions[longest]
                present.add(anchor)
        self._positions.update(positions)
        self._scanned = scanner.anchors
        return present

    def starts(self, anchors: tuple[str, ...]) -> list[int]:
        """Where any of the anchors starts a word, in order (one list, not one per anchor)."""
        known, scanned = self._positions, self._scanned
        lists = []
        for anchor in anchors:
            found = known.get(anchor)
            if found is None and anchor not in scanned:
                found = self.positions(anchor)
            if found:
                lists.append(found)
        if len(lists) > 1:
            return sorted(set().union(*lists))
        return lists[0] if lists else []

    def positions(self, anchor: str) -> list[int]:
        """Where the anchor occurs at the start of a word."""
        found = self._positions.get(anchor)
        if found is None:
            if anchor in self._scanned:
                return []
            low, found = self.low, []
            at = low.find(anchor)
            while at != -1:
                if at == 0 or not (low[at - 1].isalnum() or low[at - 1] == "_"):
                    found.append(at)
                at = low.find(anchor, at + 1)
            self._positions[anchor] = found
        return found


@dataclass(frozen=True, eq=False)
class Rule:
    """A compiled pattern plus the literal texts one of which every match starts with."""

    source: str  # the pattern as written in the taxonomy
    regex: re.Pattern[str]
    cased: bool  # True: run on the original text; False: on the lowercased copy
    anchors: tuple[str, ...]  # lowercase; empty means "try everywhere"
    contains: tuple[str, ...] = ()  # lowercase texts every match holds, beyond its anchor
    near: Window | None = None  # with no anchor: where a match can start (index.facets.windows)

    def matches(self, doc: Text) -> list[re.Match[str]]:
        """Non-overlapping matches that start on a word edge.

        Every match starts with an anchor, so the regex is tried only where one occurs:
        much cheaper than letting `re` scan every position of the text.
        """
        subject = doc.text if self.cased else doc.low
        if not self.anchors:
            if self.near:
                every = matches_near(self.regex, subject, self.near)
            else:
                every = list(self.regex.finditer(subject))
            return [m for m in every if _starts_word(subject, m.start())]
        starts = doc.starts(self.anchors)
        if not starts:
            return []
        found: list[re.Match[str]] = []
        end = -1
        for at in starts:
            if at >= end:
                match = self.regex.match(subject, at)
                if match:
                    found.append(match)
                    end = match.end()
        return found

    def spans(self, doc: Text) -> list[tuple[int, int]]:
        """Where the rule matches, as (start, end) pairs."""
        return [m.span() for m in self.matches(doc)]

    def found(self, doc: Text, negated: list[tuple[int, int]], limit: int = 3) -> list[str]:
        """Up to `limit` distinct matches (in the text's own case) no hard negative covers."""
        return self.phrases(doc, self.matches(doc), negated, limit)

    @staticmethod
    def phrases(
        doc: Text, matches: list[re.Match[str]], negated: list[tuple[int, int]], limit: int = 3
    ) -> list[str]:
        """`found` for matches already made: the tagger looks for negatives only after one."""
        hits: list[str] = []
        for match in matches:
            start, end = match.span()
            if any(start < n_end and n_start < end for n_start, n_end in negated):
                continue
            phrase = " ".join(doc.text[start:end].split())
            if phrase not in hits:
                hits.append(phrase)
                if len(hits) == limit:
                    break
        return hits


class AnchorScanner:
    """One regex finding, at each word start, the longest of many anchors that occurs.

    The anchors are compiled as a trie (`a(?:bc|x)?`), so the regex engine walks one
    branch per word instead of trying a thousand alternatives; a zero-width lookahead
    lets it report overlapping anchors. The anchors occurring at a position are exactly
    the prefixes of the longest one there, listed in `prefixes`.

    A word start after the text's first character is the character after a non-word one,
    so `regex` looks for that character (`\\W`) and the anchor follows it: `re` skips
    from one such character to the next in C, where a lookbehind (`(?<!\\w)`) would be
    tried at every position of the text. `head` tries the text's first character.
    """

    def __init__(self, anchors: Iterable[str]) -> None:
        self.anchors = frozenset(a for a in anchors if a)
        trie: dict[str, Any] = {}
        for anchor in self.anchors:
            node = trie
            for char in anchor:
                node = node.setdefault(char, {})
            node[""] = {}
        pattern = _trie_pattern(trie)
        self.head = re.compile(f"(?=({pattern}))")
        self.regex = re.compile(f"\\W(?=({pattern}))")
        # In ASCII text the non-word characters are these: a set `re` tests by a bitmap
        # lookup, not by asking Unicode's tables as it must for `\\W`.
        self.ascii = re.compile(f"[\\x00-/:-@\\[-^`{{-\\x7f](?=({pattern}))")
        self.prefixes = {
            a: tuple(a[:n] for n in range(1, len(a) + 1) if a[:n] in self.anchors)
            for a in self.anchors
        }
        self.nested = frozenset(a for a, found in self.prefixes.items() if len(found) > 1)


def _trie_pattern(node: dict[str, Any]) -> str:
    branches = [
        re.escape(char) + _trie_pattern(child) for char, child in sorted(node.items()) if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
    if "" in node:  # an anchor ends here: the longer ones first, then this one
        return f"(?:{body})?" if len(branches) > 1 or len(body) > 1 else f"{body}?"
    return body


def _starts_word(text: str, index: int) -> bool:
    if index == 0:
        return True
    before = text[index - 1]
    return not (before.isalnum() or before == "_")


def compile_rule(pattern: str, cased: bool) -> Rule:
    """Compile one taxonomy pattern; raises re.error for a bad one."""
    source = pattern if cased else _lower_pattern(pattern)
    regex = re.compile(f"(?:{source})(?!\\w)")
    found = anchors(pattern)
    # Literal text a match must hold besides its anchor: 'on (the )?cpus?' starts at every
    # "on" of a paper, but is worth trying only where "cpu" occurs at all.
    extra = tuple(run for run in required(pattern) if not any(run in a for a in found))
    return Rule(pattern, regex, cased, found, extra, None if found else window(source))


def _lower_pattern(pattern: str) -> str:
    """Lowercase a regex's literal text, leaving escapes such as `\\S`, `\\W`, `\\B` intact."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            end = i + 2
            if pattern[i + 1] == "N" and pattern[end : end + 1] == "{":
                end = pattern.find("}", end) + 1 or len(pattern)
            out.append(pattern[i:end])
            i = end
            continue
        out.append(char.lower())
        i += 1
    return "".join(out)


def anchors(pattern: str) -> tuple[str, ...]:
    """Lowercase literal texts one of which every match must contain; () if unknown.

    Only the leading literal run of each top-level alternative (or of a leading group's
    alternatives) is used: enough to skip most rules on most papers, and easy to get right.
    """
    found: list[str] = []
    for branch in _split_top(pattern):
        branch_anchors = _branch_anchors(branch)
        if not branch_anchors:
            return ()
        found.extend(branch_anchors)
    return tuple(dict.fromkeys(found))


def _structure(pattern: str) -> Iterator[tuple[int, str, int]]:
    """Each character of `pattern` outside escapes and `[...]` classes, with its position
    and the group depth after it: the one walk both splitting helpers below need."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        else:
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            yield i, char, depth
        i += 1


def _split_top(pattern: str) -> list[str]:
    parts, start = [], 0
    for i, char, depth in _structure(pattern):
        if char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


def _branch_anchors(branch: str) -> tuple[str, ...]:
    if branch.startswith("(?:") or (branch.startswith("(") and not branch.startswith("(?")):
        close = _closing_paren(branch)
        if close is None or branch[close + 1 : close + 2] in ("?", "*", "{"):
            return ()
        inner = branch[3:close] if branch.startswith("(?:") else branch[1:close]
        return anchors(inner)
    literal: list[str] = []
    i = 0
    while i < len(branch):
        char = branch[i]
        if char.isalnum() or char in " -_":
            literal.append(char)
            i += 1
        elif char == "\\" and i + 1 < len(branch) and not branch[i + 1].isalnum():
            literal.append(branch[i + 1])
            i += 2
        else:
            break
    if literal and branch[i : i + 1] in ("?", "*", "{"):
        literal.pop()  # a quantified last character is optional
        i = len(branch)  # and nothing after it is certain to follow
    text = "".join(literal).lower()
    rest = branch[i:]
    if rest.startswith("(?:") or (rest.startswith("(") and not rest.startswith("(?")):
        close = _closing_paren(rest)  # a group right after the literal: extend through it
        if close is not None and rest[close + 1 : close + 2] not in ("?", "*", "{"):
            tails = anchors(rest[3:close] if rest.startswith("(?:") else rest[1:close])
            if tails:
                return tuple(text + tail for tail in tails)
    return (text,) if len(text.strip()) >= 2 else ()


def required(pattern: str) -> tuple[str, ...]:
    """Lowercase literal runs (3+ characters, outside groups) every match must contain.

    The fallback gate for a rule with no anchor, such as `\\d+ ?[gmt]bps`.
    """
    if len(_split_top(pattern)) > 1:
        return ()
    runs, current, depth, i = [], "", 0, 0
    while i < len(pattern):
        char = pattern[i]
        step = 1
        if char == "\\":
            step = 2
            nxt = pattern[i + 1 : i + 2]
            if depth == 0 and nxt and not nxt.isalnum():
                current += nxt
                i += step
                continue
        elif char in "([":
            depth += 1 if char == "(" else 0
            if char == "[":
                step = pattern.find("]", i + 2) - i + 1 if pattern.find("]", i + 2) > 0 else 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and (char.isalnum() or char in " -_"):  # noqa: SIM102 - the elif chain
            if pattern[i + 1 : i + 2] not in ("?", "*", "{"):
                current += char
                i += 1
                continue
        runs.append(current)
        current = ""
        i += step
    runs.append(current)
    return tuple(run.lower() for run in runs if len(run.strip()) >= 3)


def _closing_paren(branch: str) -> int | None:
    for i, char, depth in _structure(branch):
        if char == ")" and depth == 0:
            return i
    return None


def normalise_name(name: str) -> str:
    """How source keywords are compared with ids, labels and aliases: case, spaces, hyphens."""
    return _SEPARATORS.sub(" ", name.casefold()).strip()
