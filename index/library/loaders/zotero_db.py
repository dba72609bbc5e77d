"""Zotero's tables -> one plain record per regular item, in a handful of whole-table queries.

The tables and columns are those of Zotero's `resource/schema/userdata.sql` (schema 123,
Zotero 7.0, to 129). Ids of item types, fields and creator types differ between
installations (a fresh install numbers them in `schema.json` order, an upgraded one keeps
its old numbers), so everything is joined by *name*, never by a fixed id. Field values are
stored under the type-specific field (`proceedingsTitle`, `university`, `archiveID`);
`baseFieldMappingsCombined` says which base field each one stands for (`publicationTitle`,
`publisher`, `number`), and a record carries the value under both names.

Tables that only enrich an item (tags, collections, notes, attachments, the trash) are
optional: when a newer Zotero drops or renames one, the items still load and `skipped`
names what was left out.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "NOT_PAPERS",
    "REQUIRED_TABLES",
    "ZoteroAttachment",
    "ZoteroCreator",
    "ZoteroData",
    "ZoteroItem",
    "read_items",
    "schema_version",
]

# Without these there is nothing to load: the file is not (or no longer) a Zotero library.
REQUIRED_TABLES = ("items", "itemData", "itemDataValues", "itemTypes", "fields")
# Item types that are parts of other items, never papers of their own.
NOT_PAPERS = frozenset({"note", "attachment", "annotation"})


@dataclass(frozen=True)
class ZoteroCreator:
    """One row of `creators` in its role: fieldMode 1 is a one-field (institutional) name."""

    first: str
    last: str
    single_field: bool
    role: str  # the creator type's name: author, editor, programmer, ...


@dataclass(frozen=True)
class ZoteroAttachment:
    """A child attachment: `path` as stored (`storage:a.pdf`, `attachments:x`, absolute)."""

    key: str  # the attachment item's key, the folder name under `storage/`
    link_mode: int  # 0 imported file, 1 imported URL, 2 linked file, 3 linked URL
    path: str


@dataclass
class ZoteroItem:
    """A regular item with everything attached to it, still in Zotero's terms."""

    item_id: int
    key: str
    item_type: str
    library_id: int = 1
    fields: dict[str, str] = field(default_factory=dict)  # by field name and base name
    creators: list[ZoteroCreator] = field(default_factory=list)
    primary_role: str = "author"
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)  # "Parent/Child" paths
    notes: list[str] = field(default_factory=list)  # HTML
    attachments: list[ZoteroAttachment] = field(default_factory=list)
    bbt_key: str | None = None  # Better BibTeX's key for it, from its own database
    group_id: int | None = None  # the group's id when in a group library (its links name it)


@dataclass
class ZoteroData:
    """What `read_items` found, and which optional parts it could not read."""

    items: list[ZoteroItem]
    skipped: list[str] = field(default_factory=list)


def _tables(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row[0] for row in rows}


def _first(tables: set[str], *names: str) -> str | None:
    """The first of `names` that exists: the `*Combined` table, else its older source."""
    return next((name for name in names if name in tables), None)


def schema_version(connection: sqlite3.Connection) -> int | None:
    """The `userdata` schema version from the `version` table, when it says one."""
    try:
        row = connection.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
    except sqlite3.Error:
        return None
    try:
        return int(row[0]) if row else None
    except (TypeError, ValueError):
        return None


