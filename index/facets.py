"""Gives papers their topic and hardware labels, each with the reason it was given.

A wrong label is worse than none, so a value is given only on real evidence: one signal
phrase, or two different weaker ones, outside the value's hard negatives. Labels the source
already carried (BibTeX keywords, JSON topics) are kept next to the derived ones. Every
paper still gets a topic: when nothing fires, the best guess is given and its reason says
it is a guess.

Speed matters (the benchmarks tag 100,000 papers), so each regex is compiled once per
taxonomy, case-insensitive rules run on a lowercased copy (which keeps `re`'s fast literal
prefix search), and a rule runs only when its leading literal text occurs in the paper.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from index.facet_rules import Rule, compile_rule, normalise_name
from index.models import Label, Paper, replace
from index.taxonomy import FACETS, FacetValue, Taxonomy

__all__ = ["tag_paper", "tag_papers", "explain"]

STRONG, WEAK, HINT = 1.0, 0.5, 0.25
_URL_RE = re.compile(r"(?:https?://|www\.)\S+")
_SAME_LENGTH = str.maketrans({**{c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"},
                              "\u00a0": " ", "\u2009": " ", "\u202f": " "})
_WORD_RE = re.compile(r"[a-z][a-z-]{3,}")
_STOPWORDS = frozenset(
    "also and any been both each from have into more most other over such than that "
    "their them then these they this those under used uses using very what when which "
    "with within without work works".split()
)
_SOURCE = "from the source"


@dataclass
class _ValueRules:
    """One value's compiled rules, by how much a match counts."""

    value: FacetValue
    weighted: list[tuple[Rule, float]] = field(default_factory=list)
    negatives: list[Rule] = field(default_factory=list)
    venue: list[Rule] = field(default_factory=list)


class _Matcher:
    """Everything `tag_paper` needs, compiled once per taxonomy."""

    def __init__(self, taxonomy: Taxonomy) -> None:
        self.taxonomy = taxonomy
        self.rules: dict[str, list[_ValueRules]] = {}
        self.names: dict[str, tuple[str, str]] = {}  # normalised alias -> (facet, id)
        for facet in FACETS:
            built = []
            for value in taxonomy.values(facet):
                rules = _ValueRules(value)
                for patterns, cased, weight in (
                    (value.signals, False, STRONG), (value.cased, True, STRONG),
                    (value.weak, False, WEAK), (value.hints, False, HINT),
                ):
                    rules.weighted += [(compile_rule(p, cased), weight) for p in patterns]
                rules.negatives = [compile_rule(p, False) for p in value.not_]
                rules.negatives += [compile_rule(p, True) for p in value.not_cased]
                rules.venue = [compile_rule(p, False) for p in value.venue]
                built.append(rules)
                for name in (value.id, value.label, *value.aliases):
                    self.names.setdefault(normalise_name(name), (facet, value.id))
            self.rules[facet] = built
        words = {}
        for value in taxonomy.topics:
            found = _WORD_RE.findall(f"{value.label} {value.description}".lower())
            words[value.id] = {w for w in found if w not in _STOPWORDS}
        self.topic_words = words

    def evidence(self, facet: str, text: str, low: str, venue: str) -> list[_Evidence]:
        """What each value with any evidence scored, in taxonomy order."""
        found = []
        for rules in self.rules[facet]:
            negated: list[tuple[int, int]] | None = None
            evidence = _Evidence(rules.value.id)
            for rule, weight in rules.weighted:
                if not rule.may_match(low):
                    continue
                if negated is None:
                    negated = [s for n in rules.negatives if n.may_match(low)
                               for s in n.spans(text, low)]
                hit = rule.first(text, low, negated)
                if hit is not None:
                    evidence.add(hit, weight)
            for rule in rules.venue if venue else ():
                hit = rule.first(venue, venue.lower(), [])
                if hit is not None:
                    evidence.add(f"venue {hit}", WEAK)
            if evidence.phrases:
                found.append(evidence)
        return found


@dataclass
class _Evidence:
    """The phrases found for one value and what they add up to."""

    value_id: str
    score: float = 0.0  # signals and weak signals: a label needs STRONG
    guess: float = 0.0  # everything, hints included: only ranks the fallback guess
    phrases: list[tuple[str, float]] = field(default_factory=list)

    def add(self, phrase: str, weight: float) -> None:
        self.phrases.append((phrase, weight))
        self.guess += weight
        if weight > HINT:
            self.score += weight

    def reason(self) -> str:
        strong = [p for p, w in self.phrases if w == STRONG]
        if strong:
            return "matched " + ", ".join(_quote(p) for p in strong[:3])
        weak = [p for p, w in self.phrases if w == WEAK]
        return "matched " + " and ".join(_quote(p) for p in weak[:3]) + " (weaker signals together)"


