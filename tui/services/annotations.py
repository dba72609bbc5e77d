"""The user's own layer on the papers: tags and reading status, kept between sessions.

Stored in `<data dir>/annotations.json` as a list of records, each naming its paper by
every stable identity known for it (index.library.identity: DOI, arXiv id, citation key,
title and year), never by the generated paper id alone: a re-import that renames ids, or a
paper that gained a DOI since, still finds its tags. The file is written atomically after
every change under a lock, each change applied to the file as it is now, and a damaged one
is warned about and never overwritten (the machinery is `tui.services.stored_json`,
shared with saved searches, marks and history).

Nothing here knows about widgets: the app, the command line and tests use it alike, and the
search engine receives its contents as plain values (`layer`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from index.models import READING_STATUSES, Paper
from index.search.user_layer import normalize_status
from tui.services.stored_json import StoredJson

__all__ = ["DEFAULT_STATUS", "STATUSES", "Annotations", "normalize_status", "normalize_tag"]

STATUSES = READING_STATUSES
DEFAULT_STATUS = "unread"
_TAG_JUNK = re.compile(r"[\s,;]+")


def normalize_tag(text: str) -> str:
    """A tag as stored and searched: lower case, no spaces (`To Read` -> `to-read`).

    One spelling per tag keeps `tag:toread` and the facet agreeing with what was typed.
    """
    return _TAG_JUNK.sub("-", text.strip().lstrip("+#").strip()).strip("-").lower()


def _valid(data: Any) -> bool:
    if not isinstance(data, dict) or not isinstance(data.get("papers"), list):
        return False
    for record in data["papers"]:
        if not isinstance(record, dict) or not isinstance(record.get("ids"), list):
            return False
        if not all(isinstance(item, str) for item in record["ids"]):
            return False
        tags = record.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            return False
        if "status" in record and not isinstance(record["status"], str):
            return False
    return True


class _Table:
    """The records of one decoded file, found by any identity of their paper."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.records = records
        self.by_identity: dict[str, int] = {}
        for number, record in enumerate(records):
            for identity in record["ids"]:
                self.by_identity.setdefault(identity, number)

    def find(self, known: Sequence[str]) -> dict[str, Any] | None:
        """The record of the paper with identities `known` (strongest first), or None."""
        for identity in known:
            number = self.by_identity.get(identity)
            if number is not None:
                return self.records[number]
        return None

    def record(self, known: Sequence[str]) -> dict[str, Any]:
        """The paper's record, created when missing; its identities brought up to date."""
        record = self.find(known)
        if record is None:
            record = {"ids": [], "tags": []}
            self.records.append(record)
        record["ids"] = list(dict.fromkeys(list(known) + record["ids"]))
        number = self.records.index(record)
        for identity in record["ids"]:
            self.by_identity.setdefault(identity, number)
        return record


