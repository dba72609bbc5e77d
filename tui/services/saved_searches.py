"""Saved searches: a query and its facet selections kept under a name.

Stored in `<data dir>/saved_searches.json`, atomically, with the same damaged-file rule as
every user file (tui.services.user_data.StoredJson): a file that does not read is warned
about, kept as it was, and the session works in memory. Only what decides the matches is
kept (query, selections, year range, sort), never the page size or typing state, so a saved
search means the same in the app and on the command line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, get_args

from index.models import SearchRequest, SortOrder
from tui.services.user_data import StoredJson, read_json

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
    values: dict[str, Any] = {"query": str(data.get("query", ""))}
    for name in _SETS:
        values[name] = frozenset(str(v) for v in data.get(name, ()) or ())
    values["years"] = frozenset(int(y) for y in data.get("years", ()) or () if isinstance(y, int))
    year_range = data.get("year_range")
    if isinstance(year_range, list) and len(year_range) == 2:
        values["year_range"] = tuple(year_range)
    if data.get("sort") in get_args(SortOrder):  # every order the app and CLI sort by
        values["sort"] = data["sort"]
    return SearchRequest(**values)


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

    Args:
        path: the JSON file; `None` keeps them in memory only.
    """

    what = "saved searches"

    def __init__(self, path: Path | None) -> None:
        super().__init__(path)
        self._items: list[dict[str, Any]] = []
        if path is not None:
            data, warning = read_json(
                path, _valid, 'a JSON object {"searches": [...]}', {"searches": []}
            )
            self._items = list(data["searches"])
            self._loaded(warning)

    def _payload(self) -> Any:
        return {"version": 1, "searches": self._items}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(item["name"] for item in self._items)

    def __iter__(self) -> Iterator[tuple[str, SearchRequest]]:
        for item in self._items:
            yield item["name"], request_from_dict(item["request"])

    def __len__(self) -> int:
        return len(self._items)

    def _index(self, name: str) -> int | None:
        folded = name.strip().casefold()
        for number, item in enumerate(self._items):
            if item["name"].casefold() == folded:
                return number
        return None

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
        number = self._index(name)
        if number is None:
            self._items.append(entry)
        else:
            self._items[number] = entry
        return self._save()

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
        self._items[number] = {**self._items[number], "name": new}
        return self._save()

    def delete(self, name: str) -> bool:
        """Forget a search.

        Raises:
            KeyError: there is no search named `name`.
        """
        number = self._index(name)
        if number is None:
            raise KeyError(name)
        del self._items[number]
        return self._save()


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValueError("a saved search needs a name")
    if len(name) > MAX_NAME:
        raise ValueError(f"a saved search name has at most {MAX_NAME} characters")
    return name
