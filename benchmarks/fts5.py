"""The baseline: the same requests answered by SQLite FTS5 from the standard library.

This is deliberately the straightforward FTS5 version a competent engineer would write in
an afternoon (no prefix index, no caches): `porter unicode61` tokens, `bm25()` ranking,
`snippet()` and `highlight()` for the 20 rows shown, facet counts by `GROUP BY` over the
match set, the unfinished word as `word*`, fuzzy words expanded through `fts5vocab` with a
Levenshtein filter. It does the same work as paperscope's full request, so the ratio of
the two in one run says how far paperscope is from a sensible alternative on this machine.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from index.models import Paper, SearchRequest, Segment, Snippet

__all__ = ["Fts5Index", "Fts5Result", "build_fts5"]

_START, _END = "\x02", "\x03"
_TOKEN = re.compile(r'(\w+):("[^"]*"?|\S*)|"([^"]*)("?)|(\S+)')
_WORD = re.compile(r"\w+")
_FIELD_COLUMNS = {
    "author": "authors",
    "authors": "authors",
    "title": "title",
    "venue": "venue",
    "abstract": "abstract",
}


@dataclass(frozen=True)
class Fts5Result:
    """What one FTS5 request produced: enough to compare with paperscope's result."""

    total: int
    ids: tuple[str, ...]
    snippets: tuple[Snippet, ...]
    facets: dict[str, dict[str, int]]