class Annotations(StoredJson):
    """Tags and reading status per paper, keyed by the paper's stable identities.

    Each change is saved as what it does to each paper (add these tags, set this status),
    applied to the file as it is now (tui.services.stored_json), so tags added meanwhile by
    another app or by `paperscope tag` are kept.

    Args:
        path: the JSON file; `None` keeps everything in memory (tests, a read-only run).
    """

    what = "tags and reading status"
    expected = 'a JSON object {"papers": [...]}'
    version = 1

    def __init__(self, path: Path | None) -> None:
        self.generation = 0  # bumped on every change, so views know to refresh
        # paper id -> (the paper, its identities): folding every title again for each
        # layer would cost seconds at 100,000 papers; a reloaded paper is a new object.
        self._identities: dict[str, tuple[Paper, tuple[str, ...]]] = {}
        super().__init__(path)

    def _empty(self) -> Any:
        return {"version": self.version, "papers": []}

    def _valid(self, data: Any) -> bool:
        return _valid(data)

    def _adopt(self, data: Any) -> None:
        # Under the store's lock: the engine's layer is built in a worker meanwhile.
        with self._lock:
            self._table = _Table(data["papers"])
            self.generation += 1

    def _identities_of(self, paper: Paper) -> tuple[str, ...]:
        cached = self._identities.get(paper.id)
        if cached is not None and cached[0] is paper:
            return cached[1]
        # Here, not at the top: the identities fold titles with the LaTeX converter (~8 ms
        # to import), and a start on a current index applies tags without them.
        from index.library.identity import identities

        found = identities(paper)
        self._identities[paper.id] = (paper, found)
        return found

    def _find(self, paper: Paper) -> dict[str, Any] | None:
        return self._table.find(self._identities_of(paper))

    # -- reading -------------------------------------------------------------------------

    def tags_of(self, paper: Paper) -> tuple[str, ...]:
        """The user's tags on `paper`, in the order they were added."""
        record = self._find(paper)
        return tuple(record.get("tags", ())) if record else ()

    def status_of(self, paper: Paper) -> str:
        """The paper's reading status (`unread` when none was set)."""
        record = self._find(paper)
        status = record.get("status") if record else None
        return status if status in STATUSES else DEFAULT_STATUS

    def all_tags(self) -> list[str]:
        """Every tag in use, most used first, for completion."""
        counts: dict[str, int] = {}
        for record in self._table.records:
            for tag in record.get("tags", ()):
                counts[tag] = counts.get(tag, 0) + 1
        return sorted(counts, key=lambda tag: (-counts[tag], tag))

    @property
    def empty(self) -> bool:
        """No paper has tags or a status yet."""
        with self._lock:
            return not self._table.records

    def layer(self, papers: Iterable[Paper]) -> dict[str, dict[str, frozenset[str]]]:
        """Facet -> value -> paper ids, for the engine (`tag`, `status`; unread is implied)."""
        with self._lock:
            return self.layer_of((paper.id, self._identities_of(paper)) for paper in papers)

    def layer_of(
        self, papers: Iterable[tuple[str, Sequence[str]]]
    ) -> dict[str, dict[str, frozenset[str]]]:
        """`layer` for papers given as (id, identities), e.g. the index's saved keys."""
        with self._lock:
            found = ((paper_id, self._table.find(known)) for paper_id, known in papers)
            return _facets((paper_id, record) for paper_id, record in found if record)

    def layer_found(
        self, papers_with: Callable[[str], Iterable[tuple[str, int]]]
    ) -> dict[str, dict[str, frozenset[str]]]:
        """`layer_of` with the papers found by identity instead of walked one by one.

        `papers_with(identity)` gives (paper id, rank of the identity among the paper's,
        0 the strongest), as index.search.key_lookup does. A paper takes the record of its
        strongest identity that has one, as `layer_of` gives it.
        """
        chosen: dict[str, tuple[int, int]] = {}  # paper id -> (rank, record number)
        with self._lock:
            table = self._table
            for identity, number in table.by_identity.items():
                for paper_id, rank in papers_with(identity):
                    known = chosen.get(paper_id)
                    if known is None or rank < known[0]:
                        chosen[paper_id] = (rank, number)
            return _facets((paper_id, table.records[n]) for paper_id, (_, n) in chosen.items())

    # -- changing ------------------------------------------------------------------------

    def change_tags(
        self, papers: Iterable[Paper], add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> bool:
        """Add and remove tags on every paper; returns whether the change was saved.

        The tags are normalised (`normalize_tag`); empty ones are ignored.
        """
        adding = [t for t in dict.fromkeys(normalize_tag(t) for t in add) if t]
        removing = {t for t in (normalize_tag(t) for t in remove) if t}
        with self._lock:  # the layer worker fills the same cache
            known = [self._identities_of(paper) for paper in papers]

        def change(data: Any) -> None:
            table = _Table(data["papers"])
            for identities in known:
                record = table.record(identities)
                tags = [t for t in record.get("tags", []) if t not in removing]
                tags += [t for t in adding if t not in tags]
                record["tags"] = tags

        return self._change(change)

    def clear_status(self, papers: Iterable[Paper]) -> bool:
        """Forget the reading status of every paper (each counts as unread again)."""
        with self._lock:  # the layer worker fills the same cache
            known = [self._identities_of(paper) for paper in papers]

        def clear(data: Any) -> None:
            table = _Table(data["papers"])
            for identities in known:
                record = table.find(identities)
                if record is not None:
                    record.pop("status", None)

        return self._change(clear)

    def set_status(self, papers: Iterable[Paper], status: str) -> bool:
        """Set the reading status of every paper; returns whether it was saved.

        Raises:
            ValueError: `status` is not one of STATUSES (or an alias of one).
        """
        value = normalize_status(status)
        if value is None:
            raise ValueError(
                f"unknown reading status {status!r}; use one of: " + ", ".join(STATUSES)
            )
        with self._lock:  # the layer worker fills the same cache
            known = [self._identities_of(paper) for paper in papers]

        def set_all(data: Any) -> None:
            table = _Table(data["papers"])
            for identities in known:
                table.record(identities)["status"] = value

        return self._change(set_all)


def _facets(
    records: Iterable[tuple[str, dict[str, Any]]],
) -> dict[str, dict[str, frozenset[str]]]:
    """Facet -> value -> paper ids (`tag`, `status`; unread is implied) of (paper id, its
    record) pairs."""
    tags: dict[str, set[str]] = {}
    statuses: dict[str, set[str]] = {}
    for paper_id, record in records:
        for tag in record.get("tags", ()):
            tags.setdefault(tag, set()).add(paper_id)
        status = record.get("status")
        if status in STATUSES and status != DEFAULT_STATUS:
            statuses.setdefault(status, set()).add(paper_id)
    return {
        "tag": {k: frozenset(v) for k, v in tags.items()},
        "status": {k: frozenset(v) for k, v in statuses.items()},
    }
