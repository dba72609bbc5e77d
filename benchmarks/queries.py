"""The fixed mix of typed queries the benchmark replays, one request per keystroke.

Search-as-you-type sends a request on every key, so the slow part of a query is rarely the
finished word: it is the one- and two-letter prefixes on the way to it. Each script below
is typed a character at a time (`as_you_type=True`); every request is tagged with the
script's kind and with the state of the word being typed, so the report can say both
"phrases are slow" and "two-letter prefixes are slow".
"""

from __future__ import annotations

from dataclasses import dataclass

from index.models import SearchRequest

__all__ = ["SCRIPTS", "TypedRequest", "typed_requests", "word_stage"]


@dataclass(frozen=True)
class TypedRequest:
    """One keystroke's request and what it stands for in the report."""

    kind: str  # the script's kind: common, rare, two-words, phrase, author, ...
    stage: str  # the word being typed: prefix-1-2, prefix-3+, complete, empty
    request: SearchRequest


# (kind, text typed, topics selected, hardware selected). Words are from the generator's
# vocabulary (benchmarks/synth.py): "memory" is in ~28% of papers, "systolic" in ~1%,
# "tractography" in a handful per 10,000.
SCRIPTS: tuple[tuple[str, str, frozenset[str], frozenset[str]], ...] = (
    ("empty", "", frozenset(), frozenset()),
    ("common", "memory", frozenset(), frozenset()),
    ("common", "training", frozenset(), frozenset()),
    ("rare", "systolic", frozenset(), frozenset()),
    ("rare", "tractography", frozenset(), frozenset()),
    ("two-words", "pipeline parallelism", frozenset(), frozenset()),
    ("two-words", "kv cache", frozenset(), frozenset()),
    ("three-words", "low latency llm serving", frozenset(), frozenset()),
    ("phrase", '"mixture of experts"', frozenset(), frozenset()),
    ("phrase", '"tensor compiler"', frozenset(), frozenset()),
    ("author", "author:zhang", frozenset(), frozenset()),
    ("author", "author:müller", frozenset(), frozenset()),
    ("title", "title:efficient", frozenset(), frozenset()),
    ("hw-field", "hw:nvidia-gpu kernels", frozenset(), frozenset()),
    ("fuzzy", "schedulng~", frozenset(), frozenset()),
    ("fuzzy", "quantizaton~", frozenset(), frozenset()),
    ("facets", "", frozenset({"training"}), frozenset()),
    ("facets", "memory", frozenset({"training"}), frozenset()),
    ("facets", "cache", frozenset({"inference"}), frozenset({"gpu"})),
    ("facets", "kernel fusion", frozenset({"compilers", "kernels"}), frozenset({"nvidia-gpu"})),
)


def word_stage(text: str) -> str:
    """How far the last word is typed: the property that decides prefix cost."""
    if not text.strip():
        return "empty"
    if text[-1].isspace() or text.endswith(('"', "~")):
        return "complete"
    last = text.split()[-1].split(":")[-1].lstrip('"')
    return "prefix-1-2" if len(last) <= 2 else "prefix-3+"


def typed_requests(limit: int = 20) -> list[TypedRequest]:
    """Every keystroke of every script, in typing order (an engine may use the order)."""
    result = []
    for kind, text, topics, hardware in SCRIPTS:
        prefixes = [text[:end] for end in range(1, len(text) + 1)] or [""]
        for prefix in prefixes:
            request = SearchRequest(
                query=prefix, topics=topics, hardware=hardware, limit=limit, as_you_type=True
            )
            result.append(TypedRequest(kind, word_stage(prefix), request))
    return result