def read_items(connection: sqlite3.Connection) -> ZoteroData:
    """Every regular item of every library (user and groups, not feeds), not in the trash.

    Raises:
        sqlite3.DatabaseError: the file is not a database, or a required table is damaged.
        KeyError: a required table is missing (its name is the key).
    """
    tables = _tables(connection)
    for table in REQUIRED_TABLES:
        if table not in tables:
            raise KeyError(table)
    data = ZoteroData(items=[])
    types = dict(
        connection.execute(
            f"SELECT itemTypeID, typeName FROM {_first(tables, 'itemTypesCombined', 'itemTypes')}"
        )
    )
    field_names = dict(
        connection.execute(
            f"SELECT fieldID, fieldName FROM {_first(tables, 'fieldsCombined', 'fields')}"
        )
    )
    trashed = _optional(
        data, "the trash", connection, "SELECT itemID FROM deletedItems", tables, "deletedItems"
    )
    trash = {row[0] for row in trashed}

    where = ["1"]
    if "libraries" in tables:
        where.append("libraryID NOT IN (SELECT libraryID FROM libraries WHERE type = 'feed')")
    for table in ("itemNotes", "itemAttachments", "itemAnnotations"):
        if table in tables:
            where.append(f"itemID NOT IN (SELECT itemID FROM {table})")
    items: dict[int, ZoteroItem] = {}
    for item_id, type_id, key, library_id in connection.execute(
        f"SELECT itemID, itemTypeID, key, libraryID FROM items WHERE {' AND '.join(where)} "
        "ORDER BY libraryID, itemID"
    ):
        type_name = types.get(type_id, "")
        if item_id not in trash and type_name and type_name not in NOT_PAPERS:
            library = library_id if isinstance(library_id, int) else 1
            items[item_id] = ZoteroItem(item_id, str(key), type_name, library)
    if "groups" in tables:  # Zotero's links to a group's item name the group, not the library
        rows = _optional(
            data, "group ids", connection, "SELECT libraryID, groupID FROM groups", tables
        )
        group_of = {library: group for library, group in rows if isinstance(group, int)}
        for item in items.values():
            item.group_id = group_of.get(item.library_id)

    _read_fields(connection, tables, items, types, field_names)
    _read_creators(data, connection, tables, items, types)
    _read_tags(data, connection, tables, items)
    _read_collections(data, connection, tables, items)
    _read_children(data, connection, tables, items, trash)
    data.items = list(items.values())
    return data


def _optional(
    data: ZoteroData,
    what: str,
    connection: sqlite3.Connection,
    sql: str,
    tables: set[str],
    *needed: str,
) -> list[tuple[Any, ...]]:
    """The rows of an enriching query, or [] (and `what` noted) when it cannot run."""
    if not all(table in tables for table in needed):
        data.skipped.append(what)
        return []
    try:
        return connection.execute(sql).fetchall()
    except sqlite3.OperationalError:  # a column renamed or dropped by a newer Zotero
        data.skipped.append(what)
        return []


def _read_fields(
    connection: sqlite3.Connection,
    tables: set[str],
    items: dict[int, ZoteroItem],
    types: dict[int, str],
    field_names: dict[int, str],
) -> None:
    mappings = _first(tables, "baseFieldMappingsCombined", "baseFieldMappings")
    base: dict[tuple[int, int], str] = {}
    if mappings is not None:
        for type_id, base_id, field_id in connection.execute(
            f"SELECT itemTypeID, baseFieldID, fieldID FROM {mappings}"
        ):
            if base_id in field_names:
                base[(type_id, field_id)] = field_names[base_id]
    type_ids = {name: type_id for type_id, name in types.items()}
    for item_id, field_id, value in connection.execute(
        "SELECT d.itemID, d.fieldID, v.value FROM itemData d "
        "JOIN itemDataValues v ON v.valueID = d.valueID"
    ):
        item = items.get(item_id)
        if item is None or value is None or field_id not in field_names:
            continue
        text = str(value)
        item.fields[field_names[field_id]] = text
        base_name = base.get((type_ids.get(item.item_type, -1), field_id))
        if base_name:
            item.fields.setdefault(base_name, text)


def _read_creators(
    data: ZoteroData,
    connection: sqlite3.Connection,
    tables: set[str],
    items: dict[int, ZoteroItem],
    types: dict[int, str],
) -> None:
    roles = dict(
        _optional(
            data,
            "creator roles",
            connection,
            "SELECT creatorTypeID, creatorType FROM creatorTypes",
            tables,
            "creatorTypes",
        )
    )
    if "itemTypeCreatorTypes" in tables:
        primary = {
            types.get(type_id): roles.get(role_id)
            for type_id, role_id in _optional(
                data,
                "primary creator types",
                connection,
                "SELECT itemTypeID, creatorTypeID FROM itemTypeCreatorTypes WHERE primaryField = 1",
                tables,
            )
        }
        for each in items.values():
            each.primary_role = primary.get(each.item_type) or "author"
    for item_id, first, last, mode, role_id in _optional(
        data,
        "creators",
        connection,
        "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, ic.creatorTypeID "
        "FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
        "ORDER BY ic.itemID, ic.orderIndex",
        tables,
        "itemCreators",
        "creators",
    ):
        item = items.get(item_id)
        if item is not None:
            item.creators.append(
                ZoteroCreator(
                    str(first or ""), str(last or ""), mode == 1, str(roles.get(role_id, "author"))
                )
            )


