"""Gives papers their topic and hardware labels, each with the reason it was given.

A wrong label is worse than none, so a value is given only on real evidence: one signal
phrase, or two different weaker ones, outside the value's hard negatives. Labels the source
already carried (BibTeX keywords, JSON topics) are kept next to the derived ones. A paper
with no evidence gets no topic at all (`topics == ()`): users bring libraries of physics,
biology or music papers, and a topic guessed from one shared word ("training", "model")
labelled most of such a library with an ML-systems topic it has nothing to do with.

Speed matters (the benchmarks tag 100,000 papers), so the rules are compiled once per
taxonomy, one regex pass finds where every rule's leading literal text (its anchor) occurs,
and a rule is tried only there (see `index.facets.rules`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

from index.facets.rules import AnchorScanner, Rule, Text, compile_rule, normalise_name
from index.facets.taxonomy import FACETS, FacetValue, Taxonomy
from index.models import Label, Paper, replace

__all__ = ["explain", "tag_paper", "tag_papers"]

STRONG, WEAK = 1.0, 0.5
_URL_RE = re.compile(r"(?:https?://|www\.)\S+")
_SAME_LENGTH = str.maketrans(
    {**dict.fromkeys("‐‑‒–—―−", "-"), "\u00a0": " ", "\u2009": " ", "\u202f": " "}
)
_SOURCE = "from the source"


@dataclass
class _ValueRules:
    """One value's compiled rules, by how much a match counts."""

    value: FacetValue
    weighted: list[tuple[Rule, float]] = field(default_factory=list)  # signals, weak
    models: list[Rule] = field(default_factory=list)  # signals only with `context`
    context: list[Rule] = field(default_factory=list)
    negatives: list[Rule] = field(default_factory=list)
    venue: list[Rule] = field(default_factory=list)
    every: frozenset[Rule] = frozenset()  # the signals, weak rules and models, to skip fast


