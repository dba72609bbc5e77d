"""The facet vocabulary (topics and hardware) and the evidence rules behind each value.

The vocabulary is data, not code: `assets/taxonomy.toml` gives every value a label, a
one-line description and the phrases that signal it, and a user can override or extend it
with more TOML files. Loading validates everything up front, so a typo in a user's file is
reported once, as `path:line: message`, instead of surfacing later as a wrong label.

A value's table (`[topic.ID]` or `[hardware.ID]`) may hold:
    label, description: what the UI shows (both required for a new value).
    parent: the broader value this one implies (the hardware hierarchy).
    aliases: names a source may use for the value (BibTeX keywords, JSON topics).
    signals: case-insensitive regexes, each enough on its own.
    cased: case-sensitive regexes, each enough on its own ("TPU", "ARM").
    weak: case-insensitive regexes worth half a signal: two are needed, matching different
        words (two rules that both match the same phrase count once).
    venue: regexes matched against the venue, worth half a signal.
    models, models_cased: names that are a signal only where one of `context` occurs in
        the same paper (case-insensitive and case-sensitive): a hardware model's name
        ("A10", "K40", "T4") is also a dopamine cell group, a statute or a road.
    context: case-insensitive regexes; one of them anywhere in the title or abstract makes
        the value's `models` count.
    not, not_cased: hard negatives; a signal inside one of their matches does not count.
    extend: when true (in an override), the lists above are appended, not replaced.
Every regex is matched at word boundaries: it must start and end on a word edge.

There is no fallback: a paper none of the rules fire on gets no topic. The `hints` lists
and the `fallback_topic` setting that once steered a guessed topic are refused with a
message saying so, rather than silently ignored, so a user's file that still has them is
noticed and cleaned.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from index.assets import assets_dir, bundled_taxonomy
from index.facets.rules import compile_rule

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "FACETS",
    "FacetValue",
    "Taxonomy",
    "TaxonomyError",
    "arxiv_category_name",
    "load_taxonomy",
]

FACETS = ("topic", "hardware")
RULE_LISTS = (
    "aliases",
    "signals",
    "cased",
    "weak",
    "venue",
    "models",
    "models_cased",
    "context",
    "not",
    "not_cased",
)
_TEXT_KEYS = ("label", "description", "parent")
_KNOWN_KEYS = frozenset((*_TEXT_KEYS, *RULE_LISTS, "extend"))
_ID_RE = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")
# Keys older taxonomies used for the guessed topic, which no longer exists.
_REMOVED = {
    "hints": "'hints' is no longer used (a paper with no evidence gets no topic); "
    "move a pattern that is real evidence to 'weak', or delete the list",
    "fallback_topic": "'fallback_topic' is no longer used: a paper with no evidence "
    "gets no topic; delete the setting",
}
# Bump when the tagger reads the same rules differently, so stored labels are rebuilt.
# 2: no guessed topic for a paper without evidence; a phrase two weak rules match counts once.
# 3: `models` count only with their value's `context` in the same paper.
MATCHING_VERSION = 3


class TaxonomyError(ValueError):
    """A taxonomy file that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class FacetValue:
    """One value of a facet, with the evidence rules that give it to a paper.

    The rule tuples hold regex source text; `index.facets.tagger` compiles them once per taxonomy.
    """

    facet: str  # "topic" or "hardware"
    id: str  # stable id used in filters and the index, e.g. "nvidia-gpu"
    label: str  # what the UI shows, e.g. "NVIDIA GPU"
    description: str = ""  # one line: what belongs under this value
    parent: str | None = None  # the broader value this one implies
    aliases: tuple[str, ...] = ()  # names a source may use (keywords, JSON topics)
    signals: tuple[str, ...] = ()  # case-insensitive, each sufficient
    cased: tuple[str, ...] = ()  # case-sensitive, each sufficient
    weak: tuple[str, ...] = ()  # case-insensitive, half weight each
    venue: tuple[str, ...] = ()  # matched against the venue, half weight
    models: tuple[str, ...] = ()  # case-insensitive, sufficient only with `context`
    models_cased: tuple[str, ...] = ()  # case-sensitive, sufficient only with `context`
    context: tuple[str, ...] = ()  # case-insensitive: what makes `models` count
    not_: tuple[str, ...] = ()  # hard negatives (case-insensitive)
    not_cased: tuple[str, ...] = ()  # hard negatives (case-sensitive)


