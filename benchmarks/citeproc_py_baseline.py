"""citeproc-py 0.11, paperscope's citation engine before pandoc: the benchmarks' baseline.

Not a dependency any more: `pip install citeproc-py==0.11.1` in the benchmark's venv to
compare; without it the baseline is reported as not installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["available", "bibliography"]


def available() -> bool:
    try:
        import citeproc  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def bibliography(items: list[dict[str, Any]], ids: list[str], style: Path, html: bool) -> list[str]:
    """The entries citeproc-py renders for `ids` of `items` with the style at `style`, sorted
    as the style sorts them (`html`: its HTML formatter, else plain text)."""
    from citeproc import (  # type: ignore[import-not-found]
        Citation,
        CitationItem,
        CitationStylesBibliography,
        CitationStylesStyle,
        formatter,
    )
    from citeproc.source.json import CiteProcJSON  # type: ignore[import-not-found]

    parsed = CitationStylesStyle(str(style), validate=False)
    chosen = formatter.html if html else formatter.plain
    rendered = CitationStylesBibliography(parsed, CiteProcJSON(items), chosen)
    for id_ in ids:
        rendered.register(Citation([CitationItem(id_)]))
    rendered.sort()
    return [str(entry) for entry in rendered.bibliography()]