class _Matcher:
    """Everything `tag_paper` needs, compiled once per taxonomy."""

    def __init__(self, taxonomy: Taxonomy) -> None:
        self.taxonomy = taxonomy
        self.rules: dict[str, list[_ValueRules]] = {}
        self.names: dict[str, tuple[str, str]] = {}  # normalised alias -> (facet, id)
        for facet in FACETS:
            self.rules[facet] = [self._compile(value) for value in taxonomy.values(facet)]
            for value in taxonomy.values(facet):
                for name in (value.id, value.label, *value.aliases):
                    self.names.setdefault(normalise_name(name), (facet, value.id))
        self.by_anchor: dict[str, list[Rule]] = {}  # anchor -> the rules it starts
        self.anchorless: list[Rule] = []  # rules with no known anchor: gated by `contains`
        for facet_rules in self.rules.values():
            for rules in facet_rules:
                # Not the context rules: they run only where a model name matched, and
                # their frequent words ("hardware", "servers") would slow every paper's scan.
                for rule in (*(r for r, _ in rules.weighted), *rules.models, *rules.negatives):
                    self._index(rule)
        self.scanner = AnchorScanner(self.by_anchor)
        self.order = {f: tuple(v.id for v in taxonomy.values(f)) for f in FACETS}
        self.ancestors = {
            f: {v.id: taxonomy.ancestors(v.id, f) for v in taxonomy.values(f)} for f in FACETS
        }

    @staticmethod
    def _compile(value: FacetValue) -> _ValueRules:
        rules = _ValueRules(value)
        rules.weighted = [(compile_rule(p, False), STRONG) for p in value.signals]
        rules.weighted += [(compile_rule(p, True), STRONG) for p in value.cased]
        rules.weighted += [(compile_rule(p, False), WEAK) for p in value.weak]
        rules.models = [compile_rule(p, False) for p in value.models]
        rules.models += [compile_rule(p, True) for p in value.models_cased]
        rules.context = [compile_rule(p, False) for p in value.context]
        rules.negatives = [compile_rule(p, False) for p in value.not_]
        rules.negatives += [compile_rule(p, True) for p in value.not_cased]
        rules.venue = [compile_rule(p, False) for p in value.venue]
        rules.every = frozenset((*(rule for rule, _ in rules.weighted), *rules.models))
        return rules

    def _index(self, rule: Rule) -> None:
        """File the rule under each of its anchors, so a paper finds it from what it holds."""
        if not rule.anchors:
            self.anchorless.append(rule)
        for anchor in rule.anchors:
            if rule not in self.by_anchor.setdefault(anchor, []):
                self.by_anchor[anchor].append(rule)

    def candidates(self, doc: Text) -> set[Rule]:
        """The rules that can match: one of their anchors starts a word of the text.

        One regex pass (`Text.scan`) finds every anchor at once, and leaves their
        positions in `doc` for the rules to use; a rule none of whose anchors occurs
        cannot match, so this is exact, not a guess.
        """
        low = doc.low
        found = {r for r in self.anchorless if all(c in low for c in r.contains)}
        for anchor in doc.scan(self.scanner):
            found.update(self.by_anchor[anchor])
        # a rule whose other required text is missing cannot match either (one `in` each)
        return {r for r in found if not r.contains or all(c in low for c in r.contains)}

    def evidence(self, facet: str, doc: Text, venue: str, candidates: set[Rule]) -> list[_Evidence]:
        """What each value with any evidence scored, in taxonomy order."""
        found = []
        venue_doc = Text(venue) if venue else None  # one per paper: its anchors are cached
        for rules in self.rules[facet]:
            if not venue and rules.every.isdisjoint(candidates):
                continue
            evidence = _Evidence(rules.value.id)
            negated: list[tuple[int, int]] | None = None
            for rule, weight in rules.weighted:
                if rule not in candidates:
                    continue
                if negated is None:
                    negated = [s for n in rules.negatives if n in candidates for s in n.spans(doc)]
                hits = rule.found(doc, negated)
                if hits:
                    evidence.add(hits, weight)
            if rules.models and not candidates.isdisjoint(rules.models):
                if negated is None:
                    negated = [s for n in rules.negatives if n in candidates for s in n.spans(doc)]
                named = [h for r in rules.models if r in candidates for h in r.found(doc, negated)]
                context = _context(rules, doc) if named else None
                if named and context:
                    evidence.add(named, STRONG)
                    evidence.context = context
            for rule in rules.venue if venue_doc else ():
                hits = rule.found(venue_doc, [], limit=1)  # type: ignore[arg-type]
                if hits:
                    evidence.add([f"venue {hits[0]}"], WEAK)
            if evidence.phrases:
                found.append(evidence)
        return found


def _context(rules: _ValueRules, doc: Text) -> str | None:
    """The first of the value's context phrases the paper holds (None: the paper is about
    something else, and the model names it holds are some other thing's names).

    The rules are not in the anchor scan: `Text.positions` finds their anchors on demand.
    """
    for rule in rules.context:
        found = rule.found(doc, [], limit=1)
        if found:
            return found[0]
    return None


@dataclass
class _Evidence:
    """The phrases found for one value and what they add up to."""

    value_id: str
    score: float = 0.0  # signals and weak signals: a label needs STRONG
    phrases: list[tuple[str, float]] = field(default_factory=list)
    context: str | None = None  # what made a model name count (`_ValueRules.context`)

    def add(self, hits: list[str], weight: float) -> None:
        """One rule's matches: shown one by one, counted once.

        A rule whose every match another rule of this value already found adds nothing:
        two weak rules that both match "inference latency" are one piece of evidence.
        """
        seen = {phrase for phrase, _ in self.phrases}
        self.phrases += [(hit, weight) for hit in hits if (hit, weight) not in self.phrases]
        if any(hit not in seen for hit in hits):
            self.score += weight

    def reason(self) -> str:
        strong = list(dict.fromkeys(p for p, w in self.phrases if w == STRONG))
        if strong:
            said = "matched " + ", ".join(_quote(p) for p in strong[:3])
            return f"{said} (with {_quote(self.context)})" if self.context else said
        weak = list(dict.fromkeys(p for p, w in self.phrases if w == WEAK))
        together = " and ".join(_quote(p) for p in weak[:3])
        return f"matched {together} (weaker signals together)"