def _read_tags(
    data: ZoteroData, connection: sqlite3.Connection, tables: set[str], items: dict[int, ZoteroItem]
) -> None:
    for item_id, name in _optional(
        data,
        "tags",
        connection,
        "SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID "
        "ORDER BY it.itemID, t.name COLLATE NOCASE, t.name",
        tables,
        "itemTags",
        "tags",
    ):
        item = items.get(item_id)
        if item is not None and name is not None:
            item.tags.append(str(name))


def _read_collections(
    data: ZoteroData, connection: sqlite3.Connection, tables: set[str], items: dict[int, ZoteroItem]
) -> None:
    rows = _optional(
        data,
        "collections",
        connection,
        "SELECT collectionID, collectionName, parentCollectionID, libraryID FROM collections",
        tables,
        "collections",
        "collectionItems",
    )
    if not rows:
        return
    groups = _group_names(data, connection, tables)
    trashed = (
        {
            row[0]
            for row in _optional(
                data,
                "trashed collections",
                connection,
                "SELECT collectionID FROM deletedCollections",
                tables,
                "deletedCollections",
            )
        }
        if "deletedCollections" in tables
        else set()
    )
    parents = {cid: (str(name), parent) for cid, name, parent, _ in rows}
    library_of = {cid: library for cid, _, _, library in rows}

    def path(cid: int) -> str | None:
        """ "Parent/Child", under its group's name in a group library ("Lab/Reading");
        None when it or an ancestor is in the trash (or in a loop)."""
        names: list[str] = []
        seen: set[int] = set()
        current: int | None = cid
        while current is not None and current in parents:
            if current in trashed or current in seen:
                return None
            seen.add(current)
            name, current = parents[current]
            names.append(name)
        group = groups.get(library_of[cid])
        if group:
            names.append(group)
        return "/".join(reversed(names))

    paths: dict[int, str | None] = {cid: path(cid) for cid in parents}
    per_item: dict[int, set[str]] = defaultdict(set)
    for cid, item_id in _optional(
        data, "collections", connection, "SELECT collectionID, itemID FROM collectionItems", tables
    ):
        where = paths.get(cid)
        if where and item_id in items:
            per_item[item_id].add(where)
    for item_id, found in per_item.items():
        items[item_id].collections = sorted(found, key=lambda p: (p.casefold(), p))


def _group_names(
    data: ZoteroData, connection: sqlite3.Connection, tables: set[str]
) -> dict[int, str]:
    """Group library id -> the group's name, the root of its collections in the facet.

    Zotero shows a group's collections under the group, apart from "My Library"; without
    the name, a group's "Reading" and the user's own "Reading" would be one facet value.
    A "/" in the name would read as one more level, so it becomes a look-alike.
    """
    if "groups" not in tables:
        return {}
    rows = _optional(
        data, "group names", connection, "SELECT libraryID, name FROM groups", tables, "groups"
    )
    return {
        library: str(name).replace("/", "\u2215").strip()
        for library, name in rows
        if name is not None and str(name).strip()
    }


def _read_children(
    data: ZoteroData,
    connection: sqlite3.Connection,
    tables: set[str],
    items: dict[int, ZoteroItem],
    trash: set[int],
) -> None:
    for item_id, parent, note in _optional(
        data,
        "notes",
        connection,
        "SELECT itemID, parentItemID, note FROM itemNotes "
        "WHERE parentItemID IS NOT NULL ORDER BY itemID",
        tables,
        "itemNotes",
    ):
        if parent in items and item_id not in trash and note:
            items[parent].notes.append(str(note))
    for item_id, parent, mode, stored, key in _optional(
        data,
        "attachments",
        connection,
        "SELECT a.itemID, a.parentItemID, a.linkMode, a.path, i.key FROM itemAttachments a "
        "JOIN items i ON i.itemID = a.itemID WHERE a.parentItemID IS NOT NULL "
        "ORDER BY a.itemID",
        tables,
        "itemAttachments",
    ):
        if parent in items and item_id not in trash and stored:
            link_mode = mode if isinstance(mode, int) else -1
            items[parent].attachments.append(ZoteroAttachment(str(key), link_mode, str(stored)))