def _matcher(taxonomy: Taxonomy) -> _Matcher:
    # Cached on the (frozen) taxonomy itself, the way functools.cached_property does.
    matcher = taxonomy.__dict__.get("_matcher")
    if matcher is None:
        matcher = _Matcher(taxonomy)
        taxonomy.__dict__["_matcher"] = matcher
    return matcher


def _prose(text: str) -> str:
    """The text with links blanked (a vendor in a URL is not a claim) and dashes unified.

    Both keep every character's position, so matches can be shown from the original case.
    """
    text = text.translate(_SAME_LENGTH)
    return _URL_RE.sub(lambda m: " " * len(m.group()), text)


def _lowered(text: str) -> str:
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _quote(phrase: str) -> str:
    if phrase.startswith("venue "):
        return f'venue "{phrase[6:]}"'
    return f'"{" ".join(phrase.split())}"'


def _best_guess(matcher: _Matcher, found: list[_Evidence], low: str) -> Label:
    """The one topic for a paper no rule labelled, with a reason that says it is a guess."""
    if found:
        best = max(found, key=lambda item: item.guess)  # max keeps the first in taxonomy order
        phrases = ", ".join(_quote(p) for p, _ in best.phrases[:3])
        return Label(best.value_id, f"best guess: no clear signal; weaker evidence {phrases}")
    words = set(_WORD_RE.findall(low))
    overlap = [(len(words & w), sorted(words & w), tid) for tid, w in matcher.topic_words.items()]
    count, shared, topic = max(overlap, key=lambda item: item[0], default=(0, [], ""))
    if count:
        quoted = ", ".join(f'"{w}"' for w in shared[:3])
        return Label(topic, f"best guess: no signal phrase; shares {quoted} with its description")
    fallback = matcher.taxonomy.fallback_topic or matcher.taxonomy.topics[0].id
    return Label(fallback, "no evidence in the text; the taxonomy's fallback topic")


def _source_reasons(matcher: _Matcher, paper: Paper) -> dict[str, dict[str, list[str]]]:
    """Labels the source gave: earlier `from the source` labels and mappable keywords."""
    given: dict[str, dict[str, list[str]]] = {facet: {} for facet in FACETS}
    for facet, labels in (("topic", paper.topics), ("hardware", paper.hardware)):
        for label in labels:
            parts = [p for p in label.reason.split("; ") if p.startswith(_SOURCE)]
            target = matcher.names.get(normalise_name(label.value))
            if parts and target and target[0] == facet:
                given[facet].setdefault(target[1], []).extend(parts)
    for keyword in paper.keywords:
        target = matcher.names.get(normalise_name(keyword))
        if target:
            given[target[0]].setdefault(target[1], []).append(f'{_SOURCE} (keyword "{keyword}")')
    return given


def tag_paper(paper: Paper, taxonomy: Taxonomy) -> Paper:
    """A copy of the paper with `topics` and `hardware` set, each label with its reason.

    Reads the title and abstract (links removed) and the venue. Hardware labels include
    every ancestor of a leaf (`implied by nvidia-gpu`). Labels come in taxonomy order.
    Deterministic, and idempotent: tagging a tagged paper gives the same labels.
    """
    matcher = _matcher(taxonomy)
    text = _prose(f"{paper.title}\n{paper.abstract}")
    low = _lowered(text)
    venue = paper.venue or ""
    given = _source_reasons(matcher, paper)
    result: dict[str, tuple[Label, ...]] = {}
    for facet in FACETS:
        reasons: dict[str, list[str]] = {k: list(dict.fromkeys(v)) for k, v in given[facet].items()}
        found = matcher.evidence(facet, text, low, venue)
        for evidence in found:
            if evidence.score >= STRONG:
                reasons.setdefault(evidence.value_id, []).append(evidence.reason())
        if facet == "topic" and not reasons:
            guess = _best_guess(matcher, found, low)
            reasons[guess.value] = [guess.reason]
        for value_id in list(reasons):
            for ancestor in taxonomy.ancestors(value_id, facet):
                reasons.setdefault(ancestor, [f"implied by {value_id}"])
        order = [v.id for v in taxonomy.values(facet)]
        result[facet] = tuple(
            Label(value_id, "; ".join(reasons[value_id])) for value_id in order if value_id in reasons
        )
    return replace(paper, topics=result["topic"], hardware=result["hardware"])


def tag_papers(papers: Iterable[Paper], taxonomy: Taxonomy) -> tuple[Paper, ...]:
    """Tag many papers with one compiled taxonomy."""
    return tuple(tag_paper(paper, taxonomy) for paper in papers)


def explain(paper: Paper) -> list[str]:
    """One line per label, `topic training: matched "pipeline parallel"`, for `show`."""
    return [f"{facet} {label.value}: {label.reason}"
            for facet, labels in (("topic", paper.topics), ("hardware", paper.hardware))
            for label in labels]
