"""Saved searches: a query and its facet selections kept under a name.

Stored in `<data dir>/saved_searches.json`, with the same rules as every user file
(tui.services.stored_json): each change applied to the file as it is now, under a lock,
and written atomically; a file that does not read is warned about, kept as it was, and the
session works in memory. Only what decides the matches is
kept (query, selections, year range, sort), never the page size or typing state, so a saved
search means the same in the app and on the command line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any, get_args

from index.models import SearchRequest, SortOrder
from tui.services.stored_json import StoredJson

__all__ = ["MAX_NAME", "SavedSearches", "request_from_dict", "request_to_dict"]

MAX_NAME = 60
# SearchRequest attributes that hold a selection (sets of strings, or of years).
_SETS = ("topics", "hardware", "venues", "authors", "tags", "statuses", "keywords", "collections")


def request_to_dict(request: SearchRequest) -> dict[str, Any]:
    """What decides the matches of `request`, as JSON data."""
    data: dict[str, Any] = {"query": request.query}
    for name in _SETS:
        values = getattr(request, name)
        if values:
            data[name] = sorted(values)
    if request.years:
        data["years"] = sorted(request.years)
    if request.year_range is not None:
        data["year_range"] = list(request.year_range)
    if request.sort != "relevance":
        data["sort"] = request.sort
    return data


def request_from_dict(data: dict[str, Any]) -> SearchRequest:
    """The request `request_to_dict` described (unknown keys are ignored)."""
    query = data.get("query", "")
    values: dict[str, Any] = {"query": query if isinstance(query, str) else ""}
    for name in _SETS:
        values[name] = frozenset(str(v) for v in _listed(data.get(name)) if _plain(v))
    values["years"] = frozenset(y for y in _listed(data.get("years")) if _year(y))
    year_range = data.get("year_range")
    if (
        isinstance(year_range, list)
        and len(year_range) == 2
        and all(y is None or _year(y) for y in year_range)
    ):
        values["year_range"] = tuple(year_range)
    if data.get("sort") in get_args(SortOrder):  # every order the app and CLI sort by
        values["sort"] = data["sort"]
    return SearchRequest(**values)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _plain(value: Any) -> bool:
    """A value a selection can hold: text or a number, never a nested list or object (a
    value nested ~1,000 deep would make `str` raise RecursionError)."""
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _year(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _valid(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("searches"), list)
        and all(
            isinstance(s, dict)
            and isinstance(s.get("name"), str)
            and isinstance(s.get("request"), dict)
            for s in data["searches"]
        )
    )


class SavedSearches(StoredJson):
    """Named searches, in the order they were saved (`1`-`9` recall the first nine).

    Saving, renaming and deleting are applied to the file as it is now
    (tui.services.stored_json): a search another app or `paperscope search --save` saved
    meanwhile is kept.

    Args:
        path: the JSON file; `None` keeps them in memory only.
    """

    what = "saved searches"
    expected = 'a JSON object {"searches": [...]}'
    version = 1

    def _empty(self) -> Any:
        return {"version": self.version, "searches": []}

    def _valid(self, data: Any) -> bool:
        return _valid(data)

    def _adopt(self, data: Any) -> None:
        self._items: list[dict[str, Any]] = data["searches"]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(item["name"] for item in self._items)

    def __iter__(self) -> Iterator[tuple[str, SearchRequest]]:
        for item in list(self._items):
            yield item["name"], request_from_dict(item["request"])

    def __len__(self) -> int:
        return len(self._items)

    def _index(self, name: str) -> int | None:
        return _index(self._items, name)

    def get(self, name: str) -> SearchRequest | None:
        """The saved request with this name (case does not matter), or None."""
        number = self._index(name)
        return None if number is None else request_from_dict(self._items[number]["request"])

    def save(self, name: str, request: SearchRequest) -> bool:
        """Save (or replace) a search; returns whether it reached the disk.

        Raises:
            ValueError: the name is empty or longer than MAX_NAME characters.
        """
        name = _check_name(name)
        entry = {"name": name, "request": request_to_dict(replace(request, as_you_type=False))}

        def save(data: Any) -> None:
            items = data["searches"]
            number = _index(items, name)
            if number is None:
                items.append(dict(entry))
            else:
                items[number] = {**items[number], **entry}  # a newer version's keys stay

        return self._change(save)

    def rename(self, old: str, new: str) -> bool:
        """Rename a search, keeping its place.

        Raises:
            KeyError: there is no search named `old`.
            ValueError: `new` is not a valid name or another search has it.
        """
        number = self._index(old)
        if number is None:
            raise KeyError(old)
        new = _check_name(new)
        other = self._index(new)
        if other is not None and other != number:
            raise ValueError(f"a saved search named {self._items[other]['name']!r} exists")
        old = self._items[number]["name"]

        def rename(data: Any) -> None:
            items = data["searches"]
            found, taken = _index(items, old), _index(items, new)
            if found is not None and taken in (None, found):  # else changed meanwhile
                items[found] = {**items[found], "name": new}

        return self._change(rename)

    def delete(self, name: str) -> bool:
        """Forget a search.

        Raises:
            KeyError: there is no search named `name`.
        """
        if self._index(name) is None:
            raise KeyError(name)

        def delete(data: Any) -> None:
            number = _index(data["searches"], name)
            if number is not None:  # else deleted meanwhile
                del data["searches"][number]

        return self._change(delete)


def _index(items: list[dict[str, Any]], name: str) -> int | None:
    """Where the search named `name` (case does not matter) is in `items`."""
    folded = " ".join(name.split()).casefold()
    for number, item in enumerate(items):
        if item["name"].casefold() == folded:
            return number
    return None


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValueError("a saved search needs a name")
    if len(name) > MAX_NAME:
        raise ValueError(f"a saved search name has at most {MAX_NAME} characters")
    return name
