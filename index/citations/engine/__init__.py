"""The CSL engine: pandoc's citeproc, in one long-lived pandoc process, behind a cache.

Why pandoc: on the CSL processor test suite's 197 bibliography fixtures pandoc 3.9 passes
175 and citeproc-py 0.11 passes 121; pandoc is bundled by the `pypandoc-binary` wheel
(no network, no system install) and reads BibLaTeX itself with the BibLaTeX-to-CSL
mapping it documents. What a caller hands in is a *reference*: either a CSL-JSON item
(a mapping with an `id`) or a `BibEntry`, the verbatim text of a BibLaTeX entry with
the `@string`s and crossref/xdata parents it needs, for pandoc to read as it reads a
`.bib` file. Both kinds can be mixed in one bibliography.

Results are cached by content (the references' text and the style file), so moving the
app's cursor back to a paper, or re-opening the style picker, does not render again.
Large bibliographies are rendered in independent groups (`partition.py`).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from index.citations.engine.process import EngineUnavailable, PandocProcess, shared_process

__all__ = [
    "BibEntry",
    "EngineError",
    "EngineStyle",
    "EngineUnavailable",
    "Reference",
    "close_engine",
    "render_bibliography",
    "render_entry",
]

FORMATS = ("plain", "markdown", "html")


@dataclass(frozen=True)
class BibEntry:
    """A BibLaTeX/BibTeX entry exactly as the user's file has it.

    Attributes:
        key: the entry's key, which is also its id in the rendered bibliography.
        text: the entry's text, preceded by every `@string` it uses and followed by its
            crossref/xdata parents; the parents are read but not printed.
    """

    key: str
    text: str


# A CSL-JSON item (a mapping with an "id") or a BibLaTeX entry for pandoc to read itself.
Reference = Mapping[str, Any] | BibEntry


@dataclass(frozen=True)
class EngineStyle:
    """What the engine renders with: an independent CSL file and, optionally, a locale.

    Attributes:
        path: an independent CSL style (a dependent style is resolved to its parent first,
            `index.citations.custom`).
        locale: the locale to use instead of the style's default (a dependent style's own
            `default-locale`, e.g. "en-GB"), or None.
    """

    path: Path
    locale: str | None = None


class EngineError(ValueError):
    """pandoc rejected a request: an unreadable style or reference; one line."""


def _reference_id(reference: Reference) -> str:
    return reference.key if isinstance(reference, BibEntry) else str(reference["id"])


def _payload(references: Sequence[Reference], style: EngineStyle, fmt: str) -> dict[str, Any]:
    items = [dict(r) for r in references if not isinstance(r, BibEntry)]
    bib = "\n\n".join(dict.fromkeys(r.text for r in references if isinstance(r, BibEntry)))
    payload: dict[str, Any] = {
        "csl": str(style.path),
        "ids": [_reference_id(r) for r in references],
        "format": fmt,
    }
    if items:
        payload["csljson"] = json.dumps(items, ensure_ascii=False)
    if bib:
        payload["bib"] = bib
    if style.locale:
        payload["lang"] = style.locale
    return payload


def request(
    references: Sequence[Reference],
    style: EngineStyle,
    fmt: str = "plain",
    process: PandocProcess | None = None,
) -> list[tuple[str, str]]:
    """One uncached request to the driver: (id, text) in the style's order.

    Raises:
        EngineUnavailable: pandoc cannot run.
        EngineError: pandoc cannot render with this style or these references.
    """
    answer = (process or shared_process()).request(_payload(references, style, fmt))
    if "error" in answer:
        raise EngineError(" ".join(str(answer["error"]).split()))
    return [(str(e["id"]), str(e["text"]).strip()) for e in answer.get("entries", [])]


class _Cache:
    """A small thread-safe LRU of rendered bibliographies, keyed by their requests' text."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> list[tuple[str, str]] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: str, value: list[tuple[str, str]]) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_cache = _Cache(2048)


def _cache_key(references: Sequence[Reference], style: EngineStyle, fmt: str) -> str:
    """The request's content: a changed paper or an edited style file renders anew."""
    try:
        stamp = style.path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    payload = _payload(references, style, fmt)
    return json.dumps([payload, stamp], sort_keys=True, ensure_ascii=False)


def render_bibliography(
    references: Sequence[Reference], style: EngineStyle | Path, fmt: str = "plain"
) -> list[tuple[str, str]]:
    """Bibliography entries for `references` in `style`: (id, text) in the style's order.

    Ids must be unique. A style that sorts (APA, Chicago, MLA) orders the entries; one
    that does not (IEEE, ACM) keeps the given order and numbers them from 1. `fmt` is
    "plain" (what is copied), "markdown" or "html" (the style's italics and bold kept).
    Thread-safe; cached by content.

    Raises:
        EngineUnavailable: pandoc is missing or cannot run ("citation engine unavailable: ...").
        EngineError: pandoc cannot use the style or read a reference.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}; one of {', '.join(FORMATS)}")
    if not references:
        return []
    engine_style = style if isinstance(style, EngineStyle) else EngineStyle(Path(style))
    key = _cache_key(references, engine_style, fmt)
    cached = _cache.get(key)
    if cached is not None:
        return list(cached)
    from index.citations.engine.partition import render_large

    rendered = render_large(references, engine_style, fmt)
    _cache.put(key, rendered)
    return list(rendered)


def render_entry(reference: Reference, style: EngineStyle | Path, fmt: str = "plain") -> str:
    """One reference's bibliography entry in `style` (a numeric style's "[1] " included)."""
    entries = render_bibliography([reference], style, fmt)
    return entries[0][1] if entries else ""


def close_engine() -> None:
    """Ends the shared pandoc process and forgets the cache (tests; the app need not call it)."""
    shared_process().close()
    _cache.clear()
