"""What crosses to the pandoc driver: references, styles, one request and its answer.

Apart from the package's `__init__` so that the parts of a large bibliography
(`partition.py`) and the cached entry points share one `request` without importing each
other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from index.citations.engine.process import PandocProcess, shared_process

__all__ = [
    "FORMATS",
    "BibEntry",
    "EngineError",
    "EngineStyle",
    "Reference",
    "payload",
    "reference_id",
    "request",
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


def reference_id(reference: Reference) -> str:
    return reference.key if isinstance(reference, BibEntry) else str(reference["id"])


def payload(references: Sequence[Reference], style: EngineStyle, fmt: str) -> dict[str, Any]:
    items = [dict(r) for r in references if not isinstance(r, BibEntry)]
    bib = "\n\n".join(dict.fromkeys(r.text for r in references if isinstance(r, BibEntry)))
    payload: dict[str, Any] = {
        "csl": str(style.path),
        "ids": [reference_id(r) for r in references],
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
    answer = (process or shared_process()).request(payload(references, style, fmt))
    if "error" in answer:
        raise EngineError(" ".join(str(answer["error"]).split()))
    return [(str(e["id"]), str(e["text"]).strip()) for e in answer.get("entries", [])]
