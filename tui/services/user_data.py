"""The user's marks and query history, kept between sessions in the data directory.

Both are small JSON lists written after every change, as operations under the file's lock
(tui.services.stored_json): losing a mark to a crash, or to another app open on the same
data, would be worse than the milliseconds a write costs. A damaged file is set aside in
memory (the file is left for the user, and never overwritten) and the app starts empty
with a warning. A save that fails (disk full, read-only folder) never raises: the state is
kept in memory, `save_error` says why in words for a notice, and the next change retries.
"""

from __future__ import annotations

from typing import Any

from tui.services.stored_json import Operation, StoredJson, describe_os_error, read_json

__all__ = ["HISTORY_LIMIT", "Marks", "QueryHistory", "StoredJson", "describe_os_error", "read_json"]

HISTORY_LIMIT = 200


class _StoredStrings(StoredJson):
    """A list of strings mirrored to a JSON file after every change.

    Args:
        path: the JSON file; `None` keeps the list in memory only.
    """

    expected = "a JSON list of strings"

    def _empty(self) -> Any:
        return []

    def _valid(self, data: Any) -> bool:
        return isinstance(data, list) and all(isinstance(item, str) for item in data)

    def _adopt(self, data: Any) -> None:
        self._items: list[str] = data


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

        def remember(items: list[str]) -> None:
            if query in items:
                items.remove(query)
            items.append(query)
            del items[:-HISTORY_LIMIT]

        self._change(remember)


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
        """Mark or unmark one paper; returns True when it is now marked.

        Saved as "mark it" or "unmark it", not as a toggle: another app's marks meanwhile
        must not flip this one's meaning.
        """
        if paper_id in self._items:
            self._change(_unmark({paper_id}))
            return False
        self._change(_mark(paper_id))
        return True

    def clear(self) -> None:
        """Unmark every paper this session shows as marked (one marked elsewhere since the
        last refresh stays marked: the user did not see it)."""
        self._change(_unmark(set(self._items)))


def _mark(paper_id: str) -> Operation:
    def mark(items: list[str]) -> None:
        if paper_id not in items:
            items.append(paper_id)

    return mark


def _unmark(paper_ids: set[str]) -> Operation:
    def unmark(items: list[str]) -> None:
        items[:] = [item for item in items if item not in paper_ids]

    return unmark
