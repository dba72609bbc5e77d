"""The CSL engine: pandoc's citeproc, in one long-lived pandoc process, behind a cache.

Why pandoc: on the CSL processor test suite's 199 bibliography fixtures pandoc 3.9 passes
173 and citeproc-py 0.11 passes 119 (`benchmarks/csl_suite.py`); pandoc is bundled by the `pypandoc-binary` wheel
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
from collections.abc import Sequence
from pathlib import Path

from index.citations.engine.process import EngineUnavailable, shared_process
from index.citations.engine.wire import (
    FORMATS,
    BibEntry,
    EngineError,
    EngineStyle,
    Reference,
    payload,
    request,
)

__all__ = [
    "BibEntry",
    "EngineError",
    "EngineStyle",
    "EngineUnavailable",
    "Reference",
    "close_engine",
    "render_bibliography",
    "render_entry",
    "request",
]


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
    return json.dumps([payload(references, style, fmt), stamp], sort_keys=True, ensure_ascii=False)


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
