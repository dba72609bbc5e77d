"""The user's own layer on the papers: tags and reading status, kept between sessions.

Stored in `<data dir>/annotations.json` as a list of records, each naming its paper by
every stable identity known for it (index.library.identity: DOI, arXiv id, citation key,
title and year), never by the generated paper id alone: a re-import that renames ids, or a
paper that gained a DOI since, still finds its tags. The file is written atomically after
every change, and a damaged one is warned about and never overwritten (the machinery is
`tui.services.user_data.StoredJson`, shared with marks and history).

Nothing here knows about widgets: the app, the command line and tests use it alike, and the
search engine receives its contents as plain values (`layer`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from index.models import READING_STATUSES, Paper
from index.search.user_layer import normalize_status
from tui.services.user_data import StoredJson, read_json

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


class Annotations(StoredJson):
    """Tags and reading status per paper, keyed by the paper's stable identities.

    Args:
        path: the JSON file; `None` keeps everything in memory (tests, a read-only run).
    """

    what = "tags and reading status"

    def __init__(self, path: Path | None) -> None:
        super().__init__(path)
        self._records: list[dict[str, Any]] = []
        if path is not None:
            data, warning = read_json(
                path, _valid, 'a JSON object {"papers": [...]}', {"papers": []}
            )
            self._records = [dict(record) for record in data["papers"]]
            self._loaded(warning)
        self._reindex()
        self.generation = 0  # bumped on every change, so views know to refresh
        # paper id -> (the paper, its identities): folding every title again for each
        # layer would cost seconds at 100,000 papers; a reloaded paper is a new object.
        self._identities: dict[str, tuple[Paper, tuple[str, ...]]] = {}
        # The engine's layer is built in a worker while the UI thread may change tags.
        self._lock = threading.RLock()

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

    def _reindex(self) -> None:
        self._by_identity: dict[str, int] = {}
        for number, record in enumerate(self._records):
            for identity in record["ids"]:
                self._by_identity.setdefault(identity, number)

    def _payload(self) -> Any:
        return {"version": 1, "papers": self._records}

    def _find(self, paper: Paper) -> dict[str, Any] | None:
        return self._record_of(self._identities_of(paper))

    def _record_of(self, known: Sequence[str]) -> dict[str, Any] | None:
        for identity in known:
            number = self._by_identity.get(identity)
            if number is not None:
                return self._records[number]
        return None

    def _record(self, paper: Paper) -> dict[str, Any]:
        """The paper's record, created when missing; its identities brought up to date."""
        record = self._find(paper)
        if record is None:
            record = {"ids": [], "tags": []}
            self._records.append(record)
        known = list(self._identities_of(paper))
        record["ids"] = list(dict.fromkeys(known + record["ids"]))
        number = self._records.index(record)
        for identity in record["ids"]:
            self._by_identity.setdefault(identity, number)
        return record

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
        for record in self._records:
            for tag in record.get("tags", ()):
                counts[tag] = counts.get(tag, 0) + 1
        return sorted(counts, key=lambda tag: (-counts[tag], tag))

    @property
    def empty(self) -> bool:
        """No paper has tags or a status yet."""
        with self._lock:
            return not self._records

    def layer(self, papers: Iterable[Paper]) -> dict[str, dict[str, frozenset[str]]]:
        """Facet -> value -> paper ids, for the engine (`tag`, `status`; unread is implied)."""
        with self._lock:
            return self.layer_of((paper.id, self._identities_of(paper)) for paper in papers)

    def layer_of(
        self, papers: Iterable[tuple[str, Sequence[str]]]
    ) -> dict[str, dict[str, frozenset[str]]]:
        """`layer` for papers given as (id, identities), e.g. the index's saved keys."""
        with self._lock:
            found = ((paper_id, self._record_of(known)) for paper_id, known in papers)
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
            for identity, number in self._by_identity.items():
                for paper_id, rank in papers_with(identity):
                    known = chosen.get(paper_id)
                    if known is None or rank < known[0]:
                        chosen[paper_id] = (rank, number)
            return _facets((paper_id, self._records[n]) for paper_id, (_, n) in chosen.items())

    # -- changing ------------------------------------------------------------------------

    def change_tags(
        self, papers: Iterable[Paper], add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> bool:
        """Add and remove tags on every paper; returns whether the change was saved.

        The tags are normalised (`normalize_tag`); empty ones are ignored.
        """
        adding = [t for t in dict.fromkeys(normalize_tag(t) for t in add) if t]
        removing = {t for t in (normalize_tag(t) for t in remove) if t}
        with self._lock:
            for paper in papers:
                record = self._record(paper)
                tags = [t for t in record.get("tags", []) if t not in removing]
                tags += [t for t in adding if t not in tags]
                record["tags"] = tags
            self.generation += 1
            return self._save()

    def clear_status(self, papers: Iterable[Paper]) -> bool:
        """Forget the reading status of every paper (each counts as unread again)."""
        with self._lock:
            for paper in papers:
                record = self._find(paper)
                if record is not None:
                    record.pop("status", None)
            self.generation += 1
            return self._save()

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
        with self._lock:
            for paper in papers:
                self._record(paper)["status"] = value
            self.generation += 1
            return self._save()


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
