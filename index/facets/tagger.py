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
from operator import itemgetter

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


class _Matcher:
    """Everything `tag_paper` needs, compiled once per taxonomy.

    A paper's work is driven by what it holds, not by the taxonomy's size: one scan finds
    the anchors, a dict lookup per anchor gives the rules they start, and only the values
    owning one of those rules (or matching the venue) are scored, in taxonomy order.
    """

    def __init__(self, taxonomy: Taxonomy) -> None:
        self.taxonomy = taxonomy
        self.values: list[tuple[str, _ValueRules]] = []  # (facet, rules), facet by facet
        self.names: dict[str, tuple[str, str]] = {}  # normalised alias -> (facet, id)
        for facet in FACETS:
            for value in taxonomy.values(facet):
                self.values.append((facet, self._compile(value)))
                for name in (value.id, value.label, *value.aliases):
                    self.names.setdefault(normalise_name(name), (facet, value.id))
        self.anchorless: list[Rule] = []  # rules with no known anchor: gated by `contains`
        # A signal, weak rule or model -> (its value's index, its place among the value's
        # rules, its weight; None for a model, which counts only with its context).
        self.roles: dict[Rule, tuple[int, int, float | None]] = {}
        by_anchor: dict[str, list[Rule]] = {}
        for index, (_, rules) in enumerate(self.values):
            weighted: list[tuple[Rule, float | None]] = [*rules.weighted]
            for place, (rule, weight) in enumerate([*weighted, *((r, None) for r in rules.models)]):
                self.roles[rule] = (index, place, weight)
            # Not the context rules: they run only where a model name matched, and
            # their frequent words ("hardware", "servers") would slow every paper's scan.
            for rule in (*(r for r, _ in rules.weighted), *rules.models, *rules.negatives):
                if not rule.anchors:
                    self.anchorless.append(rule)
                for anchor in rule.anchors:
                    if rule not in by_anchor.setdefault(anchor, []):
                        by_anchor[anchor].append(rule)
        # anchor -> the rules it starts
        self.by_anchor = {anchor: tuple(rules) for anchor, rules in by_anchor.items()}
        self.gated = frozenset(r for rules in by_anchor.values() for r in rules if r.contains)
        self.scanner = AnchorScanner(self.by_anchor)
        self.order = {f: {v.id: n for n, v in enumerate(taxonomy.values(f))} for f in FACETS}
        self.ancestors = {
            f: {v.id: taxonomy.ancestors(v.id, f) for v in taxonomy.values(f)} for f in FACETS
        }
        self.venues = _Venues(self.values)

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
        return rules

    def candidates(self, doc: Text) -> set[Rule]:
        """The rules that can match: one of their anchors starts a word of the text.

        One regex pass (`Text.scan`) finds every anchor at once, and leaves their
        positions in `doc` for the rules to use; a rule none of whose anchors occurs
        cannot match, so this is exact, not a guess.
        """
        low = doc.low
        found = set().union(*map(self.by_anchor.__getitem__, doc.scan(self.scanner)))
        # a rule whose other required text is missing cannot match either (one `in` each)
        absent: dict[str, bool] = {}  # many rules need the same text ("cpu")
        for rule in found & self.gated:
            for text in rule.contains:
                missing = absent.get(text)
                if missing is None:
                    missing = absent[text] = text not in low
                if missing:
                    found.discard(rule)
                    break
        found.update(r for r in self.anchorless if all(c in low for c in r.contains))
        return found

    def evidence(self, doc: Text, venue: str) -> list[tuple[str, _Evidence]]:
        """What each value with any evidence scored, as (facet, evidence), in taxonomy order.

        The candidate rules are run first; only a value one of them matched (or whose
        venue rules match) is scored, most candidates matching nowhere.
        """
        candidates = self.candidates(doc)
        roles = self.roles
        matched: dict[int, list[tuple[int, Rule, float | None, list[re.Match[str]]]]] = {}
        for rule in candidates:
            role = roles.get(rule)
            if role is not None:
                found = rule.matches(doc)
                if found:
                    matched.setdefault(role[0], []).append((role[1], rule, role[2], found))
        venue_phrases = self.venues.phrases(venue) if venue else {}
        found_evidence = []
        for index in sorted(matched.keys() | venue_phrases.keys() if venue_phrases else matched):
            facet, rules = self.values[index]
            hits = sorted(matched.get(index, ()), key=itemgetter(0))  # in the value's own order
            evidence = _score(rules, doc, candidates, hits, venue_phrases.get(index, ()))
            if evidence.phrases:
                found_evidence.append((facet, evidence))
        return found_evidence


