"""What a Zotero database's papers depend on, in a few aggregate queries: for a live reload.

Zotero writes to its database far more often than the user changes a paper: sync times,
settings, the last-read time of a PDF, RSS feed items (in the same `items` table, in a
`feed` library). Each write changes the file's size or mtime, and each used to cost a full
reload of the library. `content_fingerprint` changes only when something a paper is made
from changes: an item's fields (each edit points `itemData` at another value), creators,
notes, attachments, tags, collections (names and nesting too: a renamed collection changes
no item), group names, the trash. Timestamps alone would not do before schema 129:
`clientDateModified` has a resolution of one second, and a note being typed is saved
several times a second; schema 129 adds `clientVersion`, bumped on every local save, and
it is used where present. Sync bookkeeping (`version`, `synced`) is left out on purpose.
"""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any

__all__ = ["content_fingerprint"]

# The items that can be papers or their parts: every library's but the feeds'.
_NOT_FEEDS = "libraryID NOT IN (SELECT libraryID FROM libraries WHERE type = 'feed')"
# (table, aggregate over its rows that belong to regular items); `{items}` is the item set.
_AGGREGATES = (
    ("items", "SELECT COUNT(*), MAX(clientDateModified), TOTAL(itemTypeID) FROM items{where}"),
    # Schema 129 (Zotero 9) counts every local save in `clientVersion`: exact, where it is.
    ("items", "SELECT MAX(clientVersion), TOTAL(clientVersion) FROM items{where}"),
    ("collections", "SELECT MAX(clientVersion) FROM collections"),
    ("itemData", "SELECT COUNT(*), TOTAL(fieldID), TOTAL(valueID) FROM itemData{within}"),
    (
        "itemCreators",
        "SELECT COUNT(*), TOTAL(creatorID), TOTAL(creatorTypeID), TOTAL(orderIndex) "
        "FROM itemCreators{within}",
    ),
    (
        "itemNotes",
        "SELECT COUNT(*), TOTAL(length(note)), TOTAL(parentItemID) FROM itemNotes{within}",
    ),
    (
        "itemAttachments",
        "SELECT COUNT(*), TOTAL(length(path)), TOTAL(linkMode), TOTAL(parentItemID) "
        "FROM itemAttachments{within}",
    ),
    ("itemTags", "SELECT COUNT(*), TOTAL(tagID) FROM itemTags{within}"),
    ("collectionItems", "SELECT COUNT(*), TOTAL(collectionID) FROM collectionItems{within}"),
    ("deletedItems", "SELECT COUNT(*), TOTAL(itemID) FROM deletedItems"),
    ("deletedCollections", "SELECT COUNT(*), TOTAL(collectionID) FROM deletedCollections"),
)
# Small tables whose every row matters (names): hashed whole.
_WHOLE = (
    ("tags", "SELECT tagID, name FROM tags ORDER BY tagID"),
    (
        "collections",
        "SELECT collectionID, collectionName, parentCollectionID, libraryID FROM collections "
        "ORDER BY collectionID",
    ),
    ("groups", "SELECT libraryID, name FROM groups ORDER BY libraryID"),
    ("creators", "SELECT TOTAL(length(firstName)), TOTAL(length(lastName)) FROM creators"),
)


def content_fingerprint(connection: sqlite3.Connection) -> tuple[Any, ...]:
    """A value that changes whenever the library's papers may have (see the module).

    Raises:
        sqlite3.Error: the database cannot be read.
    """
    tables = {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    feeds = "libraries" in tables and any(
        row[1] == "type" for row in connection.execute("PRAGMA table_info(libraries)")
    )  # an older schema without library types has no feeds to leave out either
    where = f" WHERE {_NOT_FEEDS}" if feeds else ""
    within = f" WHERE itemID IN (SELECT itemID FROM items WHERE {_NOT_FEEDS})" if feeds else ""
    out: list[Any] = []
    for table, sql in _AGGREGATES:
        out.append(_run(connection, tables, table, sql.format(where=where, within=within)))
    digest = hashlib.blake2b(digest_size=16)
    for table, sql in _WHOLE:
        digest.update(repr(_run(connection, tables, table, sql, all_rows=True)).encode())
    out.append(digest.hexdigest())
    return tuple(out)


def _run(
    connection: sqlite3.Connection, tables: set[str], table: str, sql: str, all_rows: bool = False
) -> Any:
    """The query's rows, or None when its table is missing or has other columns."""
    if table not in tables:
        return None
    try:
        cursor = connection.execute(sql)
        return cursor.fetchall() if all_rows else cursor.fetchone()
    except sqlite3.OperationalError:  # a column renamed or dropped by a newer Zotero
        return None
