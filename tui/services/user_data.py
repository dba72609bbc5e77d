"""The user's marks and query history, kept between sessions in the data directory.

Both are small JSON files written atomically after every change: losing a mark to a crash
would be worse than the few microseconds a write costs. A damaged file is set aside in
memory (the file is left for the user) and the app starts empty with a warning.
"""

from __future__ import annotations

import json
from pathlib import Path

from index.atomic import write_text_atomic

__all__ = ["QueryHistory", "Marks", "HISTORY_LIMIT"]

HISTORY_LIMIT = 200


def _read_strings(path: Path) -> tuple[list[str], str | None]:
    """A JSON list of strings from `path`, or an empty list and the reason it was unusable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], None
    except (OSError, UnicodeDecodeError) as error:
        return [], f"{path}: cannot read ({error}); starting empty"
    except json.JSONDecodeError as error:
        return [], f"{path}:{error.lineno}: not valid JSON ({error.msg}); starting empty"
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        return [], f"{path}: expected a JSON list of strings; starting empty"
    return data, None


class _StoredStrings:
    """A list of strings mirrored to a JSON file after every change.

    Args:
        path: the JSON file; `None` keeps the list in memory only.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.warning: str | None = None
        self._items: list[str] = []
        if path is not None:
            self._items, self.warning = _read_strings(path)
        self._writable = self.warning is None

    def _save(self) -> None:
        # A damaged file is the user's to inspect: never overwrite it silently.
        if self.path is not None and self._writable:
            write_text_atomic(self.path, json.dumps(self._items, ensure_ascii=False, indent=1))


class QueryHistory(_StoredStrings):
    """Past queries, oldest first, without repeats, browsed with up and down in the search bar."""

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