_RECENT_MATCHERS: dict[Taxonomy, _Matcher] = {}  # by value: the last few taxonomies compiled
_RECENT_LOCK = threading.Lock()  # a load's thread and a reload's may tag at once


def _matcher(taxonomy: Taxonomy) -> _Matcher:
    """The compiled rules of `taxonomy`, compiled once per distinct taxonomy.

    Cached on the (frozen) taxonomy itself, the way functools.cached_property does, so a
    paper's tagging never hashes the whole vocabulary. Behind that, a taxonomy equal to one
    compiled recently (the same files read again: a reload after an edit elsewhere, a
    command that reads the vocabulary afresh) reuses its matcher instead of compiling its
    ~400 rules again (~40 ms).
    """
    matcher = taxonomy.__dict__.get("_matcher")
    if matcher is None:
        with _RECENT_LOCK:
            matcher = _RECENT_MATCHERS.get(taxonomy)
            if matcher is None:
                matcher = _Matcher(taxonomy)
                if len(_RECENT_MATCHERS) >= 4:
                    del _RECENT_MATCHERS[next(iter(_RECENT_MATCHERS))]
                _RECENT_MATCHERS[taxonomy] = matcher
        taxonomy.__dict__["_matcher"] = matcher
    return matcher


def _prose(text: str) -> str:
    """The text with links blanked (a vendor in a URL is not a claim) and dashes unified.

    Both keep every character's position, so matches can be shown from the original case.
    """
    text = text.translate(_SAME_LENGTH)
    return _URL_RE.sub(lambda m: " " * len(m.group()), text)


def _quote(phrase: str) -> str:
    if phrase.startswith("venue "):
        return f'venue "{phrase[6:]}"'
    return f'"{" ".join(phrase.split())}"'


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

    Reads the title and abstract (links removed) and the venue. A facet with no evidence
    stays empty: no topic is guessed. Hardware labels include every ancestor of a leaf
    (`implied by nvidia-gpu`). Labels come in taxonomy order.
    Deterministic, and idempotent: tagging a tagged paper gives the same labels.
    """
    matcher = _matcher(taxonomy)
    doc = Text(_prose(f"{paper.title}\n{paper.abstract}"))
    venue = paper.venue or ""
    given = _source_reasons(matcher, paper)
    candidates = matcher.candidates(doc)
    result: dict[str, tuple[Label, ...]] = {}
    for facet in FACETS:
        reasons = {key: list(dict.fromkeys(found)) for key, found in given[facet].items()}
        for evidence in matcher.evidence(facet, doc, venue, candidates):
            if evidence.score >= STRONG:
                reasons.setdefault(evidence.value_id, []).append(evidence.reason())
        for value_id in list(reasons):
            for ancestor in matcher.ancestors[facet].get(value_id, ()):
                reasons.setdefault(ancestor, [f"implied by {value_id}"])
        result[facet] = tuple(
            Label(value_id, "; ".join(reasons[value_id]))
            for value_id in matcher.order[facet]
            if value_id in reasons
        )
    return replace(paper, topics=result["topic"], hardware=result["hardware"])


def tag_papers(papers: Iterable[Paper], taxonomy: Taxonomy) -> tuple[Paper, ...]:
    """Tag many papers with one compiled taxonomy."""
    return tuple(tag_paper(paper, taxonomy) for paper in papers)


def explain(paper: Paper) -> list[str]:
    """One line per label, `topic training: matched "pipeline parallel"`, for `show`."""
    return [
        f"{facet} {label.value}: {label.reason}"
        for facet, labels in (("topic", paper.topics), ("hardware", paper.hardware))
        for label in labels
    ]