def build_fts5(papers: Sequence[Paper], path: Path) -> None:
    """Writes a fresh FTS5 database of `papers` to `path` in one transaction."""
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE papers(rowid INTEGER PRIMARY KEY, id TEXT, title TEXT, authors TEXT,
                            year INTEGER, venue TEXT);
        CREATE TABLE labels(doc INTEGER, facet TEXT, value TEXT);
        CREATE VIRTUAL TABLE fts USING fts5(title, authors, abstract, venue,
            tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row');
        """
    )
    with db:
        for rowid, paper in enumerate(papers, 1):
            authors = "; ".join(paper.authors)
            db.execute(
                "INSERT INTO papers VALUES (?,?,?,?,?,?)",
                (rowid, paper.id, paper.title, authors, paper.year, paper.venue),
            )
            db.execute(
                "INSERT INTO fts(rowid, title, authors, abstract, venue) VALUES (?,?,?,?,?)",
                (rowid, paper.title, authors, paper.abstract, paper.venue or ""),
            )
            db.executemany(
                "INSERT INTO labels VALUES (?,?,?)",
                [(rowid, "topic", t) for t in paper.topic_ids]
                + [(rowid, "hardware", h) for h in paper.hardware_ids],
            )
        db.execute("CREATE INDEX labels_by_value ON labels(facet, value, doc)")
        db.execute("CREATE INDEX labels_by_doc ON labels(doc, facet, value)")
    db.close()


def _levenshtein(a: str, b: str, limit: int) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class Fts5Index:
    """An open FTS5 database answering `SearchRequest`s like paperscope's engine."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TEMP TABLE m(doc INTEGER PRIMARY KEY)")

    def close(self) -> None:
        self.db.close()

    def update(self, papers: Sequence[tuple[int, Paper]]) -> None:
        """Replaces the given `(rowid, paper)` rows in one transaction."""
        with self.db:
            for rowid, paper in papers:
                authors = "; ".join(paper.authors)
                self.db.execute("DELETE FROM fts WHERE rowid = ?", (rowid,))
                self.db.execute(
                    "INSERT INTO fts(rowid, title, authors, abstract, venue) VALUES (?,?,?,?,?)",
                    (rowid, paper.title, authors, paper.abstract, paper.venue or ""),
                )
                self.db.execute("UPDATE papers SET title = ? WHERE rowid = ?", (paper.title, rowid))

    def _fuzzy(self, word: str) -> str | None:
        """The vocabulary terms within edit distance 1-2 of `word`, as an OR group."""
        limit = 1 if len(word) < 5 else 2
        rows = self.db.execute(
            "SELECT term FROM vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
            (word[0], chr(ord(word[0]) + 1), len(word) - 4, len(word) + limit),
        )
        # The vocabulary holds porter stems ("quantiz"), so a term also counts when it is
        # within reach of the word cut to the term's length, as a stem would be.
        terms = [
            t
            for (t,) in rows
            if _levenshtein(word, t, limit) <= limit
            or (len(t) >= 4 and _levenshtein(word[: len(t)], t, limit - 1) <= limit - 1)
        ]
        return "(" + " OR ".join(_quote(t) for t in terms) + ")" if terms else None

    def translate(self, request: SearchRequest) -> tuple[str | None, list[str]]:
        """The MATCH expression and the hardware ids named by `hw:` in the query."""
        text = request.query
        typing = request.as_you_type and bool(text) and not text[-1].isspace()
        parts: list[str] = []
        hardware: list[str] = []
        matches = list(_TOKEN.finditer(text))
        for index, match in enumerate(matches):
            last = typing and index == len(matches) - 1
            star = "*" if last else ""
            field, value, phrase, closed, word = match.groups()
            if field is not None:
                value = value.strip('"').lower()
                column = _FIELD_COLUMNS.get(field.lower())
                if field.lower() in ("hw", "hardware") and value:
                    hardware.append(value)
                elif column and _WORD.search(value):
                    parts.append(f"{column} : {_quote(value)}{star}")
                elif _WORD.search(value):
                    parts.append(_quote(value) + star)
            elif phrase is not None:
                if _WORD.search(phrase):
                    parts.append(_quote(phrase) + (star if not closed else ""))
            elif word.endswith("~") and _WORD.search(word):
                expanded = self._fuzzy(" ".join(_WORD.findall(word.lower())))
                parts.append(expanded or _quote(word.rstrip("~")))
            elif _WORD.search(word):
                parts.append(_quote(word) + star)
        return (" AND ".join(parts) or None), hardware

    def _filters(
        self, request: SearchRequest, hardware: list[str], skip: str | None
    ) -> tuple[str, list[object]]:
        sql, params = "", []
        for facet, values in (("topic", request.topics), ("hardware", request.hardware)):
            if values and facet != skip:
                marks = ",".join("?" * len(values))
                sql += (
                    f" AND m.doc IN (SELECT doc FROM labels WHERE facet = ? AND value IN ({marks}))"
                )
                params += [facet, *sorted(values)]
        for value in hardware:  # whole ids, as paperscope's `hw:` (parents are stored)
            sql += " AND m.doc IN (SELECT doc FROM labels WHERE facet = 'hardware' AND value = ?)"
            params.append(value)
        if request.years and skip != "year":
            marks = ",".join("?" * len(request.years))
            sql += f" AND m.doc IN (SELECT rowid FROM papers WHERE year IN ({marks}))"
            params += sorted(request.years)
        return sql, params

    def search(self, request: SearchRequest) -> Fts5Result:
        """Total, top `limit` with snippets, and topic/hardware/year counts, like the engine."""
        expression, hardware = self.translate(request)
        db = self.db
        db.execute("DELETE FROM m")
        if expression:
            db.execute("INSERT INTO m SELECT rowid FROM fts WHERE fts MATCH ?", (expression,))
        else:
            db.execute("INSERT INTO m SELECT rowid FROM papers")
        where, params = self._filters(request, hardware, None)
        total = db.execute(f"SELECT count(*) FROM m WHERE 1{where}", params).fetchone()[0]
        facets: dict[str, dict[str, int]] = {}
        for facet in ("topic", "hardware"):
            where_f, params_f = self._filters(request, hardware, facet)
            rows = db.execute(
                f"SELECT value, count(*) FROM m JOIN labels ON labels.doc = m.doc "
                f"WHERE facet = ?{where_f} GROUP BY value",
                [facet, *params_f],
            )
            facets[facet] = dict(rows)
        where_y, params_y = self._filters(request, hardware, "year")
        facets["year"] = dict(
            db.execute(
                f"SELECT year, count(*) FROM m JOIN papers ON papers.rowid = m.doc WHERE 1{where_y} "
                f"GROUP BY year",
                params_y,
            )
        )
        if expression:
            rows = db.execute(
                f"SELECT p.id, p.title, p.authors, p.year, p.venue, "
                f"snippet(fts, 2, '{_START}', '{_END}', '…', 24), "
                f"highlight(fts, 0, '{_START}', '{_END}') "
                f"FROM fts JOIN m ON m.doc = fts.rowid JOIN papers p ON p.rowid = fts.rowid "
                f"WHERE fts MATCH ?{where} ORDER BY bm25(fts, 10.0, 5.0, 1.0, 1.0) LIMIT ?",
                [expression, *params, request.limit],
            ).fetchall()
        else:
            rows = db.execute(
                f"SELECT p.id, p.title, p.authors, p.year, p.venue, '', p.title FROM m "
                f"JOIN papers p ON p.rowid = m.doc WHERE 1{where} "
                f"ORDER BY p.year DESC, p.title LIMIT ?",
                [*params, request.limit],
            ).fetchall()
        return Fts5Result(
            total=total,
            ids=tuple(row[0] for row in rows),
            snippets=tuple(_segments(row[5]) for row in rows),
            facets=facets,
        )


def _segments(marked: str) -> Snippet:
    """`snippet()` output with its markers turned into segments, as the engine returns."""
    segments = []
    for chunk in marked.split(_START):
        text, sep, rest = chunk.partition(_END)
        if sep:
            segments.append(Segment(text, True))
            if rest:
                segments.append(Segment(rest))
        elif text:
            segments.append(Segment(text))
    return Snippet(tuple(segments))
