"""The user's marks and query history, kept between sessions in the data directory.

Both are small JSON files written atomically after every change: losing a mark to a crash
would be worse than the few microseconds a write costs. A damaged file is set aside in
memory (the file is left for the user, and never overwritten) and the app starts empty
with a warning. A save that fails (disk full, read-only folder) never raises: the state is
kept in memory, `save_error` says why in words for a notice, and the next change retries.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from index.atomic import write_text_atomic

__all__ = ["HISTORY_LIMIT", "Marks", "QueryHistory", "StoredJson", "describe_os_error", "read_json"]

HISTORY_LIMIT = 200


def read_json(
    path: Path, valid: Callable[[Any], bool], expected: str, empty: Any
) -> tuple[Any, str | None]:
    """The JSON value in `path` when `valid` accepts it, else `empty` and why not.

    Args:
        valid: says whether the decoded value has the shape the caller stores.
        expected: that shape in words, for the warning ("a JSON list of strings").
        empty: what a missing or unusable file stands for.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return empty, None
    except (OSError, UnicodeDecodeError) as error:
        return empty, f"{path}: cannot read ({error}); starting empty"
    except json.JSONDecodeError as error:
        return empty, f"{path}:{error.lineno}: not valid JSON ({error.msg}); starting empty"
    if not valid(data):
        return empty, f"{path}: expected {expected}; starting empty"
    return data, None


def _read_strings(path: Path) -> tuple[list[str], str | None]:
    """A JSON list of strings from `path`, or an empty list and the reason it was unusable."""
    return read_json(
        path,
        lambda data: isinstance(data, list) and all(isinstance(item, str) for item in data),
        "a JSON list of strings",
        [],
    )


def describe_os_error(error: OSError) -> str:
    """A failed write in a user's words: "disk full", "read-only folder", ..."""
    if error.errno == errno.ENOSPC:
        return "disk full"
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"no permission to write in {error.filename or 'the folder'}"
    if error.errno == errno.EDQUOT:
        return "disk quota exceeded"
    return error.strerror or str(error)


class StoredJson:
    """A JSON file the user's data is mirrored to after every change.

    Subclasses read their value with `read_json` in `__init__` and pass the warning to
    `_loaded`; `_save` then writes `_payload()` atomically, or refuses while the file on
    disk is damaged (it is the user's to inspect, and overwriting it would lose it).

    Args:
        path: the JSON file; `None` keeps the data in memory only.
    """

    what = "data"  # for messages: "could not save marks: disk full"

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.warning: str | None = None
        self.save_error: str | None = None  # why the last save failed; None once one works
        self._writable = True

    def _loaded(self, warning: str | None) -> None:
        """Record how reading went: a damaged file is never written over."""
        self.warning = warning
        self._writable = warning is None

    def _payload(self) -> Any:
        """The JSON value to write (subclasses)."""
        raise NotImplementedError

    def _save(self) -> bool:
        """Write the data; False (and `save_error` set) when it could not be saved."""
        if self.path is None:
            return True
        if not self._writable:
            # A damaged file is the user's to inspect: never overwrite it.
            self.save_error = (
                f"could not save {self.what}: {self.path} is damaged and is "
                "left as it was (kept for this session only)"
            )
            return False
        try:
            write_text_atomic(self.path, json.dumps(self._payload(), ensure_ascii=False, indent=1))
        except OSError as error:
            self.save_error = f"could not save {self.what}: {describe_os_error(error)}"
            return False
        self.save_error = None
        return True


class _StoredStrings(StoredJson):
    """A list of strings mirrored to a JSON file after every change.

    Args:
        path: the JSON file; `None` keeps the list in memory only.
    """

    def __init__(self, path: Path | None) -> None:
        super().__init__(path)
        self._items: list[str] = []
        if path is not None:
            self._items, warning = _read_strings(path)
            self._loaded(warning)

    def _payload(self) -> Any:
        return self._items


class QueryHistory(_StoredStrings):
    """Past queries, oldest first, without repeats, browsed with up and down in the search bar."""

    what = "the query history"

    @property
    def entries(self) -> tuple[str, ...]:
        return tuple(self._items)

    def add(self, query: str) -> None:
        """Remember a finished query; a repeat moves to the end instead of doubling."""
        query = query.strip()
        if not query:
            return
        if query in self._items:
            self._items.remove(query)
        self._items.append(query)
        del self._items[:-HISTORY_LIMIT]
        self._save()


class Marks(_StoredStrings):
    """The ids of the papers the user marked, in the order they were marked."""

    what = "marks"

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._items)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._items

    def __len__(self) -> int:
        return len(self._items)

    def toggle(self, paper_id: str) -> bool:
        """Mark or unmark one paper; returns True when it is now marked."""
        if paper_id in self._items:
            self._items.remove(paper_id)
            marked = False
        else:
            self._items.append(paper_id)
            marked = True
        self._save()
        return marked

    def clear(self) -> None:
        self._items.clear()
        self._save()
