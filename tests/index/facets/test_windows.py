"""A rule without an anchor, tried only near its literal, matches what `finditer` matches.

`index.facets.windows` reads a pattern's parse tree for a literal every match holds and
how far before it a match can start; `matches_near` then tries the regex only there. The
labels fixture (test_unchanged.py) checks the tagger as a whole; these check the window
itself on patterns of each kind (bounded, unbounded over a class, over alternatives) and
on random texts, and that without the private regex parser nothing changes but speed.
"""

from __future__ import annotations

import random
import re

import pytest

from index.facets import windows
from index.facets.rules import Text, compile_rule
from index.facets.windows import matches_near, window

# Patterns as the taxonomy writes them (no anchor: none of them starts with a literal).
PATTERNS = [
    "(?:execution |running )?(?:time|cost)s? (?:of|for) training",
    r"\d+-bit",
    r"(?:a|bb)+ gpus?",
    r"(?:\w+ )?tensor cores?",
    r"[0-9.]+x speedup",
]
# Characters the random texts are made of: the literals' pieces, digits, noise, non-ASCII.
ALPHABET = ["training", " ", "time ", "cost", "s", "of ", "for ", "running ", "execution "]
ALPHABET += ["-bit", "1", "2", "٣", "a", "bb", " gpu", " gpus", "tensor core", "x speedup"]
ALPHABET += [".", "4", "é", "\n", "the "]


def test_a_pattern_without_an_anchor_gets_its_literal_and_bounds() -> None:
    bounded = window(PATTERNS[0])
    assert bounded is not None
    assert (bounded.literal, bounded.shortest, bounded.longest) == (" training", 7, 19)
    unbounded = window(r"\d+-bit")
    assert unbounded is not None and unbounded.literal == "-bit"
    assert unbounded.longest is None and unbounded.chars == "0123456789" and unbounded.unicode


@pytest.mark.parametrize("pattern", [r"(?i)foo bar", r"x\by", "ab", r"(a+)\1+ gpu", r"[^x]+ gpu"])
def test_what_it_cannot_bound_gets_no_window(pattern: str) -> None:
    """Case-insensitive flags, literals too short to help, and before the literal an
    unbounded run of what it cannot list (a back reference, a negated class): no window."""
    assert window(pattern) is None


@pytest.mark.parametrize("pattern", PATTERNS)
def test_matches_near_finds_what_finditer_finds(pattern: str) -> None:
    where = window(pattern)
    assert where is not None
    regex = re.compile(f"(?:{pattern})(?!\\w)")
    rng = random.Random(pattern)
    for _ in range(3000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 14)))
        expected = [m.span() for m in regex.finditer(text)]
        assert [m.span() for m in matches_near(regex, text, where)] == expected, text


def test_without_the_regex_parser_rules_match_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python whose private regex parser moved: no windows, the same matches."""
    texts = ["the execution time of training 8-bit a gpus", "4-bit and 16-bit tensor cores"]
    near = [compile_rule(pattern, cased=False) for pattern in PATTERNS]
    monkeypatch.setattr(windows, "_parser", None)
    plain = [compile_rule(pattern, cased=False) for pattern in PATTERNS]
    assert all(rule.near is not None for rule in near)
    assert all(rule.near is None for rule in plain)
    for text in texts:
        doc = Text(text)
        assert [rule.spans(doc) for rule in near] == [rule.spans(doc) for rule in plain]
    assert any(rule.spans(Text(texts[1])) for rule in plain)