class _Venues:
    """The venue rules' phrases for each venue string, computed once per distinct venue.

    A library has far fewer venues than papers ("NeurIPS 2023" on hundreds of them), and
    every value's venue rules would otherwise run on every paper that has one.
    """

    _MOST = 4096  # distinct venues remembered; then the memory starts afresh

    def __init__(self, values: list[tuple[str, _ValueRules]]) -> None:
        self._rules = [(n, rules.venue) for n, (_, rules) in enumerate(values) if rules.venue]
        self._seen: dict[str, dict[int, list[str]]] = {}

    def phrases(self, venue: str) -> dict[int, list[str]]:
        """Value index -> one `venue ...` phrase per venue rule of that value that matches."""
        found = self._seen.get(venue)
        if found is None:
            doc, found = Text(venue), {}
            for index, rules in self._rules:
                for rule in rules:
                    hits = rule.found(doc, [], limit=1)
                    if hits:
                        found.setdefault(index, []).append(f"venue {hits[0]}")
            if len(self._seen) >= self._MOST:
                self._seen = {}
            self._seen[venue] = found
        return found


def _score(
    rules: _ValueRules,
    doc: Text,
    candidates: set[Rule],
    matched: list[tuple[int, Rule, float | None, list[re.Match[str]]]],
    venue: Iterable[str],
) -> _Evidence:
    """One value's evidence: its signals and weak rules, then its models, then its venue.

    `matched`: the value's rules that matched, in the value's order (signals and weak
    rules, then models), each with its weight (None: a model) and its matches. A hard
    negative's spans are found only once a rule of the value has matched.
    """
    evidence = _Evidence(rules.value.id)
    negated = _negated(rules, doc, candidates) if matched else []
    named: list[str] = []
    for _, rule, weight, matches in matched:
        hits = rule.phrases(doc, matches, negated)
        if weight is None:
            named += hits
        elif hits:
            evidence.add(hits, weight)
    if named:
        context = _context(rules, doc)
        if context:
            evidence.add(named, STRONG)
            evidence.context = context
    for phrase in venue:
        evidence.add([phrase], WEAK)
    return evidence


def _negated(rules: _ValueRules, doc: Text, candidates: set[Rule]) -> list[tuple[int, int]]:
    """Where the value's hard negatives match (those not candidates match nowhere)."""
    return [span for rule in rules.negatives if rule in candidates for span in rule.spans(doc)]


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
    if not text.isascii():  # (a constant-time check) every character translated is not
        text = text.translate(_SAME_LENGTH)
    if "://" not in text and "www." not in text:  # every link holds one of them
        return text
    return _URL_RE.sub(lambda m: " " * len(m.group()), text)


def _quote(phrase: str) -> str:
    if phrase.startswith("venue "):
        return f'venue "{phrase[6:]}"'
    return f'"{" ".join(phrase.split())}"'


def _source_reasons(matcher: _Matcher, paper: Paper) -> dict[str, dict[str, list[str]]]:
    """Labels the source gave: earlier `from the source` labels and mappable keywords."""
    given: dict[str, dict[str, list[str]]] = {facet: {} for facet in FACETS}
    if not (paper.topics or paper.hardware or paper.keywords):
        return given
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
    return {
        facet: {key: list(dict.fromkeys(found)) for key, found in reasons.items()}
        for facet, reasons in given.items()
    }


def _labels(matcher: _Matcher, facet: str, reasons: dict[str, list[str]]) -> tuple[Label, ...]:
    """The facet's labels in taxonomy order, each leaf's ancestors added (`implied by`)."""
    if not reasons:
        return ()
    ancestors = matcher.ancestors[facet]
    for value_id in list(reasons):
        for ancestor in ancestors.get(value_id, ()):
            reasons.setdefault(ancestor, [f"implied by {value_id}"])
    order = matcher.order[facet]
    return tuple(
        Label(value_id, "; ".join(reasons[value_id]))
        for value_id in sorted(reasons, key=order.__getitem__)
    )


def tag_paper(paper: Paper, taxonomy: Taxonomy) -> Paper:
    """A copy of the paper with `topics` and `hardware` set, each label with its reason.

    Reads the title and abstract (links removed) and the venue. A facet with no evidence
    stays empty: no topic is guessed. Hardware labels include every ancestor of a leaf
    (`implied by nvidia-gpu`). Labels come in taxonomy order.
    Deterministic, and idempotent: tagging a tagged paper gives the same labels.
    """
    matcher = _matcher(taxonomy)
    doc = Text(_prose(f"{paper.title}\n{paper.abstract}"))
    reasons = _source_reasons(matcher, paper)
    for facet, evidence in matcher.evidence(doc, paper.venue or ""):
        if evidence.score >= STRONG:
            reasons[facet].setdefault(evidence.value_id, []).append(evidence.reason())
    return replace(
        paper,
        topics=_labels(matcher, "topic", reasons["topic"]),
        hardware=_labels(matcher, "hardware", reasons["hardware"]),
    )


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
