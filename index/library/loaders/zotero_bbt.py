"""Better BibTeX's citation keys, from its own database beside Zotero's.

Better BibTeX (6 and later) keeps every item's key in `better-bibtex.sqlite` in the Zotero
data folder, table `citationkey` (`itemID`, `itemKey`, `libraryID`, `citationKey`,
`pinned`). Only pinned keys are also written to the item's `Extra` field (`Citation Key:
...`), and newer versions move keys into Zotero's native `citationKey` field; until then an
unpinned key, the one the user's documents cite, is only here. Zotero attaches this
database to its own exclusive connection, so it is copied the same way (`zotero_snapshot`)
and read from the copy. Rows are matched by library and item key, never by item id alone,
so a database left over from another library cannot give a paper a wrong key.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from index.library.loaders.zotero_snapshot import SnapshotError, connect, snapshot
from index.library.normalize import clean_text

__all__ = ["BBT_DATABASE", "bbt_files", "bbt_keys", "keys_digest"]

BBT_DATABASE = "better-bibtex.sqlite"

Keys = dict[tuple[int, str], str]  # (libraryID, item key) -> citation key


def bbt_files(database: Path) -> list[Path]:
    """Better BibTeX's database beside `database`, and its write-ahead log (present or not)."""
    bbt = database.with_name(BBT_DATABASE)
    return [bbt, bbt.with_name(BBT_DATABASE + "-wal")]


def bbt_keys(data_dir: Path) -> tuple[Keys, str | None]:
    """The keys Better BibTeX keeps, and a one-line problem when its database is unreadable.

    No database, or one without the `citationkey` table (Better BibTeX 5's format), is no
    keys and no problem.
    """
    path = data_dir / BBT_DATABASE
    if not path.is_file():
        return {}, None
    try:
        with snapshot(path) as copy:
            connection = connect(copy)
            try:
                found = connection.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'citationkey'"
                ).fetchone()
                rows = (
                    connection.execute(
                        "SELECT libraryID, itemKey, citationKey FROM citationkey"
                    ).fetchall()
                    if found
                    else []
                )
            finally:
                connection.close()
    except (SnapshotError, sqlite3.Error) as error:
        return {}, f"could not read Better BibTeX's citation keys in {BBT_DATABASE} ({error})"
    keys: Keys = {}
    for library, item_key, citation_key in rows:
        key = clean_text(str(citation_key or ""))
        if isinstance(library, int) and item_key and key:
            keys[(library, str(item_key))] = key
    return keys, None


def keys_digest(keys: Keys) -> str:
    """A short digest of the keys, for the live reload's content fingerprint."""
    return hashlib.blake2b(repr(sorted(keys.items())).encode(), digest_size=16).hexdigest()