@dataclass(frozen=True)
class Taxonomy:
    """The effective vocabulary: bundled values, then each user file's changes, in order.

    Attributes:
        topics: topic values in display order.
        hardware: hardware values in display order (parents before their leaves).
        files: the files it was read from, for messages and the index's rebuild check.
    """

    topics: tuple[FacetValue, ...] = ()
    hardware: tuple[FacetValue, ...] = ()
    files: tuple[str, ...] = ()

    def values(self, facet: str) -> tuple[FacetValue, ...]:
        """The values of one facet ("topic" or "hardware"), in taxonomy order."""
        if facet not in FACETS:
            raise KeyError(facet)
        return self.topics if facet == "topic" else self.hardware

    def value(self, facet: str, value_id: str) -> FacetValue:
        """The value with this id; KeyError when the taxonomy has no such value."""
        for value in self.values(facet):
            if value.id == value_id:
                return value
        raise KeyError(f"{facet}.{value_id}")

    def label(self, facet: str, value_id: str) -> str:
        """The human label, or the id itself for a value this taxonomy does not know."""
        try:
            return self.value(facet, value_id).label
        except KeyError:
            return value_id

    def _find(self, value_id: str, facet: str | None) -> FacetValue | None:
        for name in (facet,) if facet else FACETS:
            for value in self.values(name):
                if value.id == value_id:
                    return value
        return None

    def parent(self, value_id: str, facet: str | None = None) -> str | None:
        """The value's parent id, or None for a top-level or unknown value."""
        value = self._find(value_id, facet)
        return value.parent if value else None

    def children(self, value_id: str, facet: str | None = None) -> tuple[str, ...]:
        """The ids whose parent is this value, in taxonomy order."""
        facets = (facet,) if facet else FACETS
        return tuple(v.id for f in facets for v in self.values(f) if v.parent == value_id)

    def ancestors(self, value_id: str, facet: str | None = None) -> tuple[str, ...]:
        """Parent, grandparent, ...: every value a label on `value_id` implies."""
        chain: list[str] = []
        parent = self.parent(value_id, facet)
        while parent is not None and parent not in chain:
            chain.append(parent)
            parent = self.parent(parent, facet)
        return tuple(chain)

    def implied_by(self) -> dict[str, tuple[str, ...]]:
        """Value id -> itself and every id below it: what `hw:gpu` must match.

        The inverse of `ancestors`, for every value of both facets, from the same parent
        links (a loop in a user's taxonomy is rejected when it is read).
        """
        below: dict[str, list[str]] = {}
        for facet in FACETS:
            for value in self.values(facet):
                below.setdefault(value.id, [value.id])
                for ancestor in self.ancestors(value.id, facet):
                    below.setdefault(ancestor, [ancestor]).append(value.id)
        return {value_id: tuple(dict.fromkeys(ids)) for value_id, ids in below.items()}

    @cached_property
    def fingerprint(self) -> str:
        """A hash of the effective content: equal rules give equal fingerprints.

        The search index stores it to know when its labels are stale; file paths are left
        out so the same rules read from another place do not force a rebuild.
        """
        content = {
            "matching": MATCHING_VERSION,
            "topics": [asdict(v) for v in self.topics],
            "hardware": [asdict(v) for v in self.hardware],
        }
        blob = json.dumps(content, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.sha256(blob).hexdigest()[:16]


def load_taxonomy(extra_files: Sequence[Path] = ()) -> Taxonomy:
    """Load the bundled taxonomy, then apply each extra file in order.

    An extra file may change any key of an existing value (lists are replaced unless the
    table says `extend = true`) or add new values, which then need a label and description.

    Raises:
        TaxonomyError: a file is missing, is not TOML, or names an unknown parent, holds a
            bad regex or a wrong type; the message starts with `path:line:`.
    """
    values: dict[str, dict[str, dict[str, Any]]] = {facet: {} for facet in FACETS}
    where: dict[tuple[str, str], tuple[str, str]] = {}  # (facet, id) -> (path, text)
    files = [bundled_taxonomy(), *(Path(p) for p in extra_files)]
    for position, path in enumerate(files):
        # The bundled file's ~400 regexes are checked by the tests, not at every start:
        # compiling them twice each took ~30 ms of the app's 0.5 s start-up budget.
        check_patterns = position > 0
        text, data = _read(path)
        label = str(path)
        for key, table in data.items():
            if key == "settings":  # no setting is known today; kept for the message
                if not isinstance(table, dict):
                    raise _error(label, text, None, key, "[settings] must be a table")
                for name in table:
                    raise _error(
                        label, text, None, name, _REMOVED.get(name, f"unknown setting {name!r}")
                    )
                continue
            if key not in FACETS or not isinstance(table, dict):
                raise _error(
                    label,
                    text,
                    None,
                    key,
                    f"unknown table [{key}]; expected [topic.ID], [hardware.ID] or [settings]",
                )
            for value_id, fields in table.items():
                _merge(values[key], key, value_id, fields, label, text, check_patterns)
                where[(key, value_id)] = (label, text)
    built = {f: tuple(_build(f, i, d, where[(f, i)]) for i, d in values[f].items()) for f in FACETS}
    _check_parents(built, where)
    return Taxonomy(
        topics=built["topic"], hardware=built["hardware"], files=tuple(str(p) for p in files)
    )


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    """The file's text and parsed TOML, or a TaxonomyError naming the syntax error's line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise TaxonomyError(f"{path}: cannot read the taxonomy file: {reason}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)", message)
        line = getattr(exc, "lineno", None) or (int(found.group(1)) if found else None)
        if found:
            message = message[: found.start()] + message[found.end() :]
        where = f"{path}:{line}" if line else str(path)
        raise TaxonomyError(f"{where}: TOML syntax error: {message.strip()}") from None


def _merge(
    known: dict[str, dict[str, Any]],
    facet: str,
    value_id: str,
    fields: Any,
    path: str,
    text: str,
    check_patterns: bool = True,
) -> None:
    """Fold one value table into the values read so far, checking every key's type.

    With `check_patterns`, every regex is compiled too, so a bad one is reported here with
    its file and line rather than at the first paper it would tag.
    """
    if not isinstance(fields, dict):
        raise _error(path, text, facet, value_id, f"{facet}.{value_id} must be a table")
    if not _ID_RE.match(value_id):
        raise _error(
            path,
            text,
            facet,
            value_id,
            f"bad id {value_id!r}: use lowercase letters, digits, '.', '_', '-'",
        )
    current = known.setdefault(value_id, {})
    extend = fields.get("extend", False)
    if not isinstance(extend, bool):
        raise _error(path, text, facet, value_id, "'extend' must be true or false")
    for key, item in fields.items():

        def fail(message: str, key: str = key, needle: str | None = None) -> TaxonomyError:
            return _error(path, text, facet, value_id, message, key=key, needle=needle)

        if key in _REMOVED:
            raise fail(f"{facet}.{value_id}: {_REMOVED[key]}")
        if key not in _KNOWN_KEYS:
            raise fail(f"unknown key {key!r} in {facet}.{value_id}")
        if key == "extend":
            continue
        if key in _TEXT_KEYS:
            if not isinstance(item, str) or (key != "description" and not item.strip()):
                raise fail(f"{facet}.{value_id}.{key} must be a non-empty string")
            if "\n" in item.strip():
                raise fail(f"{facet}.{value_id}.{key} must be one line")
            current[key] = item.strip()
            continue
        if not isinstance(item, list) or not all(isinstance(s, str) and s for s in item):
            raise fail(f"{facet}.{value_id}.{key} must be a list of strings")
        if key != "aliases" and check_patterns:
            for pattern in item:
                try:
                    compile_rule(pattern, cased=key in ("cased", "models_cased", "not_cased"))
                except re.error as exc:
                    raise fail(
                        f"bad regex {pattern!r} in {facet}.{value_id}.{key}: {exc}", needle=pattern
                    ) from None
                if re.fullmatch(pattern, ""):  # it would fire at every word of every paper
                    raise fail(
                        f"regex {pattern!r} in {facet}.{value_id}.{key} matches empty text",
                        needle=pattern,
                    )
        current[key] = [*current.get(key, []), *item] if extend else list(item)


def _build(facet: str, value_id: str, data: dict[str, Any], at: tuple[str, str]) -> FacetValue:
    for key in ("label", "description"):
        if key not in data:
            raise _error(
                at[0], at[1], facet, value_id, f"new value {facet}.{value_id} needs a {key}"
            )
    lists = {("not_" if key == "not" else key): tuple(data.get(key, ())) for key in RULE_LISTS}
    return FacetValue(
        facet=facet,
        id=value_id,
        label=data["label"],
        description=data["description"],
        parent=data.get("parent"),
        **lists,
    )


def _check_parents(
    built: dict[str, tuple[FacetValue, ...]], where: dict[tuple[str, str], tuple[str, str]]
) -> None:
    """Every parent must be a value of the same facet, and the hierarchy must not loop."""
    for facet, values in built.items():
        parents = {v.id: v.parent for v in values}
        for value in values:
            if value.parent is None:
                continue
            path, text = where[(facet, value.id)]
            if value.parent not in parents:
                raise _error(
                    path,
                    text,
                    facet,
                    value.id,
                    f"unknown parent {value.parent!r} for {facet}.{value.id}",
                    key="parent",
                )
            seen: set[str] = {value.id}
            node: str | None = value.parent
            while node is not None:
                if node in seen:
                    raise _error(
                        path,
                        text,
                        facet,
                        value.id,
                        f"{facet}.{value.id}: parents form a loop",
                        key="parent",
                    )
                seen.add(node)
                node = parents.get(node)


def _error(
    path: str,
    text: str,
    facet: str | None,
    name: str,
    message: str,
    key: str | None = None,
    needle: str | None = None,
) -> TaxonomyError:
    """A TaxonomyError pointing at the table (and key, when given) the message is about.

    tomllib does not report positions for valid TOML, so the line is found by scanning the
    text for the table header and then the key; when neither is found the file alone is named.
    """
    line = _locate(text, facet, name, key) if text else None
    if line and needle:  # a list item: the line that holds it, within the same table
        for number, content in enumerate(text.splitlines()[line - 1 :], line):
            if number > line and content.lstrip().startswith("["):
                break
            if needle in content:
                line = number
                break
    where = f"{path}:{line}" if line else path
    return TaxonomyError(f"{where}: {message}")


def _locate(text: str, facet: str | None, name: str, key: str | None) -> int | None:
    lines = text.splitlines()
    if facet is None:  # a top-level table or key
        pattern = re.compile(rf"\s*(\[\s*{re.escape(name)}\s*[\].]|{re.escape(name)}\s*=)")
        return next((n for n, ln in enumerate(lines, 1) if pattern.match(ln)), None)
    header = re.compile(rf"\s*\[\s*{facet}\s*\.\s*[\"']?{re.escape(name)}[\"']?\s*\]")
    start = next((n for n, ln in enumerate(lines, 1) if header.match(ln)), None)
    if start is None or key is None:
        return start
    key_re = re.compile(rf"\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for number in range(start + 1, len(lines) + 1):
        if lines[number - 1].lstrip().startswith("["):
            break
        if key_re.match(lines[number - 1]):
            return number
    return start


def arxiv_category_name(category_id: str) -> str | None:
    """The name arXiv gives a category id (`hep-ph`: "High Energy Physics - Phenomenology").

    Retired ids that older papers still carry (`solv-int`, `astro-ph`) are named too.
    Ids are compared exactly, as arXiv spells them (`math.CO` and `cs.CO` differ only in
    case and the second does not exist); None for an id arXiv does not know.
    """
    return _arxiv_categories().get(category_id.strip())


@cache
def _arxiv_categories() -> dict[str, str]:
    # Read on first use, not at import: most sessions never show a category, and the app's
    # start-up budget is tight. `assets/arxiv_categories.toml` says where the table is from.
    with open(assets_dir() / "arxiv_categories.toml", "rb") as handle:
        data = tomllib.load(handle)
    names = {key: entry["name"] for key, entry in data["retired"].items()}
    names.update(data["categories"])
    return names
